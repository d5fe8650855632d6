import ArgumentParser
import Foundation
import LensApp
import LensCore

/// `--config`, for the commands that read settings from the configuration file (the trash
/// folder, undo_days, gc_grace_days, folder tags). A missing file means the defaults.
struct ConfigOption: ParsableArguments {
    @Option(help: ArgumentHelp("The configuration file.",
                               discussion: "Defaults to $LENS_CONFIG, else $XDG_CONFIG_HOME/lens/config.toml, else ~/.config/lens/config.toml.",
                               valueName: "path"))
    var config: String?

    func load() throws -> LensConfiguration {
        do {
            return try ConfigurationFile.load(ConfigurationFile.path(explicit: config))
        } catch {
            throw LensCLIError(message: error.description)
        }
    }
}
