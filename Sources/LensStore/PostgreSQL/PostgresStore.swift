import Foundation
import LensCore
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import Synchronization

/// A library in PostgreSQL, behind ``LensDatabase``'s methods (chosen by a `postgresql://` store
/// address). It speaks to the server through PostgresNIO.
///
/// LensDatabase's methods are synchronous (GRDB's are, and every caller is written so): this
/// store waits for PostgresNIO's futures on the calling thread. That never blocks an event loop
/// (the futures complete on NIO's threads, never the caller's) and costs a thread per query in
/// flight, as a SQLite read does. Connections are kept for reuse (``idleLimit``); a transaction
/// holds one for its duration.
final class PostgresStore: Sendable {
    let address: PostgresAddress
    /// Who claims work here: `host:pid`. A claim records it, and only its holder may record the
    /// item's result, so a worker whose lease ran out cannot write over the one that took over.
    let workerID: String
    private let configuration: PostgresConnection.Configuration
    private let idle = Mutex<[PostgresConnection]>([])
    /// The batches this process is running, each with the connection holding its lock (see
    /// PostgresStore+History.swift).
    let batchLocks = Mutex<[Int64: PostgresConnection]>([:])
    private let nextConnectionID = Atomic<Int>(1)
    /// The library's size and mean text length for bm25, and when they were read.
    let shape = Mutex<(at: ContinuousClock.Instant, texts: Double, meanLength: Double)?>(nil)
    /// PostgresNIO logs statements at debug level; the store's statements carry OCR text in their
    /// binds and nothing of it may reach a log, so its logger discards everything. Failures reach
    /// the caller as thrown errors.
    let logger = Logger(label: "lens.postgresql", factory: { _ in SwiftLogNoOpLogHandler() })
    /// Connections kept open between statements; more are opened while more threads query at once.
    static let idleLimit = 4

    init(address: PostgresAddress, workerID: String = PostgresStore.defaultWorkerID()) throws {
        self.address = address
        self.workerID = workerID
        var configuration: PostgresConnection.Configuration
        if let socket = address.socketPath {
            configuration = .init(unixSocketPath: socket, username: address.user, password: address.password, database: address.database)
        } else {
            configuration = .init(host: address.host ?? "localhost", port: address.port, username: address.user,
                                  password: address.password, database: address.database, tls: try Self.tls(for: address))
        }
        configuration.options.connectTimeout = .seconds(10)
        self.configuration = configuration
        try migrate()
    }

    /// TLS as `sslmode` asks (see ``PostgresAddress/TLSMode``): a server whose certificate fails
    /// the checks asked for is not connected to, and the error says why.
    static func tls(for address: PostgresAddress) throws -> PostgresConnection.Configuration.TLS {
        guard address.tls != .disable else { return .disable }
        var tls = TLSConfiguration.makeClientConfiguration()
        switch address.tls {
        case .disable: return .disable
        case .prefer, .require: tls.certificateVerification = .none
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        case .verifyFull: tls.certificateVerification = .fullVerification
        }
        if let file = address.rootCertificates {
            guard FileManager.default.isReadableFile(atPath: file) else {
                throw PostgresStoreError.cannotConnect(address.description, reason: "sslrootcert \(file) cannot be read")
            }
            tls.trustRoots = .file(file)
        }
        do {
            let context = try NIOSSLContext(configuration: tls)
            return address.tls == .prefer ? .prefer(context) : .require(context)
        } catch {
            throw PostgresStoreError.cannotConnect(address.description, reason: "TLS cannot be set up: \(error)")
        }
    }

    static func defaultWorkerID() -> String {
        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, name.count)
        let host = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return "\(host):\(getpid())"
    }

    deinit {
        for connection in idle.withLock({ $0 }) { PostgresStore.close(connection) }
        for connection in batchLocks.withLock({ Array($0.values) }) { PostgresStore.close(connection) }
    }

    // MARK: Connections

    private func connect() throws -> PostgresConnection {
        let id = nextConnectionID.wrappingAdd(1, ordering: .relaxed).oldValue
        do {
            return try PostgresConnection.connect(on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration,
                                                  id: id, logger: logger).wait()
        } catch {
            throw PostgresStoreError.cannotConnect(address.description, reason: Self.tlsReason(of: error, address: address) ?? Self.reason(of: error))
        }
    }

    /// A refused certificate in words, rather than BoringSSL's error stack.
    static func tlsReason(of error: any Error, address: PostgresAddress) -> String? {
        let underlying = (error as? PSQLError)?.underlying ?? error
        let trusted = address.rootCertificates.map { "the authorities in \($0)" } ?? "the system's authorities"
        if let error = underlying as? NIOSSLExtraError, error == .failedToValidateHostname {
            return "the server's certificate is not issued for \(address.host ?? "the host") (sslmode=verify-full)"
        }
        if case NIOSSLError.handshakeFailed(let stack) = underlying, "\(stack)".contains("CERTIFICATE_VERIFY_FAILED") {
            return "the server's certificate is not signed by \(trusted) (sslmode=\(address.tls.rawValue))"
        }
        return nil
    }

    /// Runs `body` with a connection of its own, returned for reuse afterwards unless it broke.
    @discardableResult
    func withSession<T>(_ body: (PostgresSession) throws -> T) throws -> T {
        let connection = try idle.withLock { $0.popLast() } ?? connect()
        let session = PostgresSession(connection: connection, logger: logger)
        defer {
            if connection.isClosed {
                // Dropped.
            } else if !idle.withLock({ list in
                guard list.count < Self.idleLimit else { return false }
                list.append(connection)
                return true
            }) {
                PostgresStore.close(connection)
            }
        }
        return try body(session)
    }

    /// Runs `body` in one transaction: all of it is stored, or nothing.
    func transaction<T>(_ body: (PostgresSession) throws -> T) throws -> T {
        try withSession { session in
            try session.execute("BEGIN")
            do {
                let result = try body(session)
                try session.execute("COMMIT")
                return result
            } catch {
                _ = try? session.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// Closes `connection`, keeping it alive until it is closed (PostgresNIO traps on a
    /// connection released before its close completed).
    static func close(_ connection: PostgresConnection) {
        let closing: EventLoopFuture<Void> = connection.close()
        closing.whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    /// A dedicated connection for notifications, closed by the caller.
    func listeningConnection() throws -> PostgresConnection { try connect() }

    /// The server's own words for an error (PSQLError's description hides them).
    static func reason(of error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            if let underlying = error.underlying { return "\(underlying)" }
            return "\(error.code)"
        }
        return "\(error)"
    }
}

/// One connection's statements, waited for on the calling thread.
struct PostgresSession {
    let connection: PostgresConnection
    let logger: Logger

    func rows(_ query: PostgresQuery) throws -> [PostgresRandomAccessRow] {
        do {
            return try connection.query(query, logger: logger).wait().rows.map { $0.makeRandomAccess() }
        } catch {
            throw PostgresStoreError.statementFailed(PostgresStore.reason(of: error), code: (error as? PSQLError)?.serverInfo?[.sqlState])
        }
    }

    /// Runs a statement; returns the rows it changed.
    @discardableResult
    func execute(_ query: PostgresQuery) throws -> Int {
        do {
            return try connection.query(query, logger: logger).wait().metadata.rows ?? 0
        } catch {
            throw PostgresStoreError.statementFailed(PostgresStore.reason(of: error), code: (error as? PSQLError)?.serverInfo?[.sqlState])
        }
    }

    func value<T: PostgresDecodable>(_ query: PostgresQuery, as type: T.Type) throws -> T? {
        guard let row = try rows(query).first, row[0].bytes != nil else { return nil }
        return try row[0].decode(T.self)
    }
}

/// What the PostgreSQL store cannot do, or what its server refused.
public enum PostgresStoreError: Error, CustomStringConvertible, Equatable {
    case cannotConnect(String, reason: String)
    case statementFailed(String, code: String?)
    case unsupported(String)
    case newerSchema(String)

    public var description: String {
        switch self {
        case .cannotConnect(let address, let reason): "cannot connect to the PostgreSQL store \(address): \(reason)"
        case .statementFailed(let reason, _): "the PostgreSQL store refused a statement: \(reason)"
        case .unsupported(let what): "the PostgreSQL store does not do this yet: \(what)"
        case .newerSchema(let address): "the PostgreSQL store \(address) was set up by a newer version of Lens; upgrade Lens (nothing was changed)"
        }
    }

    /// Whether waiting and trying again may help (the server is restarting, a serialization
    /// conflict, too many connections).
    public var isTransient: Bool {
        switch self {
        case .cannotConnect: true
        case .statementFailed(_, let code): code.map { $0.hasPrefix("40") || $0.hasPrefix("53") || $0.hasPrefix("57P") || $0.hasPrefix("08") } ?? false
        default: false
        }
    }
}

extension PostgresRandomAccessRow {
    func get<T: PostgresDecodable>(_ column: String, as type: T.Type = T.self) throws -> T {
        try self[column].decode(T.self)
    }

    func optional<T: PostgresDecodable>(_ column: String, as type: T.Type = T.self) throws -> T? {
        let cell = self[column]
        return cell.bytes == nil ? nil : try cell.decode(T.self)
    }
}
