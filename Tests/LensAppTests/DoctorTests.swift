import Foundation
import LensApp
import LensCore
import LensStore
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

/// `lens doctor --store postgresql://…` checks the shared library instead of a SQLite file.
struct SharedLibraryDoctorTests {
    @Test func aSharedLibraryIsCheckedOnTheServer() throws {
        let cluster = try PostgresCluster.shared.get()
        let address = try cluster.makeDatabase()
        let database = try LensDatabase(store: .postgresql(address))
        _ = try database.register(FileObservation(path: "/s/a.png", size: 1, modifiedAt: 1, sha256: String(repeating: "a", count: 64), format: .png, seenAt: 2))
        _ = try #require(try database.claimNext(owner: 0, now: 100)) // its worker stopped long ago
        let root = try TestSupport.makeTemporaryFolder("lens-doctor-pg")
        func checks() -> [String: DoctorReport.Check] {
            let report = DoctorReport.collect(store: .postgresql(address), configPath: root.appendingPathComponent("none.toml").path,
                                              unitPath: root.appendingPathComponent("none.service").path)
            #expect(report.databasePath == address.description && report.databaseIntegrity == nil)
            return Dictionary(report.checks.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        }
        var found = checks()
        #expect(found["shared library"]?.status == .ok && found["shared library"]?.detail.contains("PostgreSQL 15") == true
                && found["shared library"]?.detail.contains("Unix socket") == true, "\(found["shared library"].map { "\($0)" } ?? "")")
        #expect(found["schema"]?.status == .ok)
        #expect(found["queue leases"]?.status == .note && found["queue leases"]?.detail.hasPrefix("1 claim") == true)
        #expect(found["entity counts"]?.status == .ok)
        #expect(found["database rows"] == nil) // a SQLite file's check
        // Counts that drifted from the entities are a problem, with the command that recounts them.
        _ = try cluster.psql(address.database, "INSERT INTO entity_count VALUES ('email', 'nobody@example.org', 3, 3)")
        found = checks()
        #expect(found["entity counts"]?.status == .problem && found["entity counts"]?.fix?.contains("lens reindex --entities") == true)
        // A server that cannot be reached is said so, with what to check.
        var gone = address
        gone.database = "no_such_database_\(getpid())"
        let report = DoctorReport.collect(store: .postgresql(gone), configPath: root.appendingPathComponent("none.toml").path,
                                          unitPath: root.appendingPathComponent("none.service").path)
        let failed = try #require(report.checks.first { $0.name == "shared library" })
        #expect(failed.status == .problem && failed.detail.contains(gone.database) && failed.fix != nil)
    }
}
