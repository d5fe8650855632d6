import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LensApp
import LensTestSupport
import NIOCore
import Testing
@testable import LensWeb

/// HTTP done right: statuses for what is wrong with a request, the security headers on every
/// answer, and nothing internal in any body.
@Suite("lens serve: bounded, well-formed answers", .serialized)
struct HTTPBoundsTests {
    /// Words that would betray an internal error's text in a body.
    static let internalWords = ["SELECT", "FROM ", "sqlite", "SQLite error", "GRDB", "DatabaseError", "NIO", "Error(", "Swift.", "LensStore",
                                "LensApp", "Hummingbird", "statement"]

    static func checkHeadersAndBody(_ response: TestResponse, _ what: String) {
        #expect(response.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true, "\(what): no CSP")
        #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(what): no nosniff")
        #expect(response.headers[.referrerPolicy] == "no-referrer", "\(what): no Referrer-Policy")
        let text = String(buffer: response.body)
        for word in internalWords { #expect(!text.contains(word), "\(what) (\(response.status)): \(text.prefix(300))") }
        #expect(response.status.code < 500, "\(what): \(response.status) \(text.prefix(200))")
    }

    @Test func unknownRoutesAndMethodsAreJSONWithTheSecurityHeaders() async throws {
        let fixture = try await WebFixture.shared()
        try await fixture.test { client in
            for uri in ["/nope", "/api/nope", "/api/screenshots/abc", "/images/../../etc/passwd", "/thumbnails/99999999"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .notFound, "\(uri): \(response.status)")
                    Self.checkHeadersAndBody(response, uri)
                    #expect((try? json(response.body) as? [String: Any])?["error"] is String, "\(uri)")
                }
            }
            try await client.execute(uri: "/api/search", method: .patch, headers: fixture.changeHeaders) { response in
                #expect([.notFound, .methodNotAllowed].contains(response.status))
                Self.checkHeadersAndBody(response, "PATCH")
            }
        }
    }

    @Test func sizesAndCountsOverTheLimitsAreClientErrors() async throws {
        let fixture = try await WebFixture.shared()
        let id = try fixture.id(of: "receipt_light")
        try await fixture.test { client in
            let tags = (0..<1_000).map { "tag=t\($0)" }.joined(separator: "&")
            try await client.execute(uri: "/api/search?q=cafe&\(tags)", method: .get) { response in
                #expect(response.status == .badRequest || response.status == .uriTooLong, "\(response.status)")
                Self.checkHeadersAndBody(response, "1000 tags")
            }
            let twenty = (0..<20).map { "tag=t\($0)" }.joined(separator: "&")
            try await client.execute(uri: "/api/search?q=cafe&\(twenty)", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("at most 16"))
            }
            try await client.execute(uri: "/api/search?q=" + String(repeating: "ab", count: 1_600), method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("at most 1000"))
                Self.checkHeadersAndBody(response, "long word")
            }
            // A note over its own limit (64 KiB) in a body under the server's: refused, said why.
            let longNote = ByteBuffer(string: "{\"note\": \"" + String(repeating: "n", count: 70_000) + "\"}")
            try await client.execute(uri: "/api/screenshots/\(id)/note", method: .put, headers: fixture.changeHeaders, body: longNote) { response in
                #expect(response.status == .badRequest, "\(response.status)")
                #expect(String(buffer: response.body).contains("at most 65536"))
                Self.checkHeadersAndBody(response, "long note")
            }
            let big = ByteBuffer(repeating: UInt8(ascii: "a"), count: (1 << 20) + 10)
            try await client.execute(uri: "/api/screenshots/\(id)/note", method: .put, headers: fixture.changeHeaders, body: big) { response in
                #expect(response.status == .contentTooLarge, "\(response.status)")
                Self.checkHeadersAndBody(response, "big body")
            }
        }
    }

    /// A sweep of odd requests: none answers 500, leaks internal text, or lacks the headers.
    @Test func aFuzzCorpusOfRequestsNeverLeaksInternals() async throws {
        let fixture = try await WebFixture.shared()
        let fixed = ["/api/search?q=%22", "/api/search?q=a%00b", "/api/search?q=NEAR(a%20b)", "/api/search?q=*", "/api/search?q=-a",
                    "/api/search?q=a%20OR", "/api/search?limit=-1", "/api/search?limit=99999999999999999999", "/api/search?offset=-5",
                    "/api/search?since=yesterdayish", "/api/search?type=secret", "/api/search?entity=phone", "/api/search?entity=:",
                    "/api/search?q=%F0%9F%98%80%E2%80%AE", "/api/search?q=" + String(repeating: "(", count: 500),
                    "/api/search?q=" + String(repeating: "%22a%22%20", count: 40), "/api/graph?depth=99", "/api/graph?min_score=nan",
                    "/api/graph?around=-1", "/api/graph?max_nodes=1", "/api/graph?type=x", "/api/screenshots/0", "/api/screenshots/-1",
                    "/api/screenshots/9223372036854775807", "/api/screenshots/99999999999999999999", "/images/0", "/thumbnails/abc",
                    "/api/search?q=x&folder=%00", "/api/search?tag=%20", "/api/search?q=" + String(repeating: "a*%20", count: 31)]
        let uris = fixed + (0..<20).map { "/api/search?q=" + String(repeating: "\u{0301}", count: 10 * $0 + 1).addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }
        let bodies = ["", "{", "null", "[]", "{\"add\": 5}", "{\"add\": [\"\(String(repeating: "x", count: 5_000))\"]}", "{\"note\": 1}",
                      "{\"batch\": \"x\"}", "{\"a\": 1, \"b\": 1}", "{\"a\": -1, \"b\": 99999999999}", String(repeating: "[", count: 10_000)]
        try await fixture.test { client in
            for uri in uris {
                try await client.execute(uri: uri, method: .get) { Self.checkHeadersAndBody($0, uri) }
            }
            for path in ["/api/screenshots/1/tags", "/api/screenshots/1/note", "/api/undo", "/api/links", "/api/screenshots/77777/tags"] {
                for text in bodies {
                    let method: HTTPRequest.Method = path.hasSuffix("/note") ? .put : .post
                    try await client.execute(uri: path, method: method, headers: fixture.changeHeaders, body: body(text)) {
                        Self.checkHeadersAndBody($0, "\(method) \(path) \(text.prefix(30))")
                    }
                }
            }
        }
    }

    /// With a token, the token is the check: a request naming the machine by any address is served.
    /// (Words only: this library is new, and its first search by meaning would load the model, in
    /// a debug build and beside the other tests slower than the socket's wait; hosts are the point.)
    @Test func withATokenAnyHostNameIsServed() async throws {
        let token = "fedcba9876543210fedcba9876543210"
        let fixture = try await WebFixture(token: token)
        let router = WebServer.makeRouter(library: fixture.library, settings: fixture.settings, csrfToken: fixture.csrf)
        try await Application(router: router).test(.live) { client in
            let port = try #require(client.port)
            for host in ["192.0.2.10:7466", "lens.example.lan", "[2001:db8::1]:7466"] {
                let served = try RawHTTP.exchange(port: port, "GET /api/search?q=cafe&meaning=off HTTP/1.1\r\nHost: \(host)\r\n"
                                                  + "Authorization: Bearer \(token)\r\nConnection: close\r\n\r\n")
                #expect(served.hasPrefix("HTTP/1.1 200"), "\(host): \(served.prefix(200))")
                #expect(served.contains("receipt_light.png"))
                let refused = try RawHTTP.exchange(port: port, "GET /api/search?q=cafe HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
                #expect(refused.hasPrefix("HTTP/1.1 401"), "\(host): \(refused.prefix(200))")
                #expect(refused.lowercased().contains("x-content-type-options: nosniff"))
            }
        }
    }

    /// What only a real HTTP/1 parser sees: two Host headers, broken chunked encoding, a body
    /// over the limit without a length.
    @Test func malformedHTTPIsAClientError() async throws {
        let fixture = try await WebFixture.shared()
        let router = WebServer.makeRouter(library: fixture.library, settings: fixture.settings, csrfToken: fixture.csrf)
        try await Application(router: router).test(.live) { client in
            let port = try #require(client.port)
            let twoHosts = try RawHTTP.exchange(port: port, "GET /api/search?q=cafe HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
            #expect(twoHosts.hasPrefix("HTTP/1.1 400"), "\(twoHosts.prefix(200))")
            let twoLocal = try RawHTTP.exchange(port: port, "GET /api/search?q=cafe HTTP/1.1\r\nHost: evil.example\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            #expect(twoLocal.hasPrefix("HTTP/1.1 400"), "\(twoLocal.prefix(200))")
            let chunked = try RawHTTP.exchange(port: port, "PUT /api/screenshots/1/note HTTP/1.1\r\nHost: localhost\r\nX-CSRF-Token: \(fixture.csrf)\r\n"
                                               + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\nnot hex\r\n0\r\n\r\n")
            #expect(!chunked.hasPrefix("HTTP/1.1 5"), "\(chunked.prefix(200))")
            for word in Self.internalWords { #expect(!chunked.contains(word)) }
            var huge = "PUT /api/screenshots/1/note HTTP/1.1\r\nHost: localhost\r\nX-CSRF-Token: \(fixture.csrf)\r\nTransfer-Encoding: chunked\r\n"
                + "Content-Type: application/json\r\nConnection: close\r\n\r\n"
            let piece = String(repeating: "a", count: 65_536)
            for _ in 0..<20 { huge += String(piece.utf8.count, radix: 16) + "\r\n" + piece + "\r\n" }
            huge += "0\r\n\r\n"
            let tooLarge = try RawHTTP.exchange(port: port, huge)
            #expect(tooLarge.hasPrefix("HTTP/1.1 413"), "\(tooLarge.prefix(200))")
            #expect(tooLarge.contains("nosniff"))
            let normal = try RawHTTP.exchange(port: port, "GET /nowhere HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            #expect(normal.hasPrefix("HTTP/1.1 404") && normal.lowercased().contains("content-security-policy"), "\(normal.prefix(300))")
        }
    }
}

/// A request written byte by byte, as a hostile client would, and the raw answer.
enum RawHTTP {
    static func exchange(port: Int, _ request: String) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        // A guard against a hang, not a speed goal: CI's two cores also run the other suites.
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue } // a signal (another test's child ending) is no answer
            if n <= 0 { break } // the server may answer (413) and close before reading it all
            sent += n
        }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            answer += buffer[0..<n]
        }
        return String(decoding: answer, as: UTF8.self)
    }
}
