import Foundation
import LensCore
import LensOCR
import LensStore
import Logging

/// What happened to one queue item.
enum ItemOutcome: Sendable {
    case recognized(id: Int64)
    case failed(id: Int64, reason: String)
    /// A transient problem: the item waits in the queue until `retryAt` (seconds since 1970).
    case deferred(id: Int64, reason: String, retryAt: Double)
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
    /// Backoff for transient problems (file busy or briefly gone, disk full).
    let retryPolicy: RetryPolicy
    let logger: Logger
    /// The Tesseract languages for a file at a path (its folder's `languages`); `nil`: the pool's own.
    var languages: @Sendable (String) -> String? = { _ in nil }
    /// The entity extractor for a file at a path (its folder's region); `nil`: no entities.
    var extractor: @Sendable (String) -> EntityExtractor? = { _ in nil }
    /// What to mask in a file at a path, before its text, codes and entities are stored.
    var privacy: @Sendable (String) -> PrivacyFilter = { _ in PrivacyFilter() }
    /// Tags the folders holding a file give it (`tags` in a `[[folders]]` table).
    var folderTags: @Sendable (String) -> [String] = { _ in [] }
    /// Links each recognized screenshot to those sharing its entities; `nil`: no connections.
    var connections: ConnectionKeeper? = nil
    /// Runs once an item's text is committed (the daemon deletes originals there, if asked to).
    var afterRecording: @Sendable (ClaimedItem) -> Void = { _ in }
    /// Where a recorded path is on this host (a worker reading another host's files from a share).
    var pathMap = PathPrefixMap()
    let owner: Int32 = getpid()

    /// How often a worker with nothing to do looks for new items while another is still busy.
    static let idlePoll = Duration.milliseconds(200)

    /// Claims and recognizes items until the queue is empty and no worker is busy, or `stopWhen`
    /// says so (checked before each claim, so work in flight always finishes).
    ///
    /// A worker that finds the queue empty while another is still recognizing (a slow image)
    /// keeps looking for new items instead of ending: the drain ends only when all are idle, so
    /// screenshots that arrive meanwhile are recognized at once, not after the slow one.
    func run(stopWhen: @escaping @Sendable () -> Bool = { false },
             onOutcome: @escaping @Sendable (ItemOutcome) -> Void) async throws {
        let busy = BusyWorkers()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<pool.workerCount {
                group.addTask {
                    while !Task.isCancelled, !stopWhen() {
                        busy.enter()
                        guard let item = try Self.claim(database, owner: owner, leavingOnFailure: busy) else {
                            guard busy.leave() > 0 else { return }
                            try await Task.sleep(for: Self.idlePoll)
                            continue
                        }
                        let outcome: ItemOutcome
                        do {
                            outcome = try await process(item)
                        } catch {
                            busy.leave()
                            throw error
                        }
                        busy.leave()
                        onOutcome(outcome)
                    }
                }
            }
            try await group.waitForAll()
        }
        // The queue is empty: a good moment to merge the search index, if it is in pieces.
        if !Task.isCancelled, !stopWhen() {
            do {
                if try database.mergeSearchIndexIfFragmented() { logger.debug("merged the search index") }
            } catch {
                logger.warning("could not merge the search index: \(error)")
            }
        }
    }

    /// The next item, or nil; a failed claim leaves the busy count as it found it.
    private static func claim(_ database: LensDatabase, owner: Int32, leavingOnFailure busy: BusyWorkers) throws -> ClaimedItem? {
        do {
            return try database.claimNext(owner: owner)
        } catch {
            busy.leave()
            throw error
        }
    }

    private func process(_ item: ClaimedItem) async throws -> ItemOutcome {
        var lastProblem = "no file holds this content any more (moved, changed or deleted before OCR)"
        var transientProblem: String?
        for path in item.paths {
            let bytes: [UInt8]
            do {
                bytes = try readWholeFile(pathMap.local(path), limit: maximumFileBytes)
            } catch let error as ReadError {
                lastProblem = "\(path): \(error)"
                if error.isTransient { transientProblem = lastProblem }
                continue
            }
            // Hash the bytes that are recognized: the file may have changed since it was scanned.
            guard sha256Hex(bytes) == item.sha256 else {
                lastProblem = "\(path) changed after it was scanned"
                continue
            }
            let recognition: Recognition, seconds: Double
            do {
                let id = item.id
                let languages = self.languages(path)
                (recognition, seconds) = try await pool.run { recognizer in
                    let start = ContinuousClock.now
                    let result = try CrashJournal.recognizing(id) {
                        CrashJournal.crashIfMarked(bytes)
                        return try recognizer.recognize(bytes, languages: languages)
                    }
                    let elapsed = ContinuousClock.now - start
                    return (result, elapsed.seconds)
                }
            } catch let error as RecognitionError {
                try database.recordFailure(error.description, for: item.id)
                return .failed(id: item.id, reason: error.description)
            } catch is CancellationError {
                try database.releaseClaim(on: item.id)
                throw CancellationError()
            }
            var entities: [Entity] = []
            let extractor = extractor(path)
            do {
                // Secrets are masked here, before anything of the text reaches the database.
                let (kept, secrets) = privacy(path).filter(recognition)
                entities = ((extractor?.entities(in: kept.text, reference: item.capturedAt) ?? []) + secrets.filter { $0.start != nil }.map(\.entity))
                    .sorted { ($0.start, $0.end) < ($1.start, $1.end) }
                guard try database.recordRecognition(kept, entities: entities, codeEntities: secrets.filter { $0.start == nil }.map(\.entity),
                                                     for: item.id, seconds: seconds) else {
                    return .failed(id: item.id, reason: "\(path): taken out of the library (lens delete or undo) while it was being recognized")
                }
                let tags = item.paths.flatMap(folderTags)
                if !tags.isEmpty { try database.changeTags(of: item.id, adding: tags) }
            } catch where LensDatabase.isTransientStorageError(error) {
                return try retryLater(item, reason: "cannot store the text of \(path): \(error)")
            }
            do {
                try connections?.connect(item.id)
                if let extractor {
                    try NationalNumbers.revisit(after: item.id, entities: entities, database: database, extractor: extractor,
                                                connections: connections)
                }
            } catch {
                // The text is stored; `lens graph --rebuild` recomputes what is missing.
                logger.warning("could not connect \(path) to related screenshots: \(error)")
            }
            // The file's name, never its text (the log is not a place for what was on screen).
            logger.info("indexed \(OutputStyle.visible(path))", metadata: ["id": "\(item.id)", "seconds": "\(String(format: "%.2f", seconds))"])
            afterRecording(item)
            return .recognized(id: item.id)
        }
        if let transientProblem { return try retryLater(item, reason: transientProblem) }
        try database.recordFailure(lastProblem, for: item.id)
        return .failed(id: item.id, reason: lastProblem)
    }

    /// Puts the item back with a backoff, or fails it once the policy's attempts are used up.
    private func retryLater(_ item: ClaimedItem, reason: String) throws -> ItemOutcome {
        guard let delay = retryPolicy.delay(afterAttempt: item.attempts) else {
            let final = "\(reason) (gave up after \(item.attempts) attempts)"
            try database.recordFailure(final, for: item.id)
            return .failed(id: item.id, reason: final)
        }
        let retryAt = Date().timeIntervalSince1970 + delay
        try database.deferItem(item.id, reason: reason, retryAt: retryAt)
        logger.info("will retry", metadata: ["reason": "\(reason)", "in_seconds": "\(delay)"])
        return .deferred(id: item.id, reason: reason, retryAt: retryAt)
    }
}

/// How many of a drain's workers hold an item (or are claiming one).
private final class BusyWorkers: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func enter() { lock.withLock { count += 1 } }

    /// Returns how many others are still busy.
    @discardableResult
    func leave() -> Int { lock.withLock { count -= 1; return count } }
}

struct ReadError: Error, CustomStringConvertible {
    var description: String
    /// The errno behind it, when there is one.
    var code: Int32? = nil

    /// Problems that may go away by themselves: the file vanished for a moment (a tool that
    /// replaces it), is busy or locked, the system is out of file descriptors or memory, or a
    /// network share returned an I/O error. A file that is too big is not among them.
    var isTransient: Bool {
        guard let code else { return false }
        return [ENOENT, EBUSY, ETXTBSY, EAGAIN, EINTR, EIO, EMFILE, ENFILE, ENOMEM, EACCES, EPERM, ESTALE, ETIMEDOUT].contains(code)
    }
}

/// Reads a whole file, refusing files over `limit` bytes.
func readWholeFile(_ path: String, limit: Int) throws -> [UInt8] {
    let fd = path.withSystemPath({ open($0, O_RDONLY | O_CLOEXEC) })
    guard fd >= 0 else { let code = errno; throw ReadError(description: "cannot open: \(String(cString: strerror(code)))", code: code) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { let code = errno; throw ReadError(description: String(cString: strerror(code)), code: code) }
    let size = Int(info.st_size)
    guard size <= limit else { throw ReadError(description: "file is \(size) bytes, over the \(limit)-byte limit") }
    var bytes = [UInt8](repeating: 0, count: size)
    var filled = 0
    while filled < size {
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, size - filled) }
        if n < 0 && errno == EINTR { continue }
        if n < 0 { let code = errno; throw ReadError(description: "read error: \(String(cString: strerror(code)))", code: code) }
        guard n > 0 else { break }
        filled += n
    }
    return Array(bytes[0..<filled])
}
