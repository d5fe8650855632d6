import Foundation
import LensCore
import LensPhone
import LensStore

/// Makes entity extractors from Debian's data: libphonenumber (LensPhone) and the Public Suffix
/// List (package `publicsuffix`).
public enum EntityExtractors {
    public static let publicSuffixListPath = "/usr/share/publicsuffix/public_suffix_list.dat"

    /// Read once per process (~14,000 rules). Without the file, bare domains are not recognized;
    /// addresses with a scheme or `www.` still are.
    static let suffixes = PublicSuffixList(parsing: (try? String(contentsOfFile: publicSuffixListPath, encoding: .utf8)) ?? "")

    /// Whether the Public Suffix List could be read (`lens doctor` reports it).
    public static var hasPublicSuffixList: Bool { !suffixes.isEmpty }

    /// An extractor for `region` (ISO 3166, e.g. `US`), reading national phone numbers in
    /// `fallbackRegions` too when nothing in the text says where a number is from.
    public static func make(region: String, fallbackRegions: [String] = []) -> EntityExtractor {
        var extractor = EntityExtractor(region: region, fallbackRegions: fallbackRegions, suffixes: suffixes, phoneFinder: PhoneNumberLibrary())
        extractor.timeZone = .current
        return extractor
    }

    /// The same, reading a national number the text gives no country for as the one number of
    /// its readings that `database` already holds in international form.
    static func make(region: String, fallbackRegions: [String] = [], knowing database: LensDatabase) -> EntityExtractor {
        var extractor = make(region: region, fallbackRegions: fallbackRegions)
        extractor.knownPhoneNumbers = { numbers in (try? database.knownPhoneNumbers(among: numbers)) ?? [] }
        return extractor
    }

    /// The normalized form of `value` read as a `type` entity (`(415) 555-0132` → `+14155550132`),
    /// when the whole value is one; otherwise the value as given (e-mails lower-cased).
    public static func normalized(_ value: String, as type: EntityType, region: String) -> String {
        let whole = value.utf8.count
        if let entity = make(region: region).entities(in: value).first(where: { $0.type == type && $0.start == 0 && $0.end == whole }) {
            return entity.normalized
        }
        return type == .email ? value.lowercased() : value
    }

    /// The entities of `text` as Lens would store them: its secrets masked first (entities of type
    /// `secret`, the marker as value, the kind as normalized form), the others found in the masked
    /// text, so no entity holds a secret. Offsets are in `text`.
    public static func entitiesMaskingSecrets(in text: String, region: String, reference: Date? = nil,
                                              detector: SecretDetector = SecretDetector()) -> [Entity] {
        let masked = detector.masking(text)
        var found = make(region: region).entities(in: masked.text, reference: reference).map { entity in
            var e = entity
            e.start = masked.originalOffset(entity.start)
            e.end = masked.originalOffset(entity.end)
            return e
        }
        found += masked.secrets.map { Entity(type: .secret, value: $0.marker, normalized: $0.kind.rawValue, start: $0.start, end: $0.end) }
        return found.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
    }

    /// A normalized value as a person reads it: a phone number grouped with its country code
    /// (`+14155550132` → `+1 415-555-0132`); other types as they are.
    public static func readable(_ normalized: String, type: String) -> String {
        guard type == EntityType.phone.rawValue else { return normalized }
        return PhoneNumberLibrary().internationalFormat(of: normalized) ?? normalized
    }

    /// Whether libphonenumber knows `region`.
    public static func isSupported(region: String) -> Bool {
        PhoneNumberLibrary().isSupported(region: region)
    }
}
