/// When to try a queue item again after a transient failure (the file busy or briefly gone,
/// the disk full), and when to give up and fail it with the reason.
///
/// Delays grow geometrically, so a file that stays unreadable costs a handful of attempts, not a
/// busy loop; a permanent problem (not an image, corrupt) never gets here: it fails at once.
public struct RetryPolicy: Sendable, Equatable {
    /// The delay after the first failed attempt, in seconds.
    public var firstDelay: Double
    /// Each further delay is this many times the previous one.
    public var factor: Double
    /// Attempts in all, the first included; the last failure is final.
    public var maximumAttempts: Int

    public init(firstDelay: Double, factor: Double, maximumAttempts: Int) {
        precondition(firstDelay >= 0 && factor >= 1 && maximumAttempts >= 1)
        self.firstDelay = firstDelay
        self.factor = factor
        self.maximumAttempts = maximumAttempts
    }

    /// The daemon: 2 s, 8 s, 32 s, 128 s, 512 s, then the sixth failure is final (about 11 minutes
    /// in all: long enough for a share to come back or a disk to be cleaned up).
    public static let daemon = RetryPolicy(firstDelay: 2, factor: 4, maximumAttempts: 6)

    /// A one-shot `lens import` that a person waits for: 0.5 s, 1 s, 2 s, then final.
    public static let interactive = RetryPolicy(firstDelay: 0.5, factor: 2, maximumAttempts: 4)

    /// Seconds to wait after attempt number `attempt` (1-based) failed transiently, or `nil` when
    /// that was the last attempt allowed.
    public func delay(afterAttempt attempt: Int) -> Double? {
        guard attempt < maximumAttempts else { return nil }
        var delay = firstDelay
        for _ in 1..<max(1, attempt) { delay *= factor }
        return delay
    }
}
