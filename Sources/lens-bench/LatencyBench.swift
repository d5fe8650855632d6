import ArgumentParser
import Foundation
import LensCore
import LensStore

/// From a screenshot's rename into a watched folder to its text being searchable.
struct LatencyBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "latency",
        abstract: "Rename screenshots one at a time into a folder watched by lens watch; print the time until each is searchable, and that time minus its OCR time.")

    @Argument(help: "A folder of screenshots (e.g. ../shared/corpus/public).")
    var corpus: String

    @Option(help: "The daemon's stability delay in milliseconds.")
    var stabilityMs: Int = LensConfiguration.defaultStabilityMilliseconds

    @Option(help: "The lens binary to measure.")
    var lens: String = Measure.siblingLens

    func run() throws {
        let folder = URL(fileURLWithPath: corpus).standardizedFileURL
        let names = try Measure.imageNames(in: folder)
        let work = try Measure.makeTemporaryFolder("lens-bench-latency")
        defer { try? FileManager.default.removeItem(at: work) }
        let watched = work.appendingPathComponent("watched"), staging = work.appendingPathComponent("staging")
        try FileManager.default.createDirectory(at: watched, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        let config = work.appendingPathComponent("config.toml")
        try "stability_ms = \(stabilityMs)\n[[folders]]\npath = \"\(watched.path)\"\n".write(to: config, atomically: true, encoding: .utf8)
        let dbPath = work.appendingPathComponent("latency.db").path
        let daemon = try Measure.startDaemon(lens, ["--db", dbPath, "--config", config.path])
        defer { if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) } }
        let store = try LensDatabase(path: dbPath)

        var latencies: [Double] = [], overheads: [Double] = []
        for (i, name) in names.enumerated() {
            // Distinct bytes per file (a tag after the image), so duplicates in the corpus are new content too.
            let staged = staging.appendingPathComponent("\(i)-\(name)")
            try (try Data(contentsOf: folder.appendingPathComponent(name)) + Data("latency-\(i)".utf8)).write(to: staged)
            let target = watched.appendingPathComponent(staged.lastPathComponent).path
            let start = ContinuousClock.now
            rename(staged.path, target)
            var detail: ScreenshotDetail?
            while (ContinuousClock.now - start).seconds < 60 {
                if let id = try store.screenshotID(forPath: target), let d = try store.screenshot(id: id), d.state == .done || d.state == .failed {
                    detail = d
                    break
                }
                usleep(2_000)
            }
            guard let detail, detail.state == .done else { continue }
            let latency = (ContinuousClock.now - start).seconds
            latencies.append(latency)
            overheads.append(latency - (detail.ocrSeconds ?? 0))
        }
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        print("latency:      \(latencies.count) of \(names.count) screenshots renamed one at a time into a watched folder, stability_ms = \(stabilityMs)")
        print(String(format: "until searchable: p50 %.3f s, p95 %.3f s", Measure.percentile(latencies, 0.5), Measure.percentile(latencies, 0.95)))
        print(String(format: "minus OCR time:   p50 %.3f s, p95 %.3f s (goal p50 <= 0.3 s)", Measure.percentile(overheads, 0.5), Measure.percentile(overheads, 0.95)))
    }
}
