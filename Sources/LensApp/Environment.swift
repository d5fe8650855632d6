import Foundation
import LensStore

/// Where Lens keeps its files, following the XDG base-directory convention.
public enum LensLocations {
    /// The database path: `--db`, else `$LENS_DB`, else `$XDG_DATA_HOME/lens/lens.db`,
    /// else `~/.local/share/lens/lens.db`.
    public static func databasePath(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit, !explicit.isEmpty { return absolute(explicit) }
        if let fromEnv = environment["LENS_DB"], !fromEnv.isEmpty { return absolute(fromEnv) }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/lens/lens.db" }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.local/share/lens/lens.db"
    }

    /// Where thumbnails are cached: `$XDG_CACHE_HOME/lens`, else `~/.cache/lens`.
    public static func cacheFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/lens" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.cache/lens"
    }

    /// `path` made absolute against the working directory, with `.` and `..` resolved.
    public static func absolute(_ path: String) -> String {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path)
            : URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(path)
        return url.standardizedFileURL.path
    }
}

/// Keeps libtesseract's OpenMP from oversubscribing the CPU.
///
/// With OpenMP at its defaults, several concurrent recognitions are 6–10× slower (threads fight,
/// half the CPU goes to the kernel). libgomp reads `OMP_THREAD_LIMIT` when it is loaded, which
/// happens before `main` because `lens` links libtesseract, so setting it later is too late:
/// the process re-executes itself with the variable set.
public enum OpenMPLimit {
    public static let variable = "OMP_THREAD_LIMIT"

    /// Subcommands that only read the library and never recognize an image: they skip the
    /// re-exec, 23 of the 56 ms `lens search` took from a shell at 100,000 screenshots.
    static let readingSubcommands: Set<String> = ["search", "show", "status", "stats", "entities", "tags", "history", "export", "open"]

    /// Re-executes the current process with `OMP_THREAD_LIMIT=1` if the variable is unset, unless
    /// its subcommand is one of ``readingSubcommands``. Returns only if no re-exec was needed or
    /// it failed (then recognition is merely slower).
    public static func reexecIfNeeded() {
        guard getenv(variable) == nil else { return }
        let args = CommandLine.arguments
        if args.count > 1, readingSubcommands.contains(args[1]) { return }
        setenv(variable, "1", 1)
        // The arguments as the process got them: bytes, so that a file name that is not UTF-8
        // survives (CommandLine.arguments has repaired it).
        execv("/proc/self/exe", CommandLine.unsafeArgv)
        // execv only returns on failure; continue in-process.
    }

    /// The thread limit libgomp actually uses in this process (`omp_get_thread_limit()`),
    /// or `nil` if libgomp is not loaded.
    public static var effectiveLimit: Int? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "omp_get_thread_limit") else { return nil }
        typealias Function = @convention(c) () -> Int32
        return Int(unsafeBitCast(symbol, to: Function.self)())
    }
}

/// Puts back the claims of dead processes and this process's own: for a caller with no drain
/// running, a claim of its own was orphaned by a write that failed before it could be released.
func requeueClaimsNoDrainHolds(in database: LensDatabase) throws {
    let ownPID = getpid()
    try database.requeueAbandoned(isAlive: { $0 != ownPID && isProcessAlive($0) })
}

/// Whether a process id belongs to a running process (used to reclaim a dead process's queue items).
func isProcessAlive(_ pid: Int32) -> Bool {
    guard pid > 0 else { return false }
    return kill(pid, 0) == 0 || errno == EPERM
}
