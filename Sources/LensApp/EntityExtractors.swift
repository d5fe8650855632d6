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

    /// Whether libphonenumber knows `region`.
    public static func isSupported(region: String) -> Bool {
        PhoneNumberLibrary().isSupported(region: region)
    }
}
