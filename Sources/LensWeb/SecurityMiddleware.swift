import Foundation
import HTTPTypes
import Hummingbird
import LensCore
import Logging
import NIOCore

/// The rules every request passes before a route sees it, and the headers every answer carries.
///
/// The database holds everything the user ever saw on screen, so the page is served like a
/// server's admin page, not like a demo:
/// - the `Host` must name this machine (`localhost`, a loopback address or the listening host):
///   a page on another site that rebinds its DNS name to 127.0.0.1 is refused (403);
/// - with a token configured, every request must carry it (`Authorization: Bearer`, or the
///   `lens_token` cookie that opening `/?token=…` sets);
/// - a change (POST, PUT, DELETE) must carry the per-process CSRF token in `X-CSRF-Token`, and
///   any `Origin` it has must be this server's own;
/// - answers forbid inline script, other origins, framing and MIME sniffing: every answer, the
///   router's 404s and every error included;
/// - a request's size is bounded before any route runs: a body over ``maximumBodyBytes`` is 413,
///   a target over ``maximumTargetBytes`` 414, more than ``maximumQueryParameters`` parameters 400;
/// - no answer carries an internal error's text (SQL, type names): those are logged, and the
///   client gets a plain message.
struct SecurityMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    let settings: WebSettings
    let csrfToken: String
    var logger = Logger(label: "lens.web")

    /// The largest body any route reads (a tag list, a note).
    static let maximumBodyBytes = 1 << 20
    /// The longest request target (path and query).
    static let maximumTargetBytes = 8 << 10
    /// The most query parameters a request may have (a search has a few filters).
    static let maximumQueryParameters = 64

    static let contentSecurityPolicy = [
        "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
        "font-src 'self'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        if let refusal = refusal(of: request) ?? Self.oversize(request) {
            response = refusal
        } else {
            do {
                response = try await next(request, context)
            } catch {
                response = answer(to: error, for: request)
            }
            if settings.token != nil, let token = request.uri.queryParameters["token"], Self.equalInConstantTime(String(token), settings.token!) {
                response.headers.append(HTTPField(name: .setCookie, value: "lens_token=\(token); Path=/; HttpOnly; SameSite=Strict"))
            }
        }
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "no-referrer"
        response.headers[.xFrameOptions] = "DENY"
        response.headers[.crossOriginResourcePolicy] = "same-origin"
        return response
    }

    /// An error thrown past a route as an answer: the router's 404 and 405, a body over the
    /// limit (413), a malformed request (400); anything else is logged and answered 500 with no
    /// detail (an internal error's text can hold SQL, paths or type names).
    func answer(to error: any Error, for request: Request) -> Response {
        switch error {
        case let error as HTTPResponseError:
            let status = error.status
            let message = status == .notFound ? "there is nothing at \(request.uri.path)" : status.reasonPhrase.lowercased()
            return JSONResponse.error(status, message)
        case is NIOTooManyBytesError:
            return JSONResponse.error(.contentTooLarge, "the body is over \(Self.maximumBodyBytes) bytes")
        case is DecodingError:
            return JSONResponse.error(.badRequest, "the request is malformed")
        default:
            logger.error("request failed", metadata: ["method": "\(request.method)", "path": "\(request.uri.path)",
                                                       "error": "\(String(reflecting: type(of: error)))"])
            return JSONResponse.error(.internalServerError, "internal error (the server's log says more)")
        }
    }

    /// 413, 414 or 400 for a request over the size limits, before any route reads it.
    static func oversize(_ request: Request) -> Response? {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > maximumBodyBytes {
            return JSONResponse.error(.contentTooLarge, "the body is over \(maximumBodyBytes) bytes")
        }
        if request.uri.description.utf8.count > maximumTargetBytes {
            return JSONResponse.error(.uriTooLong, "the request's address is over \(maximumTargetBytes) bytes")
        }
        let parameters = request.uri.query.map { $0.split(separator: "&").count } ?? 0
        if parameters > maximumQueryParameters {
            return JSONResponse.error(.badRequest, "the request has \(parameters) parameters; at most \(maximumQueryParameters) are accepted")
        }
        return nil
    }

    /// A 400, 403 or 401 answer when the request breaks a rule, else nil.
    func refusal(of request: Request) -> Response? {
        // One Host: a second one is what request smuggling and cache poisoning are made of.
        // HTTP/1 makes the first Host the request's authority; any other stays a header.
        let hosts = request.headers[values: .hostHeader]
        if hosts.count > 1 || (!hosts.isEmpty && request.head.authority != nil) {
            return JSONResponse.error(.badRequest, "the request has more than one Host header")
        }
        let host = request.head.authority ?? hosts.first ?? ""
        if let token = settings.token {
            // With a token, the token is the check: the server may be reached by any name or
            // address (0.0.0.0 on a LAN), and a rebinding page cannot know the token.
            guard carriesToken(request, token) else {
                return JSONResponse.error(.unauthorized, "this server needs its token: open /?token=… once, or send Authorization: Bearer …")
            }
        } else if !isAllowed(host: host) {
            return JSONResponse.error(.forbidden, "the Host header '\(host)' does not name this server; open the page at http://\(settings.listen)/")
        }
        let changes = ![.get, .head, .options].contains(request.method)
        if changes {
            guard let sent = request.headers[.csrfToken], Self.equalInConstantTime(sent, csrfToken) else {
                return JSONResponse.error(.forbidden, "a change needs the page's X-CSRF-Token header")
            }
            if let origin = request.headers[.origin], origin != "http://\(host)" {
                return JSONResponse.error(.forbidden, "changes from the origin '\(origin)' are not accepted")
            }
        }
        if let site = request.headers[.secFetchSite], site == "cross-site", changes || request.uri.path.hasPrefix("/api/") || request.uri.path.hasPrefix("/images/") {
            return JSONResponse.error(.forbidden, "cross-site requests are not accepted")
        }
        return nil
    }

    /// `localhost`, a loopback address, or the host the server listens on; any port.
    func isAllowed(host: String) -> Bool {
        let name: Substring
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            name = host[host.index(after: host.startIndex)..<close]
        } else {
            name = host.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        }
        guard !name.isEmpty else { return false }
        return ListenAddress.isLoopback(host: String(name)) || name.lowercased() == settings.listen.host.lowercased()
    }

    private func carriesToken(_ request: Request, _ token: String) -> Bool {
        if let header = request.headers[.authorization], header.hasPrefix("Bearer "),
           Self.equalInConstantTime(String(header.dropFirst(7)), token) { return true }
        for cookie in request.headers[values: .cookie].flatMap({ $0.split(separator: ";") }) {
            let parts = cookie.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0] == "lens_token", Self.equalInConstantTime(String(parts[1]), token) { return true }
        }
        if let query = request.uri.queryParameters["token"], Self.equalInConstantTime(String(query), token) { return true }
        return false
    }

    /// Compares secrets without stopping at the first difference.
    static func equalInConstantTime(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for i in x.indices { difference |= x[i] ^ y[i] }
        return difference == 0
    }
}

extension HTTPField.Name {
    /// HTTP/1 turns `Host` into the request's authority; a header still named so (tests, odd clients) is checked first.
    static let hostHeader = Self("Host")!
    static let csrfToken = Self("X-CSRF-Token")!
    static let xFrameOptions = Self("X-Frame-Options")!
    static let referrerPolicy = Self("Referrer-Policy")!
    static let secFetchSite = Self("Sec-Fetch-Site")!
    static let serverTiming = Self("Server-Timing")!
}
