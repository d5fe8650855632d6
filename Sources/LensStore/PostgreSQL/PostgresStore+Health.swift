import Foundation
import LensCore
import PostgresNIO

/// What `lens doctor` reports of a shared library.
public struct SharedLibraryHealth: Sendable, Equatable {
    /// `PostgreSQL 15.18 …`, as the server says.
    public var serverVersion: String
    /// Whether this connection is encrypted (TLS), and whether it is a Unix socket.
    public var isEncrypted: Bool
    public var isSocket: Bool
    /// Migrations applied, and those this build knows.
    public var migrationsApplied: Int
    public var migrationsKnown: Int
    /// Claims whose lease ran out: their workers stopped; the next claim takes them over.
    public var expiredLeases: Int
    /// Entities whose kept counts (the most frequent entities) differ from a recount.
    public var entityCountDrift: Int
}

extension PostgresStore {
    func health(now: Double = Date().timeIntervalSince1970) throws -> SharedLibraryHealth {
        try withSession { session in
            guard let row = try session.rows("""
                SELECT version() AS version,
                       coalesce((SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()), false) AS encrypted,
                       inet_client_addr() IS NULL AS socket,
                       (SELECT count(*) FROM lens_migration) AS applied,
                       (SELECT count(*) FROM screenshot WHERE state = 'running' AND lease_until < \(now)) AS expired,
                       (SELECT count(*) FROM (SELECT type, normalized, count(DISTINCT screenshot_id) AS screenshots, count(*) AS occurrences
                                              FROM entity GROUP BY type, normalized) AS counted
                        FULL JOIN entity_count AS kept USING (type, normalized)
                        WHERE counted.screenshots IS DISTINCT FROM kept.screenshots
                           OR counted.occurrences IS DISTINCT FROM kept.occurrences) AS drift
                """).first else { throw PostgresStoreError.statementFailed("no answer", code: nil) }
            return SharedLibraryHealth(
                serverVersion: String(try row.get("version", as: String.self).prefix { $0 != "," }),
                isEncrypted: try row.get("encrypted"), isSocket: try row.get("socket"),
                migrationsApplied: Int(try row.get("applied", as: Int64.self)), migrationsKnown: Self.migrations.count,
                expiredLeases: Int(try row.get("expired", as: Int64.self)), entityCountDrift: Int(try row.get("drift", as: Int64.self)))
        }
    }
}

extension LensDatabase {
    /// The server, the connection and the derived state of a shared library; nil for a SQLite file
    /// (``integrityCheck()`` and ``orphanCounts()`` check those).
    public func sharedLibraryHealth() throws -> SharedLibraryHealth? {
        try postgres?.health()
    }
}
