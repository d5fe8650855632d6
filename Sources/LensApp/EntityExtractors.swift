import Foundation
import LensCore
import LensPhone

/// Makes entity extractors from Debian's data: libphonenumber (LensPhone) and the Public Suffix
/// List (package `publicsuffix`).
public enum EntityExtractors {
    public static let publicSuffixListPath = "/usr/share/publicsuffix/public_suffix_list.dat"

    /// Read once per process (~14,000 rules). Without the file, bare domains are not recognized;
    /// addresses with a scheme or `www.` still are.
    static let suffixes = PublicSuffixList(parsing: (try? String(contentsOfFile: publicSuffixListPath, encoding: .utf8)) ?? "")

    /// Whether the Public Suffix List could be read (`lens doctor` reports it).
    public static var hasPublicSuffixList: Bool { !suffixes.isEmpty }

    /// An extractor for `region` (ISO 3166, e.g. `US`).
    public static func make(region: String) -> EntityExtractor {
        EntityExtractor(region: region, suffixes: suffixes, phoneFinder: PhoneNumberLibrary())
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

    /// Whether libphonenumber knows `region`.
    public static func isSupported(region: String) -> Bool {
        PhoneNumberLibrary().isSupported(region: region)
    }
}
