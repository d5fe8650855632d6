import Foundation

/// How to run Lens in the background from where this `lens` is: the commands `lens init` and
/// `lens doctor` print name files that exist on this machine (a source clone's
/// `scripts/install.sh` exists only in a clone).
public enum ServiceInstructions {
    /// Where the user unit belongs: `$XDG_CONFIG_HOME/systemd/user/lens.service`, else under `~/.config`.
    public static func unitPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        return configHome + "/systemd/user/lens.service"
    }

    /// The running executable's path.
    public static var executablePath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// The source folder this `lens` was built in (`ROOT/.build/…/lens` with `ROOT/scripts/install.sh`), if any.
    public static func sourceFolder(of executable: String = executablePath) -> String? {
        guard let range = executable.range(of: "/.build/") else { return nil }
        let root = String(executable[..<range.lowerBound])
        return FileManager.default.fileExists(atPath: root + "/scripts/install.sh") ? root : nil
    }

    /// The commands that install (when needed) and start the user service whose unit belongs at `unitPath`.
    public static func steps(unitPath: String, executable: String = executablePath) -> [String] {
        let start = "systemctl --user daemon-reload && systemctl --user enable --now lens"
        if FileManager.default.fileExists(atPath: unitPath) { return [start] }
        if let root = sourceFolder(of: executable) {
            return ["bash \(root)/scripts/install.sh   # installs lens, its man pages and the user units", start]
        }
        return ["# the user units come with Lens's source: in a clone of it, bash scripts/install.sh", start]
    }
}
