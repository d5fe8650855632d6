import LensCore
import Testing

struct StabilityTrackerTests {
    typealias Obs = StabilityTracker.Observation

    @Test func aFileThatStaysTheSameSettlesAfterTheDelay() {
        var tracker = StabilityTracker(delay: 0.5)
        tracker.observe("/a.png", Obs(size: 10, modifiedAt: 1), at: 100)
        #expect(tracker.settled(at: 100.4) { _ in Obs(size: 10, modifiedAt: 1) } == [])
        #expect(tracker.nextDeadline == 100.5)
        #expect(tracker.settled(at: 100.5) { _ in Obs(size: 10, modifiedAt: 1) } == ["/a.png"])
        #expect(tracker.pendingCount == 0)
    }

    @Test func aFileStillGrowingKeepsWaiting() {
        var tracker = StabilityTracker(delay: 0.5)
        tracker.observe("/copy.png", Obs(size: 100, modifiedAt: 1), at: 0)
        var size = 100
        // Each check finds it bigger: it never settles while the copy goes on.
        for step in 1...10 {
            size += 100
            let now = Double(step) * 0.5
            #expect(tracker.settled(at: now) { _ in Obs(size: size, modifiedAt: now) } == [])
        }
        #expect(tracker.settled(at: 5.4) { _ in Obs(size: size, modifiedAt: 5.0) } == [])
        #expect(tracker.settled(at: 5.5) { _ in Obs(size: size, modifiedAt: 5.0) } == ["/copy.png"])
    }

    @Test func aNewEventForAChangedFileRestartsTheWait() {
        var tracker = StabilityTracker(delay: 1)
        tracker.observe("/a.png", Obs(size: 1, modifiedAt: 1), at: 0)
        tracker.observe("/a.png", Obs(size: 1, modifiedAt: 1), at: 0.9) // same: the clock keeps running
        #expect(tracker.nextDeadline == 1)
        tracker.observe("/a.png", Obs(size: 2, modifiedAt: 2), at: 0.9) // changed: wait again
        #expect(tracker.nextDeadline == 1.9)
    }

    @Test func vanishedAndForgottenFilesAreDropped() {
        var tracker = StabilityTracker(delay: 0.1)
        tracker.observe("/gone.png", Obs(size: 1, modifiedAt: 1), at: 0)
        tracker.observe("/moved.png", Obs(size: 1, modifiedAt: 1), at: 0)
        tracker.forget("/moved.png")
        #expect(tracker.settled(at: 1) { _ in nil } == [])
        #expect(tracker.pendingCount == 0)
        #expect(tracker.nextDeadline == nil)
    }

    @Test func manyFilesSettleTogetherInPathOrder() {
        var tracker = StabilityTracker(delay: 0.2)
        for name in ["c", "a", "b"] { tracker.observe("/\(name).png", Obs(size: 5, modifiedAt: 0), at: 0) }
        #expect(tracker.settled(at: 0.3) { _ in Obs(size: 5, modifiedAt: 0) } == ["/a.png", "/b.png", "/c.png"])
    }
}
