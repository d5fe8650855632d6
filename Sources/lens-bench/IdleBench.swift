import ArgumentParser
import Foundation

/// `lens watch` at rest: after indexing one screenshot, how much CPU and memory does it keep using?
struct IdleBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "idle",
        abstract: "Index one screenshot with the daemon, let it settle, then print its CPU time and RSS over a quiet minute.")

    @Option(help: "Seconds to measure over.")
    var seconds: Double = 60

    @Option(help: "Seconds to wait after the screenshot is indexed before measuring (the OCR workers are released after 60 s idle).")
    var settle: Double = 95

    @Option(help: "The lens binary to measure.")
    var lens: String = Measure.siblingLens

    func run() throws {
        let work = try Measure.makeTemporaryFolder("lens-bench-idle")
        defer { try? FileManager.default.removeItem(at: work) }
        let watched = work.appendingPathComponent("watched")
        try FileManager.default.createDirectory(at: watched, withIntermediateDirectories: true)
        let db = work.appendingPathComponent("idle.db").path
        let daemon = try Measure.startDaemon(lens, ["--db", db, "--folder", watched.path,
                                                    "--config", work.appendingPathComponent("none.toml").path])
        defer { if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) } }
        let pid = daemon.processIdentifier
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("samples/terminal.png")
        try FileManager.default.copyItem(at: sample, to: watched.appendingPathComponent("one.png"))
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, (Measure.counts(lens: lens, db: db)["done"] ?? 0) < 1 { Thread.sleep(forTimeInterval: 0.2) }
        let busyRSS = Measure.memory(pid, "VmRSS")
        // Then the daemon reads the text for meaning (the model loaded, released after 60 s idle).
        while Date() < deadline, (Measure.status(lens: lens, db: db)?["read_for_meaning"] as? Int ?? 0) < 1 { Thread.sleep(forTimeInterval: 0.2) }
        let meaningRSS = Measure.memory(pid, "VmRSS")
        Thread.sleep(forTimeInterval: settle)
        let (ticksBefore, rssBefore) = (Self.cpuTicks(pid), Measure.memory(pid, "VmRSS"))
        Thread.sleep(forTimeInterval: seconds)
        let (ticksAfter, rssAfter) = (Self.cpuTicks(pid), Measure.memory(pid, "VmRSS"))
        kill(pid, SIGTERM)
        daemon.waitUntilExit()
        let hertz = Double(sysconf(Int32(_SC_CLK_TCK)))
        print(String(format: "RSS:  %.1f MB right after indexing one screenshot, %.1f MB once read for meaning (model loaded), "
                     + "%.1f MB after %.0f s idle, %.1f MB after %.0f s more (goal < 60 MB)",
                     busyRSS / 1024, meaningRSS / 1024, rssBefore / 1024, settle, rssAfter / 1024, seconds))
        print(String(format: "CPU:  %d ticks (%.2f s, %.3f%% of one core) over %.0f s idle",
                     ticksAfter - ticksBefore, Double(ticksAfter - ticksBefore) / hertz,
                     100 * Double(ticksAfter - ticksBefore) / hertz / seconds, seconds))
        print("exit status after SIGTERM: \(daemon.terminationStatus)")
    }

    /// utime + stime of a process, in clock ticks (/proc/PID/stat fields 14 and 15).
    static func cpuTicks(_ pid: Int32) -> Int {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return -1 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After "pid (comm)", field 3 (state) is index 0, so utime (14) and stime (15) are 11 and 12.
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }
}
