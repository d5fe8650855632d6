import Foundation
import LensApp
import LensTestSupport
import Testing

/// `lens doctor`'s checks, on a made-up machine: a config with a missing folder and a tree larger
/// than the inotify limit, a unit that points at no binary, and a healthy database.
struct DoctorTests {
    @Test func eachProblemComesWithItsFix() throws {
        let root = try TestSupport.makeTemporaryFolder("lens-doctor")
        let shots = root.appendingPathComponent("shots")
        for index in 0..<12 { try FileManager.default.createDirectory(at: shots.appendingPathComponent("d\(index)"), withIntermediateDirectories: true) }
        let config = root.appendingPathComponent("config.toml")
        try """
            [[folders]]
            path = "\(shots.path)"

            [[folders]]
            path = "\(root.path)/gone"
            """.write(to: config, atomically: true, encoding: .utf8)
        let limits = root.appendingPathComponent("inotify")
        try FileManager.default.createDirectory(at: limits, withIntermediateDirectories: true)
        try "10\n".write(to: limits.appendingPathComponent("max_user_watches"), atomically: true, encoding: .utf8)
        try "512\n".write(to: limits.appendingPathComponent("max_queued_events"), atomically: true, encoding: .utf8)
        let unit = root.appendingPathComponent("lens.service")
        try "[Service]\nExecStart=/nonexistent/bin/lens watch\n".write(to: unit, atomically: true, encoding: .utf8)
        let database = root.appendingPathComponent("lens.db").path
        _ = try Library(databasePath: database)

        let report = DoctorReport.collect(databasePath: database, configPath: config.path, unitPath: unit.path, limitsFolder: limits.path)
        func check(_ name: String) -> DoctorReport.Check? { report.checks.first { $0.name == name } }
        #expect(check("folder")?.status == .problem && check("folder")?.detail == "\(root.path)/gone does not exist")
        let watches = try #require(check("inotify watches"))
        #expect(watches.status == .problem && watches.detail == "13 folder(s) to watch, limit 10")
        #expect(watches.fix?.contains("fs.inotify.max_user_watches=524288") == true)
        #expect(check("inotify queue")?.status == .note)
        #expect(check("systemd unit")?.status == .problem && check("systemd unit")?.fix?.contains("scripts/install.sh") == true)
        #expect(check("database rows")?.status == .ok)
        #expect(check("configuration")?.status == .ok)
        #expect(report.problemCount == 3)
        #expect(report.checks.allSatisfy { $0.status == .ok || $0.fix != nil })

        try "workers = 0\n".write(to: config, atomically: true, encoding: .utf8)
        let broken = DoctorReport.collect(databasePath: database, configPath: config.path, unitPath: unit.path, limitsFolder: limits.path)
        #expect(broken.checks.first { $0.name == "configuration" }?.detail.contains("config.toml:1: workers") == true)
    }
}
