/// Where a library lives: a SQLite file (the default), or a PostgreSQL database given by a
/// `postgresql://` URL (`[store] url` in the configuration, `--store` on every command).
///
/// The URL takes libpq's form: `postgresql://[user[:password]@][host][:port][/database][?key=value&…]`.
/// `host` in the query (or a host starting with `/`, percent-encoded) names the folder of a Unix
/// socket, as libpq's does: `postgresql:///lens?host=/run/postgresql`. Passwords are never
/// printed: ``description`` leaves them out.
public enum StoreAddress: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    case postgresql(PostgresAddress)

    /// Reads a store address: a `postgresql://` (or `postgres://`) URL, else a file path.
    public init(_ text: String) throws(StoreAddressError) {
        if let scheme = text.firstRange(of: "://").map({ text[..<$0.lowerBound].lowercased() }) {
            guard scheme == "postgresql" || scheme == "postgres" else {
                throw StoreAddressError(text: text, reason: "'\(scheme)://' is not a store Lens knows: give a postgresql:// URL or a file path")
            }
            self = .postgresql(try PostgresAddress(url: text))
        } else {
            guard !text.isEmpty else { throw StoreAddressError(text: text, reason: "the address is empty") }
            self = .sqlite(path: text)
        }
    }

    public var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgresql(let address): address.description
        }
    }

    public var isPostgreSQL: Bool {
        if case .postgresql = self { true } else { false }
    }
}

/// A PostgreSQL server and database, from a libpq-style URL.
public struct PostgresAddress: Sendable, Equatable, CustomStringConvertible {
    /// A host name or address, for TCP.
    public var host: String?
    public var port: Int
    /// The folder holding the server's socket (`.s.PGSQL.<port>`), when connecting over a Unix socket.
    public var socketFolder: String?
    public var user: String
    public var password: String?
    public var database: String
    /// `sslmode`, for TCP (a Unix socket never uses TLS, as with libpq). The default here is
    /// `disable`: TLS is for the network, and a socket or loopback needs none.
    public var tls: TLSMode
    /// `sslrootcert`: a PEM file of the certificate authorities to trust for `verify-ca` and
    /// `verify-full`; without it, the system's (Debian's `ca-certificates`).
    public var rootCertificates: String?

    /// libpq's modes, with libpq's meaning:
    /// - `disable`: plain TCP; `prefer`: TLS when the server offers it, unverified;
    /// - `require`: TLS or no connection, the server's certificate not checked (libpq checks it
    ///   only when a root certificate file is given: Lens asks for `verify-ca` then);
    /// - `verifyCA`: TLS, the certificate signed by a trusted authority;
    /// - `verifyFull`: that, and issued for the host named in the address.
    public enum TLSMode: String, Sendable, Equatable {
        case disable, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    public init(host: String? = nil, port: Int = 5432, socketFolder: String? = nil, user: String, password: String? = nil,
                database: String, tls: TLSMode = .disable, rootCertificates: String? = nil) {
        self.host = host
        self.port = port
        self.socketFolder = socketFolder
        self.user = user
        self.password = password
        self.database = database
        self.tls = tls
        self.rootCertificates = rootCertificates
    }

    /// The socket's path when connecting over a Unix socket.
    public var socketPath: String? { socketFolder.map { "\($0)/.s.PGSQL.\(port)" } }

    /// Parses `postgresql://user:password@host:port/database?host=/socket/folder&sslmode=…`.
    /// Without a host the default is the local socket folder Debian's server uses
    /// (`/var/run/postgresql`), as libpq's; without a user, `$USER` is not guessed: `postgres`.
    public init(url: String, defaultUser: String = "postgres") throws(StoreAddressError) {
        func fail(_ reason: String) -> StoreAddressError { StoreAddressError(text: url, reason: reason) }
        guard let separator = url.firstRange(of: "://") else { throw fail("not a URL") }
        var rest = Substring(url[separator.upperBound...])
        var parameters: [(String, String)] = []
        if let question = rest.firstIndex(of: "?") {
            for pair in rest[rest.index(after: question)...].split(separator: "&") where !pair.isEmpty {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, let key = Self.decode(parts[0]), let value = Self.decode(parts[1]) else {
                    throw fail("'\(pair)' is not key=value")
                }
                parameters.append((key, value))
            }
            rest = rest[..<question]
        }
        var authority = rest, path: Substring = ""
        if let slash = rest.firstIndex(of: "/") {
            authority = rest[..<slash]
            path = rest[rest.index(after: slash)...]
        }
        var user: String?, password: String?
        if let at = authority.lastIndex(of: "@") {
            let credentials = authority[..<at]
            authority = authority[authority.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                user = Self.decode(credentials[..<colon])
                password = Self.decode(credentials[credentials.index(after: colon)...])
            } else {
                user = Self.decode(credentials)
            }
        }
        var host: String?, port = 5432
        if !authority.isEmpty {
            var hostPart = authority
            if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
                guard let number = Int(authority[authority.index(after: colon)...]), (1...65535).contains(number) else {
                    throw fail("the port must be a number from 1 to 65535")
                }
                port = number
                hostPart = authority[..<colon]
            }
            host = Self.decode(hostPart).map { $0.hasPrefix("[") && $0.hasSuffix("]") ? String($0.dropFirst().dropLast()) : $0 }
        }
        var database = Self.decode(path) ?? ""
        var tls = TLSMode.disable, rootCertificates: String?
        for (key, value) in parameters {
            switch key {
            case "host": host = value
            case "port":
                guard let number = Int(value), (1...65535).contains(number) else { throw fail("the port must be a number from 1 to 65535") }
                port = number
            case "user": user = value
            case "password": password = value
            case "dbname": database = value
            case "sslmode":
                if value == "allow" {
                    tls = .disable // libpq's "allow" tries plain first, and a plain connection is what it gets
                } else if let mode = TLSMode(rawValue: value) {
                    tls = mode
                } else {
                    throw fail("sslmode must be disable, allow, prefer, require, verify-ca or verify-full")
                }
            case "sslrootcert":
                guard !value.isEmpty else { throw fail("sslrootcert names no file") }
                rootCertificates = value
            case "application_name", "connect_timeout": continue
            default: throw fail("'\(key)' is not a setting Lens knows (host, port, user, password, dbname, sslmode, sslrootcert)")
            }
        }
        var socketFolder: String?
        if host == nil || host!.isEmpty {
            socketFolder = "/var/run/postgresql"
            host = nil
        } else if host!.hasPrefix("/") {
            socketFolder = host
            host = nil
        }
        let resolvedUser = (user?.isEmpty ?? true) ? defaultUser : user!
        guard !database.isEmpty || !resolvedUser.isEmpty else { throw fail("no database named") }
        if database.isEmpty { database = resolvedUser }
        self.init(host: host, port: port, socketFolder: socketFolder, user: resolvedUser, password: password,
                  database: database, tls: tls, rootCertificates: rootCertificates)
    }

    /// The URL without its password: safe for logs and messages.
    public var description: String {
        let credentials = user + (password == nil ? "" : ":***")
        if let socketFolder {
            return "postgresql://\(credentials)@/\(database)?host=\(socketFolder)" + (port == 5432 ? "" : "&port=\(port)")
        }
        let shownHost = host!.contains(":") ? "[\(host!)]" : host!
        return "postgresql://\(credentials)@\(shownHost):\(port)/\(database)" + (tls == .disable ? "" : "?sslmode=\(tls.rawValue)")
    }

    /// Percent-decoding, as URLs need for `@`, `:` or `/` in a password or a socket folder.
    static func decode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let first = utf8.index(after: index)
                guard first != utf8.endIndex else { return nil }
                let second = utf8.index(after: first)
                guard second != utf8.endIndex,
                      let value = UInt8(String(decoding: [utf8[first], utf8[second]], as: UTF8.self), radix: 16) else { return nil }
                bytes.append(value)
                index = utf8.index(after: second)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

/// A store address that cannot be used, with the reason (never the password).
public struct StoreAddressError: Error, Equatable, CustomStringConvertible {
    public var reason: String
    let shown: String

    init(text: String, reason: String) {
        self.reason = reason
        // The address as typed may hold a password: show only its scheme and what follows the '@'.
        if let at = text.lastIndex(of: "@"), let scheme = text.firstRange(of: "://") {
            self.shown = String(text[..<scheme.upperBound]) + "…" + String(text[at...])
        } else {
            self.shown = text
        }
    }

    public var description: String { "the store address \(shown) cannot be used: \(reason)" }
}
