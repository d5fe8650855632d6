import Foundation
import LensCore

/// A throwaway PostgreSQL cluster for the tests: `initdb` into a temporary folder, `pg_ctl start`
/// listening on a Unix socket in that folder only (no TCP port), trust authentication for its own
/// socket. One cluster serves a test process; each test gets a database of its own
/// (``makeDatabase()``). It is stopped when the process exits. No mock: Debian's PostgreSQL 15
/// (`scripts/install-deps.sh` installs it).
///
/// PostgreSQL refuses to run as root: under root (CI containers) the cluster runs as the
/// `postgres` user the Debian package creates, and its folder is given to that user.
public final class PostgresCluster: Sendable {
    public let folder: String
    public let binaries: String
    /// The server's port (its socket is `.s.PGSQL.<port>` in ``folder``).
    public let port: Int
    private let counter = Counter()

    public static let shared: Result<PostgresCluster, PostgresClusterError> = {
        do {
            let cluster = try PostgresCluster()
            atexit { if case .success(let cluster) = PostgresCluster.shared { cluster.stop() } }
            return .success(cluster)
        } catch let error as PostgresClusterError {
            return .failure(error)
        } catch {
            return .failure(PostgresClusterError(message: "\(error)"))
        }
    }()

    /// The binaries of the newest PostgreSQL installed the Debian way.
    public static func binaryFolder() -> String? {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        for version in versions.reversed() where FileManager.default.isExecutableFile(atPath: "\(root)/\(version)/bin/initdb") {
            return "\(root)/\(version)/bin"
        }
        return nil
    }

    /// `tcp`: also listen on this address and port, trusting clients of its /30 (a veth link a
    /// test made); the cluster is the caller's to ``stop()``. `tls`: a PEM certificate and key;
    /// the server then speaks TLS on TCP and refuses TCP clients without it.
    public init(tcp: (address: String, port: Int)? = nil, tls: (certificate: String, key: String)? = nil) throws {
        guard let binaries = Self.binaryFolder() else {
            throw PostgresClusterError(message: "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): run bash scripts/install-deps.sh")
        }
        self.binaries = binaries
        self.port = tcp?.port ?? 5432
        folder = try TestSupport.makeTemporaryFolder("lens-pg").path
        if getuid() == 0 { try Self.run("/bin/chown", ["postgres:postgres", folder]) }
        try run("initdb", ["-D", folder + "/data", "-A", "trust", "-U", "lens", "--encoding=UTF8", "--locale=C.UTF-8", "--no-sync"])
        var listen = "-c listen_addresses=''"
        if let tcp {
            let hba = folder + "/data/pg_hba.conf"
            // With TLS, the file is replaced: initdb's trusts plain TCP from loopback.
            let lines = tls == nil ? "host all all \(tcp.address)/30 trust\n" : "local all all trust\nhostssl all all \(tcp.address)/30 trust\n"
            try run("/bin/sh", ["-c", "printf '%s' \"$0\" \(tls == nil ? ">>" : ">") \"$1\"", lines, hba], absolute: true)
            listen = "-c listen_addresses=\(tcp.address) -p \(tcp.port)"
        }
        if let tls {
            // The server reads its key only if no one else may: copies owned by the server's user.
            for (file, name) in [(tls.certificate, "server.crt"), (tls.key, "server.key")] {
                try run("/bin/sh", ["-c", "cat \"$0\" > \"$1\" && chmod 600 \"$1\"", file, folder + "/data/" + name], absolute: true)
            }
            listen += " -c ssl=on -c ssl_cert_file=server.crt -c ssl_key_file=server.key"
        }
        try run("pg_ctl", ["-D", folder + "/data", "-l", folder + "/server.log", "-w", "-t", "60",
                           "-o", "-k \(folder) \(listen) -c fsync=off -c max_connections=200", "start"])
    }

    /// A new, empty database in the cluster, as a store address.
    public func makeDatabase() throws -> PostgresAddress {
        let name = "lens_test_\(getpid())_\(counter.next())"
        try run("createdb", ["-h", folder, "-U", "lens", "-p", "\(port)", name])
        return PostgresAddress(port: port, socketFolder: folder, user: "lens", database: name)
    }

    /// The URL of `address` as `--store` takes it.
    public func url(of address: PostgresAddress) -> String { "postgresql://lens@/\(address.database)?host=\(folder)&port=\(port)" }

    /// Runs SQL with psql, as the cluster's superuser.
    public func psql(_ database: String, _ sql: String) throws -> String {
        try run("psql", ["-h", folder, "-U", "lens", "-p", "\(port)", "-d", database, "-At", "-v", "ON_ERROR_STOP=1", "-c", sql])
    }

    public func stop() {
        _ = try? run("pg_ctl", ["-D", folder + "/data", "-m", "immediate", "stop"])
        try? FileManager.default.removeItem(atPath: folder)
    }

    @discardableResult
    func run(_ tool: String, _ arguments: [String], absolute: Bool = false) throws -> String {
        let path = absolute ? tool : binaries + "/" + tool
        if getuid() == 0 { return try Self.run("/usr/sbin/runuser", ["-u", "postgres", "--", path] + arguments) }
        return try Self.run(path, arguments)
    }

    /// Runs a program and returns its output. Spawned with posix_spawn and reaped with waitpid,
    /// not Foundation's Process: Process learns of an exit through a descriptor the child inherits,
    /// which the server `pg_ctl start` leaves running inherits too, so Process never sees pg_ctl end.
    @discardableResult
    public static func run(_ path: String, _ arguments: [String]) throws -> String {
        let outputPath = NSTemporaryDirectory() + "lens-pg-output-\(UUID().uuidString)"
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw PostgresClusterError(message: "cannot run \(path): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let exited = (status & 0x7f) == 0, code = (status >> 8) & 0xff
        guard exited && code == 0 else {
            throw PostgresClusterError(message: "\(path) \(arguments.joined(separator: " ")) failed (status \(status)): \(text)")
        }
        return text
    }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func next() -> Int { lock.withLock { value += 1; return value } }
    }
}

public struct PostgresClusterError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// The stores a suite runs against: every store-level and CLI test that is not about one
/// store's internals runs on both.
public enum StoreKind: String, CaseIterable, Sendable {
    case sqlite, postgresql
}
