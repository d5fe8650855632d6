/// A phone number found in a text, as a phone-number library reads it.
public struct FoundPhoneNumber: Sendable, Equatable {
    /// UTF-8 byte offsets of the number as written.
    public var start: Int, end: Int
    /// E.164, e.g. `+14155550132`.
    public var e164: String
    /// The extension (`204` for `ext. 204`), if any.
    public var extensionNumber: String?
    /// The region the number belongs to (`US`, `GB`), when known.
    public var region: String?

    public init(start: Int, end: Int, e164: String, extensionNumber: String? = nil, region: String? = nil) {
        self.start = start
        self.end = end
        self.e164 = e164
        self.extensionNumber = extensionNumber
        self.region = region
    }
}

/// Finds phone numbers in text. LensCore stays free of libraries: the implementation
/// (libphonenumber, in LensPhone) is handed to the entity extractor by LensApp.
public protocol PhoneNumberFinding: Sendable {
    /// The numbers in `text`, reading those without a country code as numbers of `region`
    /// (ISO 3166 alpha-2, e.g. `US`).
    func phoneNumbers(in text: String, region: String) -> [FoundPhoneNumber]
    /// The numbers of `text` read in `region`; with `exactGrouping`, only those whose digits are
    /// grouped as that region writes its numbers.
    func phoneNumbers(in text: String, region: String, exactGrouping: Bool) -> [FoundPhoneNumber]
    /// Whether `region` is a region the finder knows.
    func isSupported(region: String) -> Bool
    /// The regions where `written` (one number, without a country code) is a valid number
    /// written with the region's own grouping.
    func regionsWriting(_ written: String) -> [String]
}

extension PhoneNumberFinding {
    public func regionsWriting(_ written: String) -> [String] { [] }
}
