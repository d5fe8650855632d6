import Foundation
import Hummingbird
import LensApp
import NIOCore

/// `GET /api/events`: Server-Sent Events that tell the open page when the library changed, so new
/// screenshots appear without a reload. The daemon may be another process, so the library is
/// polled (a count and an indexed maximum: well under a millisecond) rather than told.
struct LiveUpdates {
    let library: Library
    let interval: Duration
    /// A comment line now and then keeps proxies and the browser from closing an idle stream.
    static let heartbeatEvery = 15

    func register(on router: Router<BasicRequestContext>) {
        router.get("/api/events") { _, _ -> Response in
            let stream = AsyncStream<ByteBuffer> { continuation in
                let task = Task { [library, interval] in
                    var last = try? await offloaded { try library.changeMark() }
                    continuation.yield(ByteBuffer(string: "retry: 2000\nevent: hello\ndata: {}\n\n"))
                    var quiet = 0
                    while !Task.isCancelled {
                        try? await Task.sleep(for: interval)
                        guard let mark = try? await offloaded({ try library.changeMark() }) else { continue }
                        if mark != last {
                            last = mark
                            quiet = 0
                            continuation.yield(ByteBuffer(string: "event: change\ndata: {\"mark\":\"\(mark)\"}\n\n"))
                        } else {
                            quiet += 1
                            if quiet % Self.heartbeatEvery == 0 { continuation.yield(ByteBuffer(string: ": still here\n\n")) }
                        }
                    }
                    continuation.finish()
                }
                continuation.onTermination = { _ in task.cancel() }
            }
            return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
                            body: .init(asyncSequence: stream))
        }
    }
}
