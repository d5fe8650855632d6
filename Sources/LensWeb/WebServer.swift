import Foundation
import Hummingbird
import LensApp
import LensCore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// What `lens serve` (or `lens watch` with `[web] enabled`) serves, and how.
public struct WebSettings: Sendable {
    public var listen: ListenAddress
    /// When set, every request must carry it (`Authorization: Bearer …`, or the cookie set by
    /// opening `/?token=…` once).
    public var token: String?
    public var thumbnails: ThumbnailCache
    /// The region of phone numbers and numeric dates in `entity=` filters.
    public var region: String
    public var trashFolder: String?
    public var undoDays: Int
    /// How often live updates look for new screenshots.
    public var pollInterval: Duration

    public init(listen: ListenAddress = .default, token: String? = nil, thumbnails: ThumbnailCache = ThumbnailCache(),
                region: String = "US", trashFolder: String? = nil, undoDays: Int = 30, pollInterval: Duration = .seconds(1)) {
        self.listen = listen
        self.token = token
        self.thumbnails = thumbnails
        self.region = region
        self.trashFolder = trashFolder
        self.undoDays = undoDays
        self.pollInterval = pollInterval
    }
}

/// Why the server refuses to start.
public struct WebServerError: Error, CustomStringConvertible, Equatable {
    public var description: String
}

/// The local web page: a Hummingbird application over LensApp's use cases. It holds no SQL and
/// reads the same database as the command line; SQLite's WAL mode keeps its reads from blocking
/// the daemon's writes.
public enum WebServer {
    /// The application, a `Service` to run alone (`lens serve`) or in the daemon's group
    /// (`lens watch`). `onRunning` gets the URL once the socket is bound (port 0 picks one).
    public static func makeApplication(library: Library, settings: WebSettings, logger: Logger,
                                       onRunning: @escaping @Sendable (String) async -> Void = { _ in }) throws -> some ApplicationProtocol {
        if !settings.listen.isLoopback && settings.token == nil {
            throw WebServerError(description: """
                \(settings.listen) is reachable from other machines and the page shows everything on your screenshots: \
                set [web] token in the configuration (every request then needs it), or listen on 127.0.0.1
                """)
        }
        let router = makeRouter(library: library, settings: settings, csrfToken: makeSecret())
        return Application(
            router: router,
            configuration: .init(address: .hostname(settings.listen.host, port: settings.listen.port), serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? settings.listen.port
                await onRunning("http://\(ListenAddress(host: settings.listen.host, port: port))/")
            },
            logger: logger)
    }

    /// Every route, behind the security middleware. `csrfToken` is the per-process secret the page
    /// carries and sends back with each change.
    public static func makeRouter(library: Library, settings: WebSettings, csrfToken: String) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: SecurityMiddleware(settings: settings, csrfToken: csrfToken))
        PageRoutes(csrfToken: csrfToken).register(on: router)
        APIRoutes(library: library, settings: settings).register(on: router)
        LiveUpdates(library: library, interval: settings.pollInterval).register(on: router)
        return router
    }

    /// 32 random bytes as hex, from the system's generator.
    static func makeSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}

/// Runs blocking library work (SQLite, file reads, leptonica) on a thread pool of its own, off
/// the event loops and Swift's cooperative threads, so one slow thumbnail never stalls a search.
/// NIO's shared pool has one thread per core: two slow requests on two cores held every other
/// one up. Each search is bounded in time (``LensDatabase/searchTimeLimit``); these threads are
/// mostly waiting on SQLite's readers (a pool of 5), so more of them than cores is right.
func offloaded<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await blockingWork.runIfActive(work)
}

private let blockingWork: NIOThreadPool = {
    let pool = NIOThreadPool(numberOfThreads: max(6, 2 * System.coreCount))
    pool.start()
    return pool
}()
