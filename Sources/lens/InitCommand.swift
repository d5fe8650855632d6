import ArgumentParser
import Foundation
import LensApp

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a commented configuration file that watches your screenshot folders.",
        discussion: """
            With folders given, Lens watches those. Without, it offers the usual ones that exist \
            (~/Pictures/Screenshots, ~/Pictures, ~/Desktop) one by one on a terminal; --yes takes \
            them all. The file is written to --config, $LENS_CONFIG, $XDG_CONFIG_HOME/lens/config.toml \
            or ~/.config/lens/config.toml.

            Examples:
              lens init ~/Pictures/Screenshots
              lens init --yes
              lens init --print ~/Desktop > my-lens.toml
            """)

    @Option(help: ArgumentHelp("The configuration file to write.", valueName: "path"))
    var config: String?

    @Argument(help: ArgumentHelp("Folders to watch.", valueName: "folder"))
    var folders: [String] = []

    @Flag(help: "Watch every usual screenshot folder that exists, without asking.")
    var yes = false

    @Flag(help: "Replace an existing configuration file.")
    var force = false

    @Flag(name: .customLong("print"), help: "Print the configuration instead of writing it.")
    var printOnly = false

    func run() throws {
        let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
        var chosen = folders.map { $0.hasPrefix("~") ? $0 : LensLocations.absolute($0) }
        if folders.isEmpty {
            for candidate in Initializer.candidateFolders(home: home) {
                if yes || ask("Watch \(candidate)?") { chosen.append(candidate) }
            }
        }
        let text = ConfigurationFile.defaultText(folders: chosen)
        if printOnly {
            print(text, terminator: "")
            return
        }
        let path = ConfigurationFile.path(explicit: config)
        do {
            try Initializer.write(text, to: path, force: force)
        } catch {
            throw LensCLIError(message: "\(error)")
        }
        print("Wrote \(path)" + (chosen.isEmpty ? " (no folder is watched yet: edit it to add one)." : ", watching:"))
        for folder in chosen {
            let expanded = folder.hasPrefix("~") ? home + folder.dropFirst() : folder
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: expanded, isDirectory: &isFolder)
            print("  \(OutputStyle.visible(folder))" + (exists && isFolder.boolValue ? "" : exists ? "  (not a folder!)" : "  (does not exist yet)"))
            if !exists || !isFolder.boolValue {
                let problem = exists ? "is not a folder" : "does not exist"
                FileHandle.standardError.write(Data(("lens: warning: \(OutputStyle.visible(expanded)) \(problem): create it, "
                    + "or correct the path in \(path) ('lens doctor' checks it)\n").utf8))
            }
        }
        print("\nTo index in the background, start the user service:")
        for step in ServiceInstructions.steps(unitPath: ServiceInstructions.unitPath()) { print("  " + step) }
        print("Or run it in the foreground: lens watch")
    }

    /// Asks a yes/no question on a terminal; without one, the answer is no.
    private func ask(_ question: String) -> Bool {
        guard isatty(STDIN_FILENO) == 1 else { return false }
        print("\(question) [Y/n] ", terminator: "")
        fflush(nil)
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? "n"
        return answer.isEmpty || answer == "y" || answer == "yes"
    }
}
