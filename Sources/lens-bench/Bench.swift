import ArgumentParser
import Foundation
import LensApp
import LensCore

/// Benchmarks that print figures; none of them asserts a time (see README "Benchmarks").
@main
struct Bench: AsyncParsableCommand {
    /// `lens-bench ocr` links libtesseract: like `lens`, it needs OMP_THREAD_LIMIT before libgomp loads.
    static func main() async {
        OpenMPLimit.reexecIfNeeded()
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }

    static let configuration = CommandConfiguration(
        commandName: "lens-bench",
        abstract: "Measure Lens: import throughput against the tesseract CLI, and search over a synthetic index.",
        subcommands: [AdversarialBench.self, HostileTextBench.self, ImportBench.self, OCRBench.self, EntityBench.self, GraphBench.self, RelationsBench.self, SearchBench.self, BurstBench.self, LatencyBench.self, IdleBench.self, WebBench.self, FuzzyBench.self, SecretBench.self, RealTextBench.self, EntityCaseBench.self, EmbedBench.self, MeaningBench.self, VectorsBench.self, PostgresBench.self, GrowBench.self])
}

/// Small helpers shared by the benchmarks.
enum Measure {
    static func time<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let start = ContinuousClock.now
        let value = try body()
        return (value, (ContinuousClock.now - start).seconds)
    }

    /// The ground-truth texts of a corpus folder's JSON sidecars (`"text"`), in file-name order.
    static func groundTruthTexts(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted().compactMap { name in
            guard let data = FileManager.default.contents(atPath: folder + "/" + name),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
            return object["text"] as? String
        }
    }

    /// The names of the images in `folder` (recognized by their bytes), sorted.
    static func imageNames(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().filter { name in
            guard let handle = FileHandle(forReadingAtPath: folder.appendingPathComponent(name).path) else { return false }
            defer { try? handle.close() }
            return ImageFormat(sniffing: [UInt8](handle.readData(ofLength: ImageFormat.sniffLength))) != nil
        }
    }

    /// This process's environment with OMP_THREAD_LIMIT=1, as the systemd unit sets it, so that
    /// neither lens nor tesseract pays for OpenMP oversubscription (or lens for its re-exec).
    static var benchEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["OMP_THREAD_LIMIT"] = "1"
        return environment
    }

    /// Starts `lens watch` with `arguments` (output discarded) and gives it two seconds to start watching.
    static func startDaemon(_ lens: String, _ arguments: [String]) throws -> Process {
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: lens)
        daemon.arguments = ["watch"] + arguments
        daemon.environment = benchEnvironment
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        Thread.sleep(forTimeInterval: 2)
        return daemon
    }

    /// Queue counts of the database at `db`, from `lens status --json`.
    static func counts(lens: String, db: String) -> [String: Int] {
        status(lens: lens, db: db)?["counts"] as? [String: Int] ?? [:]
    }

    /// `lens status --json`.
    static func status(lens: String, db: String) -> [String: Any]? {
        let pipe = Pipe()
        _ = try? run(lens, ["status", "--json", "--db", db], environment: benchEnvironment, stdout: pipe.fileHandleForWriting)
        try? pipe.fileHandleForWriting.close()
        return try? JSONSerialization.jsonObject(with: pipe.fileHandleForReading.readDataToEndOfFile()) as? [String: Any]
    }

    /// A `/proc/PID/status` figure in kB.
    static func memory(_ pid: Int32, _ key: String) -> Double {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return .nan }
        let line = text.split(separator: "\n").first { $0.hasPrefix(key + ":") } ?? ""
        return Double(line.split(separator: " ").dropFirst().first ?? "") ?? .nan
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = max(0, min(sorted.count - 1, Int((p * Double(sorted.count)).rounded(.up)) - 1))
        return sorted[rank]
    }

    /// Runs a program with arguments as an argv array (never through a shell) and waits for it.
    ///
    /// `posix_spawn` and `waitpid` rather than Foundation's `Process`: on Linux its `waitUntilExit`
    /// polls the run loop every 50 ms, so a 48 ms `lens search` timed as 51 or 101 ms.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                    stdout: FileHandle? = FileHandle.nullDevice) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdout, stdout !== FileHandle.nullDevice, stdout.fileDescriptor >= 0 {
            posix_spawn_file_actions_adddup2(&actions, stdout.fileDescriptor, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let environ = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + environ).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot start \(executable): \(String(cString: strerror(spawned)))"])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS are macros Swift does not import.
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// The `lens` binary built beside this benchmark.
    static var siblingLens: String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("lens").path
    }

    static func which(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    static func makeTemporaryFolder(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
