import Foundation
import GRDB
import LensCore

extension LensDatabase {
    /// How many stored texts have not been through secret masking (stored before it existed, or
    /// restored from a backup).
    public func uncheckedTextCount() throws -> Int {
        if let postgres { return try postgres.uncheckedTextCount() }
        return try writer().read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM screenshot_text WHERE privacy_checked = 0") ?? 0 }
    }

    /// Runs `mask` over stored texts (every one, or only those not checked yet) and rewrites those
    /// where it found secrets: the text, its word boxes, the code payloads, the index and the
    /// entities (`extract` re-finds those of the text; manual links and tags are kept). Then the
    /// freed pages are wiped (see ``wipeFreedPages()``). Returns how many were checked and changed.
    public func maskStoredTexts(onlyUnchecked: Bool, batchSize: Int = 200,
                                _ mask: @Sendable (Recognition) -> (Recognition, [MaskedSecret]),
                                extract: (String, Date) -> [Entity]) throws -> (checked: Int, changed: [Int64]) {
        if let postgres { return try postgres.maskStoredTexts(onlyUnchecked: onlyUnchecked, batchSize: batchSize, mask, extract: extract) }
        var last: Int64 = 0, checked = 0
        var changed: [Int64] = []
        while true {
            let rows = try writer().read { db in
                try Row.fetchAll(db, sql: """
                    SELECT t.id, lens_inflate(t.body) AS text, t.words, s.width, s.height, s.captured_at FROM screenshot_text t
                    JOIN screenshot s ON s.id = t.id
                    WHERE t.id > ? \(onlyUnchecked ? "AND t.privacy_checked = 0" : "") ORDER BY t.id LIMIT ?
                    """, arguments: [last, batchSize])
            }
            guard let lastRow = rows.last else { break }
            last = lastRow["id"]
            let ids = rows.map { $0["id"] as Int64 }
            let capturedAt = rows.map { Date(timeIntervalSince1970: ($0["captured_at"] as Double?) ?? 0) }
            var codes: [Int64: [DecodedCode]] = [:]
            try writer().read { db in
                let found = try Row.fetchCursor(db, sql: """
                    SELECT screenshot_id, symbology, payload FROM code WHERE screenshot_id IN (\(ids.map { _ in "?" }.joined(separator: ",")))
                    ORDER BY rowid
                    """, arguments: StatementArguments(ids))
                while let row = try found.next() {
                    codes[row["screenshot_id"], default: []].append(DecodedCode(symbology: row["symbology"], payload: row["payload"]))
                }
            }
            // Detection runs on every core; the word boxes are decoded only for texts with secrets.
            let items = rows.map { row in
                (text: (row["text"] as String?) ?? "", words: row["words"] as Data?, width: (row["width"] as Int?) ?? 0, height: (row["height"] as Int?) ?? 0)
            }
            let codesByID = codes
            let results = ResultSlots(count: rows.count)
            DispatchQueue.concurrentPerform(iterations: items.count) { index in
                let item = items[index]
                let plain = Recognition(text: item.text, words: [], width: item.width, height: item.height, codes: codesByID[ids[index]] ?? [])
                guard !mask(plain).1.isEmpty else { return }
                var stored = plain
                stored.words = item.words.flatMap { try? TextCompression.inflate(bytes: [UInt8]($0)) }
                    .map { Recognition.decodeWords($0, text: item.text) } ?? []
                results.set(index, mask(stored))
            }
            var rewrites: [(id: Int64, recognition: Recognition, secrets: [MaskedSecret], capturedAt: Date)] = []
            var untouched: [Int64] = []
            for (index, id) in ids.enumerated() {
                if let (masked, secrets) = results.get(index) { rewrites.append((id, masked, secrets, capturedAt[index])) } else { untouched.append(id) }
            }
            try writer().write { db in
                if !untouched.isEmpty {
                    try db.execute(sql: "UPDATE screenshot_text SET privacy_checked = 1 WHERE id IN (\(untouched.map { _ in "?" }.joined(separator: ",")))",
                                   arguments: StatementArguments(untouched))
                }
                for (id, recognition, secrets, capturedAt) in rewrites {
                    try Self.storeText(of: recognition, entities: extract(recognition.text, capturedAt) + secrets.filter { $0.start != nil }.map(\.entity),
                                       codeEntities: secrets.filter { $0.start == nil }.map(\.entity), for: id, in: db)
                }
            }
            checked += rows.count
            changed += rewrites.map(\.id)
        }
        if !changed.isEmpty { try wipeFreedPages() }
        return (checked, changed)
    }

    /// Makes replaced text unrecoverable from the files: merges the full-text index into one
    /// segment (FTS5 keeps deleted terms in old segments until they are merged), then checkpoints
    /// and truncates the WAL. With `secure_delete` on, every page freed on the way is zeroed.
    public func wipeFreedPages() throws {
        try writer().write(Self.mergeSearchIndex)
        try writer().writeWithoutTransaction { db in
            _ = try Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }
}

/// One result per index, written from `concurrentPerform`'s threads.
private final class ResultSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [(Recognition, [MaskedSecret])?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: (Recognition, [MaskedSecret])) { lock.withLock { slots[index] = value } }
    func get(_ index: Int) -> (Recognition, [MaskedSecret])? { lock.withLock { slots[index] } }
}
