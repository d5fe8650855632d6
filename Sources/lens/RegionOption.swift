import ArgumentParser
import Foundation
import LensApp
import LensCore

/// `--region`, shared by the commands that extract entities: the region of phone numbers without
/// a country code and of numeric dates.
struct RegionOption: ParsableArguments {
    @Option(help: ArgumentHelp("The region (ISO 3166, e.g. US, GB, DE) of phone numbers without a country code and of numeric dates; default: $ENTITY_REGION, else US.", valueName: "cc"))
    var region: String = Self.environmentRegion ?? "US"

    /// `$ENTITY_REGION`; set but empty counts as unset, as shells and the NO_COLOR convention treat it.
    static var environmentRegion: String? {
        guard let value = ProcessInfo.processInfo.environment["ENTITY_REGION"], !value.isEmpty else { return nil }
        return value
    }

    func validate() throws {
        guard LensConfiguration.isRegionCode(region), EntityExtractors.isSupported(region: region) else {
            throw ValidationError("--region must be a two-letter region code such as US, GB or DE, not '\(region)'.")
        }
    }
}
