import Foundation
import LensCore

/// Paths and helpers shared by Lens's test targets.
public enum TestSupport {
    /// The package root, found from this file's location.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static let samplesFolder = packageRoot.appendingPathComponent("samples")

    /// The bundled sample screenshots (name without extension).
    public static let sampleNames = ["chat_dark", "receipt_light", "terminal"]

    /// The shared evaluation corpus (`../shared/corpus/public` beside the clone), when present.
    public static var corpusFolder: URL? {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/public")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// How many sample PNGs the folder holds (the three above plus the OCR-tuning and QR samples).
    public static var samplePNGCount: Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: samplesFolder.path)) ?? []).filter { $0.hasSuffix(".png") }.count
    }

    public static func samplePNG(_ name: String) -> URL { samplesFolder.appendingPathComponent(name + ".png") }

    public static func sampleBytes(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: samplePNG(name))) }

    public static func sampleText(_ name: String) throws -> String {
        try String(contentsOf: samplesFolder.appendingPathComponent(name + ".txt"), encoding: .utf8)
    }

    /// The folder every temporary folder of this test process is made in, removed when the
    /// process exits (test runs used to leave thousands of folders in /tmp).
    static let temporaryRoot: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lens-tests-\(getpid())", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("lens-tests-\(getpid())", isDirectory: true)
            try? FileManager.default.removeItem(at: root)
        }
        return url
    }()

    /// A fresh, empty folder under ``temporaryRoot``.
    public static func makeTemporaryFolder(_ label: String = "lens-test") throws -> URL {
        let url = temporaryRoot
            .appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Share of the expected words (multiset) that appear in `actual`, as the corpus scorer counts them.
    public static func wordRecall(expected: String, actual: String) -> Double {
        let want = expected.split(whereSeparator: \.isWhitespace).map(String.init)
        var have: [String: Int] = [:]
        for w in actual.split(whereSeparator: \.isWhitespace) { have[String(w), default: 0] += 1 }
        var found = 0
        for w in want where (have[w] ?? 0) > 0 {
            have[w]! -= 1
            found += 1
        }
        return want.isEmpty ? 1 : Double(found) / Double(want.count)
    }

    /// A copy of a PNG with `tag` appended after its end marker: it decodes to the same picture
    /// but has different bytes, hence a different content hash.
    public static func distinctCopy(of png: [UInt8], tag: Int) -> [UInt8] {
        png + Array("lens-test-\(tag)".utf8)
    }

    /// A PNG whose header claims `width`x`height` but has no image data: enough for header checks.
    public static func pngHeaderOnly(width: UInt32, height: UInt32) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        let ihdr: [UInt8] = Array("IHDR".utf8) + be(width) + be(height) + [1, 0, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + ihdr + be(crc32(ihdr))
            + be(0) + Array("IEND".utf8) + be(crc32(Array("IEND".utf8)))
    }

    /// A gray PNG of random pixels: no text, and slow to recognize (Tesseract's layout analysis
    /// and word passes chew on thousands of specks). Deflate's stored blocks: no compressor needed.
    public static func noisePNG(width: Int, height: Int, seed: UInt64) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return be(UInt32(data.count)) + body + be(crc32(body))
        }
        var state = seed | 1
        var raw: [UInt8] = []
        raw.reserveCapacity((width + 1) * height)
        for _ in 0..<height {
            raw.append(0) // filter: none
            for _ in 0..<width {
                state ^= state << 13; state ^= state >> 7; state ^= state << 17
                raw.append(UInt8(truncatingIfNeeded: state))
            }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65_535, raw.count - offset)
            let isLast = offset + length == raw.count
            zlib += [isLast ? 1 : 0, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            zlib += raw[offset..<offset + length]
            offset += length
        } while offset < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
        zlib += be(b << 16 | a)
        let header = be(UInt32(width)) + be(UInt32(height)) + [8, 0, 0, 0, 0] // 8-bit gray
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", [])
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

extension TestSupport {
    private static let inotifyLimitLock = NSLock()

    /// Runs `body` (which creates an inotify instance) while no test has the queue shrunk, so
    /// the instance gets the normal queue size.
    public static func withDefaultInotifyQueue<T>(_ body: () throws -> T) rethrows -> T {
        try inotifyLimitLock.withLock(body)
    }

    /// Runs `body` (which creates inotify instances) while the kernel's per-instance queue is
    /// `events` long, then restores the setting; `nil` without root. The setting is global, so
    /// the tests that shrink it take turns: one of them must never save another's shrunk value,
    /// nor restore the default while the other's instance is being created.
    public static func withInotifyQueueLimit<T>(_ events: Int, _ body: () throws -> T) rethrows -> T? {
        let file = "/proc/sys/fs/inotify/max_queued_events"
        inotifyLimitLock.lock()
        defer { inotifyLimitLock.unlock() }
        guard getuid() == 0, let saved = try? String(contentsOfFile: file, encoding: .utf8),
              (try? "\(events)\n".write(toFile: file, atomically: false, encoding: .utf8)) != nil else { return nil }
        defer { try? saved.write(toFile: file, atomically: false, encoding: .utf8) }
        return try body()
    }
}

/// A small deterministic generator (SplitMix64): random test data that is the same on every run.
public struct SplitMix: Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// A number in 0..<bound.
    public mutating func next(upTo bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
