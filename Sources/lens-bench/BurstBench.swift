import ArgumentParser
import Foundation

/// `lens watch` under a burst: N new screenshots renamed into a watched folder at once.
struct BurstBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "burst",
        abstract: "Drop many screenshots into a watched folder at once; print time, images/s and the daemon's peak RSS.")

    @Option(help: "How many files to drop.")
    var files: Int = 2_000

    @Option(help: "OCR workers for the daemon.")
    var workers: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Folder of source images, copied round-robin with distinct bytes (default: the bundled samples).")
    var images: String?

    @Option(help: "The lens binary to measure.")
    var lens: String = Measure.siblingLens

    func run() throws {
        let work = try Measure.makeTemporaryFolder("lens-bench-burst")
        defer { try? FileManager.default.removeItem(at: work) }
        let watched = work.appendingPathComponent("watched"), staging = work.appendingPathComponent("staging")
        try FileManager.default.createDirectory(at: watched, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        let source = images.map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("samples")
        let originals = try FileManager.default.contentsOfDirectory(atPath: source.path).filter { $0.hasSuffix(".png") }.sorted()
            .map { try Data(contentsOf: source.appendingPathComponent($0)) }
        guard !originals.isEmpty else { throw ValidationError("no .png files in \(source.path)") }
        // Distinct bytes per copy (a tag after the PNG end marker), so every file is new content.
        for i in 0..<files {
            try (originals[i % originals.count] + Data("burst-\(i)".utf8)).write(to: staging.appendingPathComponent("shot-\(i).png"))
        }
        let db = work.appendingPathComponent("burst.db").path
        let daemon = try Measure.startDaemon(lens, ["--db", db, "--folder", watched.path, "--workers", String(workers),
                                                    "--config", work.appendingPathComponent("none.toml").path])
        defer { if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) } }
        let startRSS = Measure.memory(daemon.processIdentifier, "VmRSS")

        let start = ContinuousClock.now
        for i in 0..<files {
            rename(staging.appendingPathComponent("shot-\(i).png").path, watched.appendingPathComponent("shot-\(i).png").path)
        }
        var finished = 0
        while daemon.isRunning && finished < files && (ContinuousClock.now - start).seconds < 3_600 {
            Thread.sleep(forTimeInterval: 0.5)
            let counts = Measure.counts(lens: lens, db: db)
            finished = (counts["done"] ?? 0) + (counts["failed"] ?? 0)
        }
        let seconds = (ContinuousClock.now - start).seconds
        let peak = Measure.memory(daemon.processIdentifier, "VmHWM")
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        print("burst:        \(files) files renamed into a watched folder, \(workers) workers")
        print(String(format: "indexed:      %d of %d in %.1f s = %.2f images/s (from the first rename to the last one indexed)",
                     finished, files, seconds, Double(finished) / seconds))
        print(String(format: "daemon RSS:   %.1f MB before the burst, peak %.1f MB (goal <= %d MB = 60 + 120 x %d workers)",
                     startRSS / 1024, peak / 1024, 60 + 120 * workers, workers))
        print("exit status after SIGTERM: \(daemon.terminationStatus)")
    }
}
