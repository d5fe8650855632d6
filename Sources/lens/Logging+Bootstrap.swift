import Foundation
import Logging

enum Logging {
    /// Sends swift-log output to standard error at `level`; called once per process.
    static func bootstrap(level: String) {
        once.withLock { done in
            guard !done else { return }
            done = true
            let parsed = Logger.Level(rawValue: level) ?? .warning
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = parsed
                return handler
            }
        }
    }

    private static let once = LockedFlag()
}

final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func withLock(_ body: (inout Bool) -> Void) {
        lock.lock(); defer { lock.unlock() }
        body(&value)
    }
}
