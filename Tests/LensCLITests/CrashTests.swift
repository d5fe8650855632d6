import Foundation
import LensTestSupport
import Testing

/// A file that crashes recognition (simulated with the test-only LENS_TEST_CRASH_MARKER trigger)
/// is poisoned after two crashes; everything else is indexed, and `lens retry` gives it another go.
@Suite(.serialized)
struct CrashTests {
    static let marker = "lens-test-crash-\(UUID().uuidString.prefix(8))"

    static func folderWithAnEvilFile(_ lens: LensBinary) throws -> URL {
        let folder = lens.home.appendingPathComponent("shots")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in TestSupport.sampleNames {
            try FileManager.default.copyItem(at: TestSupport.samplePNG(name), to: folder.appendingPathComponent(name + ".png"))
        }
        try Data(try TestSupport.sampleBytes("terminal") + Array(marker.utf8)).write(to: folder.appendingPathComponent("evil.png"))
        return folder
    }

    @Test func importPoisonsAFileThatCrashedTwice() throws {
        let lens = try LensBinary()
        let folder = try Self.folderWithAnEvilFile(lens)
        let evil = folder.appendingPathComponent("evil.png").path
        for run in 1...2 {
            let crashed = try lens.run(["import", "--workers", "1", folder.path], environment: ["LENS_TEST_CRASH_MARKER": Self.marker])
            #expect(crashed.status != 0 && crashed.status != 1, "run \(run) should have crashed: \(crashed.status)")
        }
        let third = try lens.run(["import", "--json", "--workers", "1", folder.path], environment: ["LENS_TEST_CRASH_MARKER": Self.marker])
        #expect(third.status == 1, "\(third.stderr)")
        let failed = try #require((try third.json() as? [String: Any])?["failed"] as? [[String: String]])
        #expect(failed.map { $0["path"] } == [evil])
        #expect(failed.first?["reason"]?.hasPrefix("poisoned: recognizing this file crashed Lens 2 times") == true)
        let counts = (try lens.run(["status", "--json"]).json() as? [String: Any])?["counts"] as? [String: Int]
        #expect(counts == ["done": 3, "failed": 1, "queued": 0, "running": 0])

        let retry = try lens.run(["retry", "--all"])
        #expect(retry.stdout == "1 screenshot(s) queued again.\n")
        let healed = try lens.run(["import", "--json"]) // no trigger now: it is just a screenshot
        #expect(healed.status == 0, "\(healed.stderr)")
        #expect((try lens.run(["show", "--json", evil]).json() as? [String: Any])?["state"] as? String == "done")
    }

    /// Under systemd, Restart=on-failure restarts a crashed daemon: after two crashes on the same
    /// file it is skipped and the daemon keeps running.
    @Test func theDaemonDoesNotCrashLoopOnOneFile() throws {
        let lens = try LensBinary()
        let folder = try Self.folderWithAnEvilFile(lens)
        var statuses: [Int32] = []
        for _ in 0..<3 {
            let process = try WatchTests.Daemon(lens, folder: folder, workers: 1,
                                                environment: ["LENS_TEST_CRASH_MARKER": Self.marker]).process
            let deadline = Date().addingTimeInterval(30)
            var counts: [String: Int] = [:]
            while process.isRunning && Date() < deadline {
                counts = ((try? lens.run(["status", "--json"]).json() as? [String: Any])?["counts"] as? [String: Int]) ?? [:]
                if counts["done"] == 3 && counts["failed"] == 1 { break }
                Thread.sleep(forTimeInterval: 0.1)
            }
            if process.isRunning {
                kill(process.processIdentifier, SIGTERM)
                process.waitUntilExit()
                statuses.append(process.terminationStatus)
                break
            }
            statuses.append(-1) // crashed
        }
        #expect(statuses == [-1, -1, 0], "crashes, then a clean run that skips the poisoned file")
        let counts = (try lens.run(["status", "--json"]).json() as? [String: Any])?["counts"] as? [String: Int]
        #expect(counts == ["done": 3, "failed": 1, "queued": 0, "running": 0])
    }
}
