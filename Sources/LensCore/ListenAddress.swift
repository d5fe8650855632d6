/// Where `lens serve` listens: `HOST:PORT`, `[IPv6]:PORT`, or `:PORT` (loopback). Port 0 picks a free one.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public static let defaultPort = 7466
    public static let `default` = ListenAddress(host: "127.0.0.1", port: defaultPort)

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case malformed(String)
        case badPort(String)

        public var description: String {
            switch self {
            case .malformed(let text): return "'\(text)' is not HOST:PORT (e.g. 127.0.0.1:7466 or [::1]:7466)"
            case .badPort(let text): return "'\(text)' is not a port between 0 and 65535"
            }
        }
    }

    public init(parsing text: String) throws(ParseError) {
        let hostPart: Substring, portPart: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { throw .malformed(text) }
            hostPart = text[text.index(after: text.startIndex)..<close]
            portPart = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { throw .malformed(text) }
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
        }
        guard let port = Int(portPart), (0...65_535).contains(port) else { throw .badPort(String(portPart)) }
        guard !hostPart.contains(where: { $0.isWhitespace || $0 == "/" || $0 == "@" }) else { throw .malformed(text) }
        self.host = hostPart.isEmpty ? "127.0.0.1" : String(hostPart)
        self.port = port
    }

    /// True for `localhost`, 127.0.0.0/8 and `::1`: only processes of this machine can connect.
    public var isLoopback: Bool {
        Self.isLoopback(host: host)
    }

    public static func isLoopback(host: String) -> Bool {
        let lowered = host.lowercased()
        if lowered == "localhost" || lowered == "::1" || lowered == "0:0:0:0:0:0:0:1" { return true }
        let parts = lowered.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// The address as a URL authority (`127.0.0.1:7466`, `[::1]:7466`).
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
