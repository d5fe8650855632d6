import Foundation
import Hummingbird
import LensApp
import NIOCore
import ServiceLifecycle

/// `GET /api/events`: Server-Sent Events that tell the open page when the library changed, so new
/// screenshots appear without a reload. The daemon may be another process, so the library is
/// polled (a count and an indexed maximum: well under a millisecond) rather than told.
///
/// The stream runs in the request's own task: it ends when the browser goes away (a write fails)
/// and when the server shuts down gracefully, which would otherwise wait for it forever.
struct LiveUpdates {
    let library: Library
    let interval: Duration
    /// A comment line now and then keeps proxies and the browser from closing an idle stream.
    static let heartbeatEvery = 15

    func register(on router: Router<BasicRequestContext>) {
        router.get("/api/events") { _, _ -> Response in
            let body = ResponseBody { [library, interval] writer in
                var last = try? await offloaded { try library.changeMark() }
                try await writer.write(ByteBuffer(string: "retry: 2000\nevent: hello\ndata: {}\n\n"))
                var quiet = 0
                // Checked each round: a graceful shutdown (SIGTERM) ends the stream within one interval.
                while !Task.isCancelled && !Task.isShuttingDownGracefully {
                    try? await Task.sleep(for: interval)
                    guard let mark = try? await offloaded({ try library.changeMark() }) else { continue }
                    if mark != last {
                        last = mark
                        quiet = 0
                        try await writer.write(ByteBuffer(string: "event: change\ndata: {\"mark\":\"\(mark)\"}\n\n"))
                    } else {
                        quiet += 1
                        if quiet % Self.heartbeatEvery == 0 { try await writer.write(ByteBuffer(string: ": still here\n\n")) }
                    }
                }
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"], body: body)
        }
    }
}
