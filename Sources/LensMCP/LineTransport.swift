import Foundation
import Logging
import MCP

#if canImport(Glibc)
import Glibc
#endif

/// MCP's stdio transport, one JSON-RPC message per line, written here rather than taken from the
/// SDK's `StdioTransport` for two things it does not do:
/// - **Answers before exit.** The SDK handles each request in a task of its own and stops when
///   input ends; a client that writes its requests and closes its end (a script, a pipe) lost the
///   answers still being computed. Here input's end is passed on only once every request read has
///   been answered (or after `drainLimit`).
/// - **A bounded line.** A line longer than `maximumMessage` is dropped as it streams in (the SDK
///   buffers a line whole, however long) and answered with an error; the next line is read as usual.
/// Reading blocks a thread of its own, not one of the few the concurrency pool has.
public actor LineTransport: Transport {
    public nonisolated let logger: Logger
    private let maximumMessage: Int
    private let drainLimit: Duration
    private let stream: AsyncThrowingStream<Data, Swift.Error>
    private let continuation: AsyncThrowingStream<Data, Swift.Error>.Continuation
    private let ledger = Ledger()

    public init(maximumMessage: Int = 4 << 20, drainLimit: Duration = .seconds(30), logger: Logger) {
        self.logger = logger
        self.maximumMessage = maximumMessage
        self.drainLimit = drainLimit
        (stream, continuation) = AsyncThrowingStream.makeStream()
    }

    public func connect() async throws {
        let (limit, drain, ledger, continuation, logger) = (maximumMessage, drainLimit, ledger, continuation, logger)
        // The reader yields lines in order straight into the stream (a task per line would not
        // keep their order) and, at the end of input, waits for the answers before ending it.
        let thread = Thread {
            Self.readLines(maximumMessage: limit, line: { line in
                ledger.expect(Self.ids(in: line, answers: false))
                continuation.yield(line)
            }, tooLong: {
                logger.warning("dropped an input line longer than the limit", metadata: ["bytes": "\(limit)"])
                let error = #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"a message longer than \#(limit) bytes was dropped"}}"#
                try? Self.write(Data(error.utf8))
            })
            if !ledger.waitUntilAnswered(within: drain) {
                logger.warning("input ended with requests unanswered")
            }
            continuation.finish()
        }
        thread.name = "lens-mcp-stdin"
        thread.start()
    }

    public func disconnect() async { continuation.finish() }

    public func receive() -> AsyncThrowingStream<Data, Swift.Error> { stream }

    public func send(_ message: Data) async throws {
        try Self.write(message)
        ledger.answered(Self.ids(in: message, answers: true))
    }

    /// Writes one message and its newline, whole: a lock keeps messages from interleaving.
    private static func write(_ message: Data) throws {
        var bytes = message
        bytes.append(UInt8(ascii: "\n"))
        writeLock.lock(); defer { writeLock.unlock() }
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    throw MCPError.transportError(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
                }
                offset += written
            }
        }
    }

    private static let writeLock = NSLock()

    /// The ids (as JSON text) of requests read and not yet answered.
    final class Ledger: @unchecked Sendable {
        private let condition = NSCondition()
        private var unanswered: Set<String> = []

        func expect(_ ids: [String]) {
            guard !ids.isEmpty else { return }
            condition.lock(); defer { condition.unlock() }
            unanswered.formUnion(ids)
        }

        func answered(_ ids: [String]) {
            guard !ids.isEmpty else { return }
            condition.lock(); defer { condition.unlock() }
            unanswered.subtract(ids)
            condition.broadcast()
        }

        func waitUntilAnswered(within limit: Duration) -> Bool {
            let deadline = Date().addingTimeInterval(Double(limit.components.seconds))
            condition.lock(); defer { condition.unlock() }
            while !unanswered.isEmpty {
                if !condition.wait(until: deadline) { return unanswered.isEmpty }
            }
            return true
        }
    }

    /// The ids of the requests in a message (`answers` false) or of the responses (true), a
    /// message or a batch of them.
    static func ids(in message: Data, answers: Bool) -> [String] {
        guard let parsed = try? JSONSerialization.jsonObject(with: message, options: [.fragmentsAllowed]) else { return [] }
        let items = (parsed as? [Any]) ?? [parsed]
        return items.compactMap { item in
            guard let object = item as? [String: Any], let id = object["id"], !(id is NSNull) else { return nil }
            let isAnswer = object["result"] != nil || object["error"] != nil
            guard isAnswer == answers, answers || object["method"] != nil else { return nil }
            return (try? JSONSerialization.data(withJSONObject: id, options: [.fragmentsAllowed])).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// Reads standard input until its end, calling `line` with each line (without its newline) and
    /// `tooLong` once for each line longer than `maximumMessage` (dropped).
    private static func readLines(maximumMessage: Int, line: (Data) -> Void, tooLong: () -> Void) {
        var pending = Data()
        var dropping = false
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            var start = 0
            for index in 0..<count where buffer[index] == UInt8(ascii: "\n") {
                if !dropping {
                    pending.append(contentsOf: buffer[start..<index])
                    if !pending.isEmpty { line(pending) }
                }
                pending = Data()
                dropping = false
                start = index + 1
            }
            if !dropping {
                pending.append(contentsOf: buffer[start..<count])
                if pending.count > maximumMessage {
                    dropping = true
                    pending = Data()
                    tooLong()
                }
            }
        }
        if !dropping && !pending.isEmpty { line(pending) }
    }
}
