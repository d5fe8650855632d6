/// Decides when a file that is still being written has settled, so it is never read half-written.
///
/// A candidate is ready once its size and modification time have stayed the same for `delay`.
/// The watcher reports a candidate on `IN_CLOSE_WRITE`, but a copy in chunks, a browser download
/// or a network client may close and reopen the file; stat-based settling covers them all.
/// Pure: the caller supplies each observation and the current time (any monotonic seconds).
public struct StabilityTracker: Sendable {
    /// What a file looked like when last checked.
    public struct Observation: Sendable, Equatable {
        public var size: Int
        public var modifiedAt: Double
        public init(size: Int, modifiedAt: Double) {
            self.size = size
            self.modifiedAt = modifiedAt
        }
    }

    private struct Pending {
        var observation: Observation
        /// When the observation last changed.
        var since: Double
    }

    public let delay: Double
    private var pending: [String: Pending] = [:]

    public init(delay: Double) {
        self.delay = delay
    }

    /// Notes a candidate (again). A changed size or mtime restarts its wait.
    public mutating func observe(_ path: String, _ observation: Observation, at now: Double) {
        if let existing = pending[path], existing.observation == observation { return }
        pending[path] = Pending(observation: observation, since: now)
    }

    /// Forgets a path (deleted, or moved away before it settled).
    public mutating func forget(_ path: String) {
        pending[path] = nil
    }

    /// Paths whose last observation is `delay` old or older, removed from the tracker.
    /// `current` re-reads a path (nil if it vanished); a path that changed since is kept waiting.
    public mutating func settled(at now: Double, current: (String) -> Observation?) -> [String] {
        var ready: [String] = []
        for (path, entry) in pending where now - entry.since >= delay {
            guard let latest = current(path) else {
                pending[path] = nil
                continue
            }
            if latest == entry.observation {
                ready.append(path)
                pending[path] = nil
            } else {
                pending[path] = Pending(observation: latest, since: now)
            }
        }
        return ready.sorted()
    }

    /// When the next path may settle, for sleeping until then; `nil` when nothing waits.
    public var nextDeadline: Double? {
        pending.values.map { $0.since + delay }.min()
    }

    public var pendingCount: Int { pending.count }
}
