import ArgumentParser
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Hostile searches against `lens serve` over a large library: each kind's time (p99), the
/// server's peak memory above idle, and the latency of ordinary searches sent meanwhile. The
/// server is started afresh for each kind, so one kind's damage does not bleed into the next.
/// Any `lens` binary can be measured (`--lens`), so a build from before the bounds gives the
/// "before" table in the same run's conditions.
struct AdversarialBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "adversarial",
        abstract: "Measure hostile searches through lens serve: p99 time, peak memory above idle, other requests meanwhile.",
        discussion: """
            Build the library first: lens-bench search --documents 100000 --keep /tmp/lens-100k.db
            then: lens-bench adversarial --db /tmp/lens-100k.db [--lens OTHER/lens]
            """)

    @Option(help: "The library to serve.")
    var db: String

    @Option(help: "The lens binary.")
    var lens: String = Measure.siblingLens

    @Option(help: "Hostile requests per kind.")
    var requests: Int = 5

    @Option(help: "Give up on one request after this many seconds.")
    var timeout: Double = 60

    @Option(help: "Only the kinds whose name contains this.")
    var only: String?

    /// One kind of hostile request: its query parameters.
    struct Kind: Sendable {
        var name: String
        var parameters: @Sendable (Int) -> [URLQueryItem]
    }

    static func word(_ length: Int, _ seed: Int) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        var state = UInt64(seed * 2_654_435_761 + 1)
        return String((0..<length).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return letters[Int(state >> 33) % letters.count]
        })
    }

    static let kinds: [Kind] = {
        let base64 = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        @Sendable func q(_ text: String) -> [URLQueryItem] { [URLQueryItem(name: "q", value: text)] }
        return [
            Kind(name: "one word, 40 letters") { q(word(40, $0)) },
            Kind(name: "one word, 1,000 letters") { q(word(1_000, $0)) },
            Kind(name: "one word, 3,200 letters") { q(word(3_200, $0)) },
            Kind(name: "one word, 8,000 letters") { q(word(8_000, $0)) },
            Kind(name: "base64 blob, 2,400 chars") { n in q(String((0..<2_400).map { base64[($0 * 7 + n * 13) % base64.count] })) },
            Kind(name: "32 words of 30 letters") { n in q((0..<32).map { word(30, n * 100 + $0) }.joined(separator: " ")) },
            Kind(name: "2,000 words") { n in q((0..<2_000).map { word(4, n * 10_000 + $0) }.joined(separator: " ")) },
            Kind(name: "31 two-letter prefixes") { n in q((0..<31).map { word(2, n * 100 + $0) + "*" }.joined(separator: " ")) },
            Kind(name: "32 words OR'd") { n in q((0..<32).map { word(6, n * 100 + $0) }.joined(separator: " OR ")) },
            Kind(name: "1 word, 31 exclusions") { n in q("report " + (0..<31).map { "-" + word(5, n * 100 + $0) }.joined(separator: " ")) },
            Kind(name: "nesting: 900 brackets and quotes") { n in q(String(repeating: "(\"", count: 450) + word(6, n)) },
            Kind(name: "mixed scripts and combining marks") { n in
                q((0..<30).map { i in ["Привет", "κόσμος", "東京都", "مرحبا", "😀x", "e\u{301}\u{302}\u{303}", word(5, n * 100 + i)][i % 7] }
                    .joined(separator: " "))
            },
            Kind(name: "48 filters and a word") { n in
                q(word(5, n)) + (0..<16).map { URLQueryItem(name: "tag", value: "t\($0)") }
                    + ["url", "email", "phone", "money", "date", "person"].map { URLQueryItem(name: "type", value: $0) }
                    + (0..<16).map { URLQueryItem(name: "entity", value: "phone:+1415555\(1000 + $0)") }
            },
            Kind(name: "1,000 tag parameters") { n in q(word(5, n)) + (0..<1_000).map { URLQueryItem(name: "tag", value: "t\($0)") } },
        ]
    }()

    func run() async throws {
        let work = try Measure.makeTemporaryFolder("lens-bench-adversarial")
        defer { try? FileManager.default.removeItem(at: work) }
        let session = URLSession(configuration: .ephemeral)
        print("lens: \(lens)\nlibrary: \(db)\n")
        print("| kind | statuses | p99 ms | peak RSS above idle | ordinary searches meanwhile: p95 (baseline) |")
        print("|---|---|---:|---:|---:|")
        for kind in Self.kinds where only.map({ kind.name.contains($0) }) ?? true {
            let server = try Server(lens: lens, db: db, cache: work)
            defer { server.stop() }
            // Ordinary searches alone, then while the hostile ones run.
            let ordinary = ["report", "invoice", "meeting", "order", "password", "the"]
            var baseline: [Double] = []
            for word in ordinary + ordinary { baseline.append(try await Self.request(session, server.base, [URLQueryItem(name: "q", value: word)], timeout: timeout).ms) }
            let idle = Measure.memory(server.pid, "VmRSS")
            server.resetPeak()
            let done = Flag()
            let base = server.base, timeout = self.timeout
            let meanwhile = Task { @Sendable in
                var times: [Double] = []
                var index = 0
                while !done.isSet {
                    let started = ContinuousClock.now
                    _ = try? await Self.request(session, base, [URLQueryItem(name: "q", value: ordinary[index % ordinary.count])], timeout: timeout)
                    times.append(Self.milliseconds(since: started))
                    index += 1
                    try? await Task.sleep(for: .milliseconds(20))
                }
                return times
            }
            var times: [Double] = [], statuses: [String: Int] = [:]
            for n in 0..<requests {
                let started = ContinuousClock.now
                do {
                    let answer = try await Self.request(session, server.base, kind.parameters(n), timeout: timeout)
                    statuses["\(answer.status)", default: 0] += 1
                } catch {
                    statuses["timeout", default: 0] += 1
                }
                times.append(Self.milliseconds(since: started))
                if !server.isRunning { statuses["server died", default: 0] += 1; break }
            }
            done.set()
            let others = await meanwhile.value
            let peak = max(0, Measure.memory(server.pid, "VmHWM") - idle) / 1024
            print(String(format: "| %@ | %@ | %.1f | %.1f MB | %.1f ms (%.1f ms), %d requests |", kind.name,
                         statuses.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: " "),
                         Measure.percentile(times, 0.99), peak, Measure.percentile(others, 0.95), Measure.percentile(baseline, 0.95), others.count))
        }
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }

    private static func request(_ session: URLSession, _ base: String, _ items: [URLQueryItem], timeout: Double) async throws -> (status: Int, ms: Double) {
        var components = URLComponents(string: base + "api/search")!
        components.queryItems = items
        var request = URLRequest(url: components.url!)
        request.timeoutInterval = timeout
        let started = ContinuousClock.now
        let (_, response) = try await session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, Self.milliseconds(since: started))
    }

    /// `lens serve` on a free port.
    final class Server: @unchecked Sendable {
        let process = Process()
        let base: String
        var pid: Int32 { process.processIdentifier }
        var isRunning: Bool { process.isRunning }

        init(lens: String, db: String, cache: URL) throws {
            process.executableURL = URL(fileURLWithPath: lens)
            process.arguments = ["serve", "--db", db, "--listen", "127.0.0.1:0"]
            var environment = Measure.benchEnvironment
            environment["XDG_CACHE_HOME"] = cache.path
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
            guard let range = line.range(of: #"http://[^ ]+/"#, options: .regularExpression) else {
                process.terminate()
                throw ValidationError("lens serve did not print its address: \(line)")
            }
            base = String(line[range]).trimmingCharacters(in: .whitespacesAndNewlines)
            Thread.sleep(forTimeInterval: 0.5)
        }

        /// Resets VmHWM to the current RSS (Linux: "5" to /proc/PID/clear_refs).
        func resetPeak() {
            try? "5".write(toFile: "/proc/\(pid)/clear_refs", atomically: false, encoding: .utf8)
        }

        /// SIGTERM, then SIGKILL after 5 s (a server stuck in one request may not stop).
        func stop() {
            process.terminate()
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { kill(pid, SIGKILL) }
            process.waitUntilExit()
        }
    }

    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        var isSet: Bool { lock.withLock { value } }
        func set() { lock.withLock { value = true } }
    }
}
