import Foundation
import LensCore
import PostgresNIO
import Synchronization
import NIOCore

/// Files seen, and the OCR queue, in PostgreSQL: the queue is the `screenshot` table, claimed with
/// `FOR UPDATE SKIP LOCKED` under a lease, by any number of workers on any hosts.
extension PostgresStore {
    /// The channel `NOTIFY` wakes idle workers on when content is queued.
    static let queueChannel = "lens_queue"

    func register(_ file: FileObservation, batch: Int64?) throws -> Registration {
        try transaction { session in
            let now = file.seenAt
            // Two hosts may register the same content at once: the second waits on the unique
            // key, then finds the first's row.
            let inserted = try session.rows("""
                INSERT INTO screenshot (sha256, byte_count, format, captured_at, imported_at)
                VALUES (\(file.sha256), \(Int64(file.size)), \(file.format.rawValue), \(file.modifiedAt), \(now))
                ON CONFLICT (sha256) DO NOTHING RETURNING id
                """)
            if let row = inserted.first {
                let id = try row.get("id", as: Int64.self)
                try upsertPath(file, screenshotID: id, now: now, in: session)
                try session.execute("DELETE FROM removed_content WHERE sha256 = \(file.sha256)")
                if let batch {
                    try session.execute("INSERT INTO batch_item (batch_id, sha256) VALUES (\(batch), \(file.sha256)) ON CONFLICT DO NOTHING")
                }
                try session.execute("SELECT pg_notify(\(Self.queueChannel), '')")
                return .added(id: id)
            }
            guard let row = try session.rows("SELECT id, state, last_error FROM screenshot WHERE sha256 = \(file.sha256)").first else {
                throw PostgresStoreError.statementFailed("content \(file.sha256) vanished while it was registered", code: nil)
            }
            let id = try row.get("id", as: Int64.self)
            let existing = try session.value("SELECT screenshot_id FROM path WHERE path = \(file.path)", as: Int64.self)
            try upsertPath(file, screenshotID: id, now: now, in: session)
            return .known(id: id, state: QueueState(rawValue: try row.get("state", as: String.self)) ?? .queued,
                          lastError: try row.optional("last_error", as: String.self), isNewPath: existing != id)
        }
    }

    private func upsertPath(_ file: FileObservation, screenshotID: Int64, now: Double, in session: PostgresSession) throws {
        try session.execute("""
            INSERT INTO path (screenshot_id, path, size, modified_at, first_seen_at, last_seen_at)
            VALUES (\(screenshotID), \(file.path), \(Int64(file.size)), \(file.modifiedAt), \(now), \(now))
            ON CONFLICT (path) DO UPDATE SET
                screenshot_id = excluded.screenshot_id, size = excluded.size,
                modified_at = excluded.modified_at, last_seen_at = excluded.last_seen_at, gone_at = NULL
            """)
    }

    func unchangedScreenshot(atPath path: String, size: Int, modifiedAt: Double) throws -> ScreenshotState? {
        try withSession { session in
            try session.rows("""
                SELECT s.id, s.state, s.last_error FROM path p JOIN screenshot s ON s.id = p.screenshot_id
                WHERE p.path = \(path) AND p.size = \(Int64(size)) AND p.modified_at = \(modifiedAt) AND p.gone_at IS NULL
                """).first.map {
                ScreenshotState(id: try $0.get("id"), state: QueueState(rawValue: try $0.get("state", as: String.self)) ?? .queued,
                                lastError: try $0.optional("last_error"))
            }
        }
    }

    // MARK: Claims

    /// Takes the oldest claimable item: queued and not waiting out a retry, or running under a
    /// lease that ran out (its worker died or lost the database). Other workers skip the row
    /// while this transaction holds it, so no two take the same item.
    ///
    /// A claim whose lease ran out counts as a crash: its worker stopped mid-image (crashed, was
    /// killed, lost the network). An image whose workers stopped ``LensDatabase/poisonCrashCount``
    /// times is failed as poisoned instead of being handed on, so one file that kills the OCR
    /// cannot take down every worker of the fleet in turn (`lens retry` tries it again).
    func claimNext(now: Double, lease: Double) throws -> ClaimedItem? {
        try transaction { session in
            try session.execute("""
                UPDATE screenshot SET state = 'failed', crashes = crashes + 1, claimed_by = NULL, claimed_at = NULL, lease_until = NULL,
                    last_error = format('poisoned: the workers recognizing this file stopped before finishing %s times (crashed, killed or cut off); %L tries again', crashes + 1, 'lens retry ' || id)
                WHERE state = 'running' AND lease_until < \(now) AND crashes + 1 >= \(Int32(LensDatabase.poisonCrashCount))
                """)
            guard let row = try session.rows("""
                UPDATE screenshot SET state = 'running', claimed_by = \(workerID), claimed_at = \(now),
                    lease_until = \(now + lease), attempts = attempts + 1, crashes = crashes + (state = 'running')::integer
                WHERE id = (SELECT id FROM screenshot
                            WHERE state IN ('queued', 'running')
                              AND ((state = 'queued' AND (retry_at IS NULL OR retry_at <= \(now)))
                                   OR (state = 'running' AND lease_until < \(now)))
                            ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
                RETURNING id, sha256, attempts, captured_at
                """).first else { return nil }
            let id = try row.get("id", as: Int64.self)
            let paths = try session.rows("""
                SELECT path FROM path WHERE screenshot_id = \(id) AND gone_at IS NULL ORDER BY last_seen_at DESC
                """).map { try $0.get("path", as: String.self) }
            return ClaimedItem(id: id, sha256: try row.get("sha256"), attempts: Int(try row.get("attempts", as: Int32.self)),
                               paths: paths, capturedAt: Date(timeIntervalSince1970: try row.get("captured_at")))
        }
    }

    /// Stores a recognition in one transaction, if this worker still holds the claim: a worker
    /// whose lease ran out while it was recognizing finds the item taken over (or done) and
    /// stores nothing, so no screenshot enters the index twice.
    func recordRecognition(_ recognition: Recognition, entities: [Entity], codeEntities: [Entity], for id: Int64,
                           seconds: Double, now: Double) throws -> Bool {
        try transaction { session in
            let changed = try session.execute("""
                UPDATE screenshot SET state = 'done', confidence = \(recognition.meanConfidence), width = \(Int32(clamping: recognition.width)),
                    height = \(Int32(clamping: recognition.height)), ocr_seconds = \(seconds), recognized_at = \(now), last_error = NULL,
                    claimed_by = NULL, claimed_at = NULL, lease_until = NULL, retry_at = NULL
                WHERE id = \(id) AND state = 'running' AND claimed_by = \(workerID)
                """)
            guard changed > 0 else { return false }
            try storeText(of: recognition, entities: entities, codeEntities: codeEntities, for: id, in: session)
            return true
        }
    }

    func storeText(of recognition: Recognition, entities: [Entity], codeEntities: [Entity], for id: Int64, in session: PostgresSession) throws {
        let payloads = recognition.codes.isEmpty ? nil : recognition.codes.map(\.payload).joined(separator: "\n")
        let words = Data(TextCompression.deflate(bytes: Recognition.encode(recognition.words)))
        // Tags and note stay; the document is made again with the new text.
        let kept = try session.rows("SELECT tags, note FROM screenshot_text WHERE id = \(id) FOR UPDATE").first
        let tags = try kept?.get("tags", as: [String].self) ?? []
        let note = try kept?.optional("note", as: String.self)
        let document = SearchDocument(text: recognition.text, codes: payloads, tags: tags, note: note)
        try session.execute("""
            INSERT INTO screenshot_text (id, body, words, codes, privacy_checked, length, document)
            VALUES (\(id), \(recognition.text), \(words), \(payloads), true, \(document.length),
                    lens_document(\(document.text)::tsvector, \(document.tags)::tsvector, \(document.note)::tsvector))
            ON CONFLICT (id) DO UPDATE SET body = excluded.body, words = excluded.words, codes = excluded.codes,
                privacy_checked = true, length = excluded.length, document = excluded.document
            """)
        try session.execute("DELETE FROM code WHERE screenshot_id = \(id)")
        try session.execute("DELETE FROM entity WHERE screenshot_id = \(id)")
        var rows = entities.map { EntityRow(type: $0.type.rawValue, value: $0.value, normalized: $0.normalized,
                                            start: Int32(clamping: $0.start), end: Int32(clamping: $0.end), source: "text") }
        rows += codeEntities.map { EntityRow(type: $0.type.rawValue, value: $0.value, normalized: $0.normalized, source: "code") }
        for code in recognition.codes {
            try session.execute("INSERT INTO code (screenshot_id, symbology, payload) VALUES (\(id), \(code.symbology), \(code.payload))")
            if let url = WebAddress(code.payload) {
                rows.append(EntityRow(type: "url", value: code.payload, normalized: url.normalized, source: "code"))
            }
        }
        try insertEntities(rows, of: id, in: session)
    }

    /// An entity row as stored.
    struct EntityRow {
        var type: String, value: String, normalized: String
        var start: Int32? = nil, end: Int32? = nil
        var source: String
    }

    /// A screenshot's entities in one statement, in their order: the entity_count trigger then
    /// upserts the counts of the whole statement in key order, so that writers sharing entities
    /// lock them in the same order (a statement an entity would lock them in text order, and two
    /// workers could deadlock).
    func insertEntities(_ rows: [EntityRow], of id: Int64, in session: PostgresSession) throws {
        guard !rows.isEmpty else { return }
        // Arrays cannot hold a Swift nil here: -1 stands for none (offsets are never negative).
        try session.execute("""
            INSERT INTO entity (screenshot_id, type, value, normalized, start, "end", source)
            SELECT \(id), type, value, normalized, nullif(start, -1), nullif(finish, -1), source
            FROM unnest(\(rows.map(\.type))::text[], \(rows.map(\.value))::text[], \(rows.map(\.normalized))::text[],
                        \(rows.map { $0.start ?? -1 })::int4[], \(rows.map { $0.end ?? -1 })::int4[], \(rows.map(\.source))::text[])
                 WITH ORDINALITY AS r(type, value, normalized, start, finish, source, position)
            ORDER BY position
            """)
    }

    func renewLeases(now: Double, lease: Double) throws -> Int {
        try withSession { session in
            try session.execute("""
                UPDATE screenshot SET lease_until = \(now + lease)
                WHERE state = 'running' AND claimed_by = \(workerID) AND lease_until >= \(now)
                """)
        }
    }

    func recordFailure(_ reason: String, for id: Int64) throws {
        _ = try withSession { session in
            try session.execute("""
                UPDATE screenshot SET state = 'failed', last_error = \(reason), claimed_by = NULL, claimed_at = NULL,
                    lease_until = NULL, retry_at = NULL
                WHERE id = \(id) AND state = 'running' AND claimed_by = \(workerID)
                """)
        }
    }

    func deferItem(_ id: Int64, reason: String, retryAt: Double) throws {
        _ = try withSession { session in
            try session.execute("""
                UPDATE screenshot SET state = 'queued', last_error = \(reason), retry_at = \(retryAt), claimed_by = NULL,
                    claimed_at = NULL, lease_until = NULL
                WHERE id = \(id) AND state = 'running' AND claimed_by = \(workerID)
                """)
        }
    }

    func releaseClaim(on id: Int64) throws {
        _ = try withSession { session in
            try session.execute("""
                UPDATE screenshot SET state = 'queued', claimed_by = NULL, claimed_at = NULL, lease_until = NULL
                WHERE id = \(id) AND state = 'running' AND claimed_by = \(workerID)
                """)
        }
    }

    /// Returns to the queue the claims of processes of this host that are gone; claims of other
    /// hosts end with their leases.
    func requeueAbandoned(isAlive: (Int32) -> Bool) throws -> Int {
        let host = workerID.split(separator: ":").dropLast().joined(separator: ":")
        return try withSession { session in
            let owners = try session.rows("""
                SELECT DISTINCT claimed_by FROM screenshot WHERE state = 'running' AND claimed_by LIKE \(host + ":%")
                """).map { try $0.get("claimed_by", as: String.self) }
            var count = 0
            for owner in owners {
                guard let pid = owner.split(separator: ":").last.flatMap({ Int32($0) }), !isAlive(pid) else { continue }
                // A crash of the image's worker, as a lease that runs out is (see claimNext).
                count += try session.execute("""
                    UPDATE screenshot SET claimed_by = NULL, claimed_at = NULL, lease_until = NULL, crashes = crashes + 1,
                        state = CASE WHEN crashes + 1 >= \(Int32(LensDatabase.poisonCrashCount)) THEN 'failed' ELSE 'queued' END,
                        last_error = CASE WHEN crashes + 1 >= \(Int32(LensDatabase.poisonCrashCount)) THEN format('poisoned: the workers recognizing this file stopped before finishing %s times (crashed, killed or cut off); %L tries again', crashes + 1, 'lens retry ' || id) ELSE last_error END
                    WHERE state = 'running' AND claimed_by = \(owner)
                    """)
            }
            return count
        }
    }

    /// `lens retry`: failed items back in the queue, counters reset; idle workers are woken.
    func retry(ids: [Int64]?) throws -> Int {
        if let ids, ids.isEmpty { return 0 }
        return try transaction { session in
            let count = try session.execute("""
                UPDATE screenshot SET state = 'queued', attempts = 0, crashes = 0, last_error = NULL, retry_at = NULL,
                    claimed_by = NULL, claimed_at = NULL, lease_until = NULL
                WHERE state = 'failed' AND (\(ids == nil) OR id = ANY(\(ids ?? [])))
                """)
            if count > 0 { try session.execute("SELECT pg_notify(\(Self.queueChannel), '')") }
            return count
        }
    }

    func hasClaimableWork(now: Double) throws -> Bool {
        try withSession { session in
            try session.value("""
                SELECT EXISTS (SELECT 1 FROM screenshot WHERE state IN ('queued', 'running')
                    AND ((state = 'queued' AND (retry_at IS NULL OR retry_at <= \(now))) OR (state = 'running' AND lease_until < \(now))))
                """, as: Bool.self) ?? false
        }
    }

    /// The earliest moment something may become claimable without a new file: a retry's time
    /// or a lease's end.
    func nextRetryTime() throws -> Double? {
        try withSession { session in
            try session.value("""
                SELECT min(t) FROM (SELECT retry_at AS t FROM screenshot WHERE state = 'queued' AND retry_at IS NOT NULL
                                    UNION ALL SELECT lease_until FROM screenshot WHERE state = 'running') AS times
                """, as: Double.self)
        }
    }

    func retryTimes(ids: [Int64]) throws -> [Int64: Double] {
        guard !ids.isEmpty else { return [:] }
        return try withSession { session in
            var times: [Int64: Double] = [:]
            for row in try session.rows("""
                SELECT id, retry_at FROM screenshot WHERE state = 'queued' AND retry_at IS NOT NULL AND id = ANY(\(ids))
                """) {
                times[try row.get("id")] = try row.get("retry_at", as: Double.self)
            }
            return times
        }
    }

    func waitingForRetryCount() throws -> Int {
        try withSession { session in
            Int(try session.value("SELECT count(*) FROM screenshot WHERE state = 'queued' AND retry_at IS NOT NULL", as: Int64.self) ?? 0)
        }
    }

    func recognizedIDs(among ids: [Int64]) throws -> Set<Int64> {
        guard !ids.isEmpty else { return [] }
        return try withSession { session in
            Set(try session.rows("SELECT id FROM screenshot WHERE state = 'done' AND id = ANY(\(ids))").map { try $0.get("id", as: Int64.self) })
        }
    }

    func stateCounts() throws -> [QueueState: Int] {
        try withSession { session in
            var counts = Dictionary(uniqueKeysWithValues: QueueState.allCases.map { ($0, 0) })
            for row in try session.rows("SELECT state, count(*) AS n FROM screenshot GROUP BY state") {
                if let state = QueueState(rawValue: try row.get("state", as: String.self)) { counts[state] = Int(try row.get("n", as: Int64.self)) }
            }
            return counts
        }
    }

    func failures(ids: [Int64]) throws -> [(path: String, reason: String)] {
        guard !ids.isEmpty else { return [] }
        return try withSession { session in
            try session.rows("""
                SELECT p.path, s.last_error FROM screenshot s JOIN path p ON p.screenshot_id = s.id
                WHERE s.state = 'failed' AND s.id = ANY(\(ids)) ORDER BY p.path
                """).map { (try $0.get("path", as: String.self), try $0.optional("last_error", as: String.self) ?? "unknown error") }
        }
    }

    // MARK: Batches (the log itself: PostgresStore+History.swift)

    func wasRemoved(sha256: String) throws -> Bool {
        try withSession { session in
            try session.value("SELECT EXISTS (SELECT 1 FROM removed_content WHERE sha256 = \(sha256))", as: Bool.self) ?? false
        }
    }
}


/// Wakes a worker when content is queued anywhere (PostgreSQL's `LISTEN`/`NOTIFY`). A dedicated
/// connection listens; a lost connection leaves the worker to its periodic look at the queue.
public final class QueueNotifications: Sendable {
    private let pending = Atomic<Bool>(false)
    private let connection: PostgresConnection

    init(store: PostgresStore) throws {
        connection = try store.listeningConnection()
        connection.addListener(channel: PostgresStore.queueChannel) { [weak self] _, _ in
            self?.pending.store(true, ordering: .releasing)
        }
        try PostgresSession(connection: connection, logger: store.logger).execute("LISTEN lens_queue")
    }

    /// Returns when content was queued since the last call, or after `seconds`, whichever is first:
    /// true when content was queued (a notification came, however late this task got to see it).
    @discardableResult
    public func wait(upTo seconds: Double) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline, !Task.isCancelled {
            if pending.exchange(false, ordering: .acquiringAndReleasing) { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return pending.exchange(false, ordering: .acquiringAndReleasing)
    }

    public func close() {
        PostgresStore.close(connection)
    }
}
