import Foundation

/// Finds every kind of entity in a text. Pure: the phone finder (libphonenumber, in LensPhone)
/// and the public-suffix list are handed in by LensApp.
public struct EntityExtractor: Sendable {
    /// ISO 3166 region for numbers without a country code and for numeric dates (`03/05/2024`).
    public var region: String
    public var suffixes: PublicSuffixList
    public var phoneFinder: (any PhoneNumberFinding)?

    /// Regions to read national phone numbers in after ``region`` when the text gives no
    /// evidence of one (the `regions` setting), in order.
    public var fallbackRegions: [String]
    /// The time zone capture times are read in, for dates shown without a year (LensApp passes
    /// the machine's; UTC by default so that extraction is the same everywhere).
    public var timeZone = TimeZone(identifier: "UTC")!
    /// Which of some E.164 numbers the library already holds (LensApp asks the store): a
    /// national number the text gives no country for is read as the one the library knows.
    public var knownPhoneNumbers: (@Sendable ([String]) -> Set<String>)?

    public init(region: String = "US", fallbackRegions: [String] = [], suffixes: PublicSuffixList, phoneFinder: (any PhoneNumberFinding)? = nil) {
        self.region = region
        self.fallbackRegions = fallbackRegions
        self.suffixes = suffixes
        self.phoneFinder = phoneFinder
    }

    /// The entities of `text` in reading order. Where two would overlap, the earlier kind in
    /// this order wins: e-mail, URL, date, money, phone (a date or an amount is never a phone).
    ///
    /// `reference` is when the text was seen (the screenshot's capture time): a date written
    /// without a year (`Tue May 9`) is the nearest such date on or before it. Without one, such
    /// dates are not found.
    public func entities(in text: String, reference: Date? = nil) -> [Entity] {
        var found = WebExtraction.emails(in: text)
        found += WebExtraction.urls(in: text, suffixes: suffixes, excluding: found)
        for candidate in DateExtraction.entities(in: text, region: region, reference: reference, timeZone: timeZone) + MoneyExtraction.entities(in: text)
            + PersonExtraction.entities(in: text)
        where !found.contains(where: { $0.start < candidate.end && candidate.start < $0.end }) {
            found.append(candidate)
        }
        if let phoneFinder {
            let utf8 = Array(text.utf8)
            for number in PhoneEvidence.numbers(in: text, utf8: utf8, finder: phoneFinder, evidence: { PhoneEvidence.regions(in: text, webEntities: found) },
                                                fallback: fallbackRegions, defaultRegion: region, known: knownPhoneNumbers)
            where !found.contains(where: { $0.start < number.end && number.start < $0.end }) {
                found.append(Entity(type: .phone, value: String(decoding: utf8[number.start..<number.end], as: UTF8.self),
                                    normalized: number.e164, start: number.start, end: number.end))
            }
        }
        return found.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
    }
}
