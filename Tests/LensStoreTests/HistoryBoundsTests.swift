import Foundation
import GRDB
import LensCore
import LensStore
import LensTestSupport
import Testing

/// Undo never races a running batch, and an undone batch can be brought back without OCR.
struct UndoRedoTests {
    /// An import batch of three recognized screenshots, run by process `pid`.
    static func importBatch(_ store: StoreFixture, pid: Int32, finished: Bool = true) throws -> (batch: Int64, ids: [Int64]) {
        let batch = try store.database.beginBatch(.import, summary: "/shots", pid: pid)
        var ids: [Int64] = []
        for n in 1...3 {
            _ = try store.database.register(FileObservation(path: "/shots/\(n).png", size: 100, modifiedAt: 1, sha256: StoreFixture.hash(n),
                                                            format: .png, seenAt: 2), batch: batch)
            let item = try #require(try store.database.claimNext(owner: getpid()))
            try store.database.recordRecognition(Recognition(text: "screenshot number \(n) invoice", words: [], width: 10, height: 10),
                                                 for: item.id, seconds: 0.1)
            ids.append(item.id)
        }
        if finished { try store.database.finishBatch(batch) }
        return (batch, ids)
    }

    @Test func aBatchRunningInALiveProcessRefusesEveryUndo() throws {
        let store = try StoreFixture()
        let older = try Self.importBatch(store, pid: 1)
        let running = try store.database.beginBatch(.import, summary: "/more", pid: 4242)
        for target in [nil, older.batch, running] {
            #expect(throws: UndoError.running(running, kind: .import, pid: 4242)) {
                try store.database.undo(batch: target, expiredBefore: 0, undoDays: 30, isAlive: { $0 == 4242 })
            }
        }
        #expect(throws: UndoError.running(running, kind: .import, pid: 4242)) {
            try store.database.undoCandidate(expiredBefore: 0, undoDays: 30, isAlive: { $0 == 4242 })
        }
        #expect(UndoError.running(running, kind: .import, pid: 4242).description.contains("still running in process 4242"))
        // Its process died (kill -9): the batch is interrupted, and can be undone.
        let outcome = try store.database.undo(batch: older.batch, expiredBefore: 0, undoDays: 30, isAlive: { _ in false })
        #expect(outcome.removed == 3)
    }

    /// In a library shared by hosts a process id says nothing: a running batch holds a lock on a
    /// connection of its own, which the server lets go of when that process ends, however it ends.
    @Test func aBatchRunningOnAnotherHostRefusesUndoUntilItsProcessEnds() throws {
        let address = try PostgresCluster.shared.get().makeDatabase()
        let here = try LensDatabase(store: .postgresql(address), worker: "here:1")
        var other: LensDatabase? = try LensDatabase(store: .postgresql(address), worker: "other-host:4242")
        let older = try here.beginBatch(.import, summary: "/shots", pid: 1)
        _ = try here.register(QueueContractTests.observation(1), batch: older)
        try here.finishBatch(older)
        let running = try #require(other).beginBatch(.import, summary: "/more", pid: 4242)
        let refusal = UndoError.runningElsewhere(running, kind: .import, worker: "other-host:4242")
        for target in [nil, older, running] {
            #expect(throws: refusal) { try here.undo(batch: target, expiredBefore: 0, undoDays: 30) }
        }
        #expect(throws: refusal) { try here.undoCandidate(expiredBefore: 0, undoDays: 30, isAlive: { _ in false }) }
        #expect(throws: refusal) { try here.redo(expiredBefore: 0, undoDays: 30) }
        #expect(refusal.description.contains("still running on other-host in process 4242"), "\(refusal.description)")
        // Its own process sees it running too (its pid, not a host, in the message).
        #expect(throws: UndoError.running(running, kind: .import, pid: 4242)) {
            try #require(other).undo(batch: older, expiredBefore: 0, undoDays: 30)
        }
        // The process ends without finishing the batch (its connections close, as on kill -9):
        // the batch is interrupted, and the older one can be undone.
        other = nil
        var outcome: UndoOutcome?
        for _ in 0..<50 where outcome == nil {
            outcome = try? here.undo(batch: older, expiredBefore: 0, undoDays: 30)
            if outcome == nil { Thread.sleep(forTimeInterval: 0.1) }
        }
        #expect(outcome?.removed == 1)
        #expect(try here.batches().first { $0.id == running }?.finishedAt == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func redoBringsAnUndoneImportBackAsItWasWithoutOCR(_ kind: StoreKind) throws {
        let store = try StoreFixture(kind)
        let (batch, ids) = try Self.importBatch(store, pid: 1)
        _ = try store.database.changeTags(of: ids[0], adding: ["kept"])
        try store.database.setNote(of: ids[1], to: "called on Monday")
        let candidate = try store.database.undoCandidate(expiredBefore: 0, undoDays: 30, isAlive: { _ in false })
        #expect(candidate.id == batch && candidate.kind == .import && candidate.items == 3)

        let undone = try store.database.undo(expiredBefore: 0, undoDays: 30)
        #expect(undone.removed == 3)
        #expect(try store.ids("invoice").isEmpty)
        #expect(try store.database.wasRemoved(sha256: StoreFixture.hash(1)))

        let redone = try store.database.redo(expiredBefore: 0, undoDays: 30)
        #expect(redone.batch.id == batch && redone.batch.undoneAt == nil && redone.batch.redoneAt != nil)
        #expect(redone.restoredIDs == ids)
        #expect(try Set(store.ids("invoice")) == Set(ids))
        #expect(try store.database.annotations(of: ids[0]).tags == ["kept"])
        #expect(try store.database.annotations(of: ids[1]).note == "called on Monday")
        #expect(try !store.database.wasRemoved(sha256: StoreFixture.hash(1)))
        #expect(try store.database.recognizedIDs(among: ids) == Set(ids))

        // Nothing is undone now; the batch can be undone (and redone) again.
        #expect(throws: UndoError.nothingToRedo) { try store.database.redo(expiredBefore: 0, undoDays: 30) }
        #expect(throws: UndoError.notUndone(batch)) { try store.database.redo(batch: batch, expiredBefore: 0, undoDays: 30) }
        #expect(try store.database.undo(expiredBefore: 0, undoDays: 30).removed == 3)
        #expect(try store.database.redo(batch: batch, expiredBefore: 0, undoDays: 30).restoredIDs == ids)
    }

    @Test(arguments: StoreKind.allCases)
    func redoOfAnUndoneDeleteDeletesAgain(_ kind: StoreKind) throws {
        let store = try StoreFixture(kind)
        let (_, ids) = try Self.importBatch(store, pid: 1)
        let (deletion, _) = try store.database.deleteScreenshots(ids: [ids[2]], summary: "#\(ids[2])")
        #expect(try store.database.undo(batch: deletion, expiredBefore: 0, undoDays: 30).restoredIDs == [ids[2]])
        let redone = try store.database.redo(expiredBefore: 0, undoDays: 30)
        #expect(redone.batch.id == deletion && redone.removed == 1)
        #expect(try Set(store.ids("invoice")) == Set(ids.prefix(2)))
        // ...and its undo brings it back once more.
        #expect(try store.database.undo(batch: deletion, expiredBefore: 0, undoDays: 30).restoredIDs == [ids[2]])
    }

    @Test(arguments: StoreKind.allCases)
    func anExpiredUndoneBatchCannotBeRedone(_ kind: StoreKind) throws {
        let store = try StoreFixture(kind)
        let (batch, _) = try Self.importBatch(store, pid: 1)
        _ = try store.database.undo(expiredBefore: 0, undoDays: 30)
        _ = try store.database.expireBatches(startedBefore: Date().timeIntervalSince1970 + 1)
        #expect(throws: UndoError.expired(batch, days: 30)) {
            try store.database.redo(expiredBefore: Date().timeIntervalSince1970 + 1, undoDays: 30)
        }
        #expect(throws: (any Error).self) { try store.database.redo(expiredBefore: 0, undoDays: 30) }
    }

    @Test(arguments: StoreKind.allCases)
    func textRecordedForAScreenshotTakenOutMeanwhileIsNotStored(_ kind: StoreKind) throws {
        let store = try StoreFixture(kind)
        _ = try store.database.register(FileObservation(path: "/a.png", size: 1, modifiedAt: 1, sha256: StoreFixture.hash(9), format: .png, seenAt: 2))
        let item = try #require(try store.database.claimNext(owner: getpid()))
        _ = try store.database.deleteScreenshots(ids: [item.id], summary: "")
        let stored = try store.database.recordRecognition(Recognition(text: "late words", words: [], width: 1, height: 1), for: item.id, seconds: 1)
        #expect(!stored)
        #expect(try store.ids("late").isEmpty)
    }
}

/// Searches are bounded whatever their shape.
struct SearchBoundsTests {
    @Test func aSearchPastItsTimeLimitStopsWithAClearError() throws {
        let store = try StoreFixture()
        try store.database.register(FileObservation(path: "/x.png", size: 1, modifiedAt: 1, sha256: StoreFixture.hash(1), format: .png, seenAt: 1))
        for n in 0..<400 {
            if n > 0 {
                _ = try store.database.register(FileObservation(path: "/\(n).png", size: 1, modifiedAt: 1, sha256: StoreFixture.hash(n + 1),
                                                                format: .png, seenAt: 1))
            }
            let item = try #require(try store.database.claimNext(owner: getpid()))
            try store.database.recordRecognition(Recognition(text: "common words of screenshot \(n) report", words: [], width: 1, height: 1),
                                                 for: item.id, seconds: 0)
        }
        var request = SearchRequest(query: try SearchQuery(parsing: "common report"), limit: 20)
        #expect(try store.database.search(request).count == 20)
        request.timeLimit = .zero
        #expect(throws: SearchError.tooCostly(milliseconds: 0)) { try store.database.search(request) }
        // The connection is usable again afterwards, with no limit left behind.
        request.timeLimit = .seconds(5)
        #expect(try store.database.search(request).count == 20)
    }

    @Test func aLongWordIsSearchedAsTyped() throws {
        let store = try StoreFixture()
        let token = String(repeating: "Zx9", count: 30)
        let id = try store.add("api token \(token) here", path: "/t.png", hash: 1)
        let request = SearchRequest(query: try SearchQuery(parsing: token))
        #expect(try store.database.search(request).map(\.id) == [id])
        let misspelt = SearchRequest(query: try SearchQuery(parsing: String(token.dropLast()) + "q"))
        #expect(try store.database.search(misspelt).isEmpty)
    }
}
