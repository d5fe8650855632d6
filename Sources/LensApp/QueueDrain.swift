import Foundation
import LensCore
import LensOCR
import LensStore
import Logging

/// What happened to one queue item.
enum ItemOutcome: Sendable {
    case recognized(id: Int64)
    case failed(id: Int64, reason: String)
}

/// Takes queued items from the database and recognizes them with the pool until none are left.
///
/// The queue is the database: each item is claimed in its own transaction, so a crash loses at
/// most the claims of the dead process, which ``LensDatabase/requeueAbandoned(isAlive:)`` returns.
/// `concurrency` claims run at once (one per OCR worker), so memory holds at most that many images.
struct QueueDrain: Sendable {
    let database: LensDatabase
    let pool: OCRWorkerPool
    let maximumFileBytes: Int
    let logger: Logger
    let owner: Int32 = getpid()

    /// Claims and recognizes items until the queue is empty or `stopWhen` says so (checked before
    /// each claim, so work in flight always finishes).
    func run(stopWhen: @escaping @Sendable () -> Bool = { false },
             onOutcome: @escaping @Sendable (ItemOutcome) -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<pool.workerCount {
                group.addTask {
                    while !Task.isCancelled, !stopWhen(), let item = try database.claimNext(owner: owner) {
                        onOutcome(try await process(item))
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    private func process(_ item: ClaimedItem) async throws -> ItemOutcome {
        var lastProblem = "no file holds this content any more (moved, changed or deleted before OCR)"
        for path in item.paths {
            let bytes: [UInt8]
            do {
                bytes = try readWholeFile(path, limit: maximumFileBytes)
            } catch {
                lastProblem = "\(path): \(error)"
                continue
            }
            // Hash the bytes that are recognized: the file may have changed since it was scanned.
            guard sha256Hex(bytes) == item.sha256 else {
                lastProblem = "\(path) changed after it was scanned"
                continue
            }
            do {
                let id = item.id
                let (recognition, seconds) = try await pool.run { recognizer in
                    let start = ContinuousClock.now
                    let result = try CrashJournal.recognizing(id) {
                        CrashJournal.crashIfMarked(bytes)
                        return try recognizer.recognize(bytes)
                    }
                    let elapsed = ContinuousClock.now - start
                    return (result, elapsed.seconds)
                }
                try database.recordRecognition(recognition, for: item.id, seconds: seconds)
                logger.debug("recognized", metadata: ["path": "\(path)", "seconds": "\(seconds)"])
                return .recognized(id: item.id)
            } catch let error as RecognitionError {
                try database.recordFailure(error.description, for: item.id)
                return .failed(id: item.id, reason: error.description)
            } catch is CancellationError {
                try database.releaseClaim(on: item.id)
                throw CancellationError()
            }
        }
        try database.recordFailure(lastProblem, for: item.id)
        return .failed(id: item.id, reason: lastProblem)
    }
}

struct ReadError: Error, CustomStringConvertible {
    var description: String
}

/// Reads a whole file, refusing files over `limit` bytes.
func readWholeFile(_ path: String, limit: Int) throws -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw ReadError(description: "cannot open: \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw ReadError(description: String(cString: strerror(errno))) }
    let size = Int(info.st_size)
    guard size <= limit else { throw ReadError(description: "file is \(size) bytes, over the \(limit)-byte limit") }
    var bytes = [UInt8](repeating: 0, count: size)
    var filled = 0
    while filled < size {
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, size - filled) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { break }
        filled += n
    }
    return Array(bytes[0..<filled])
}
