/// Where a screenshot's content stands in the OCR queue.
///
/// The queue lives in the database, so these states survive crashes: an item
/// left `running` by a process that died goes back to `queued` on the next start.
public enum QueueState: String, Sendable, Codable, CaseIterable {
    case queued, running, done, failed
}
