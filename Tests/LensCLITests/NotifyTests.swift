import Foundation
import Glibc
import LensTestSupport
import Testing

/// A stand-in for systemd's notify socket: an AF_UNIX datagram socket the test binds and reads.
final class NotifyListener: @unchecked Sendable {
    let path: String
    private let fd: Int32
    private let lock = NSLock()
    private var messages: [String] = []
    private var reader: Thread?

    init(in folder: URL) throws {
        path = folder.appendingPathComponent("notify.sock").path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n > 0 { lock.withLock { messages.append(String(decoding: buffer[0..<n], as: UTF8.self)) } }
                if n < 0 && errno != EAGAIN && errno != EINTR { return }
                if lock.withLock({ reader == nil }) { return }
            }
        }
        reader = thread
        thread.start()
    }

    var received: [String] { lock.withLock { messages } }

    func wait(for fragment: String, seconds: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if received.contains(where: { $0.contains(fragment) }) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    func close() {
        lock.withLock { reader = nil }
        Thread.sleep(forTimeInterval: 0.2)
        Glibc.close(fd)
    }
}

@Suite(.serialized)
struct NotifyTests {
    /// Type=notify: READY=1 once watching, STATUS= with queue counts as work is done, STOPPING=1 on SIGTERM.
    @Test func theDaemonSpeaksTheNotifyProtocol() throws {
        let lens = try LensBinary()
        let folder = lens.home.appendingPathComponent("shots")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestSupport.samplePNG("terminal"), to: folder.appendingPathComponent("t.png"))
        let listener = try NotifyListener(in: lens.home)
        defer { listener.close() }
        let process = try WatchTests.Daemon(lens, folder: folder, environment: ["NOTIFY_SOCKET": listener.path]).process
        #expect(listener.wait(for: "READY=1"), "\(listener.received)")
        #expect(listener.received.first { $0.contains("READY=1") }?.contains("STATUS=watching 1 folder(s)") == true)
        #expect(listener.wait(for: "STATUS=1 indexed, 0 queued, 0 failed"), "\(listener.received)")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(listener.wait(for: "STOPPING=1", seconds: 5), "\(listener.received)")
    }
    /// WatchdogSec=: with WATCHDOG_USEC set, WATCHDOG=1 comes at half that interval; a
    /// WATCHDOG_PID naming another process means the variables were inherited, not meant for it.
    @Test(arguments: [true, false])
    func theDaemonPingsTheWatchdogWhenAsked(forThisProcess: Bool) throws {
        let lens = try LensBinary()
        let folder = lens.home.appendingPathComponent("shots")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let listener = try NotifyListener(in: lens.home)
        defer { listener.close() }
        var environment = ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "200000"]
        if !forThisProcess { environment["WATCHDOG_PID"] = "1" }
        let daemon = try WatchTests.Daemon(lens, folder: folder, environment: environment)
        #expect(listener.wait(for: "READY=1"), "\(listener.received)")
        Thread.sleep(forTimeInterval: 0.6)
        let pings = listener.received.filter { $0 == "WATCHDOG=1" }.count
        if forThisProcess {
            #expect(pings >= 3, "\(listener.received)") // every 0.1 s
        } else {
            #expect(pings == 0, "\(listener.received)")
        }
        #expect(daemon.terminate() == 0)
    }
}
