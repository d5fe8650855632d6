import ArgumentParser
import Foundation
import LensCore
import LensStore

/// `lens import` against `tesseract` run by `xargs -P <cores>`, on the same files, in one run.
struct ImportBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Compare lens import throughput with the tesseract CLI on a corpus folder, and score both outputs.")

    @Argument(help: "A folder of screenshots (e.g. ../shared/corpus/public).")
    var corpus: String

    @Option(help: "The lens binary to measure.")
    var lens: String = Measure.siblingLens

    @Option(help: "Parallel jobs for both sides (default: the number of cores).")
    var workers: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "The corpus scorer (score.py); scores are skipped when it is missing.")
    var scorer: String?

    func run() throws {
        let folder = URL(fileURLWithPath: corpus).standardizedFileURL
        let images = try Measure.imageNames(in: folder)
        guard !images.isEmpty else { throw ValidationError("no images in \(folder.path)") }
        guard let tesseract = Measure.which("tesseract") else { throw ValidationError("the tesseract CLI is not installed (apt-get install tesseract-ocr)") }
        let work = try Measure.makeTemporaryFolder("lens-bench-import")
        defer { try? FileManager.default.removeItem(at: work) }
        // Warm the page cache so neither side pays for the first read.
        for name in images { _ = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) }

        let environment = Measure.benchEnvironment

        // Baseline: one tesseract process per image, `workers` at a time, as xargs -P does.
        let baselineOut = work.appendingPathComponent("tesseract")
        try FileManager.default.createDirectory(at: baselineOut, withIntermediateDirectories: true)
        let list = work.appendingPathComponent("list")
        try Data(images.map { folder.appendingPathComponent($0).path + "\n" }.joined().utf8).write(to: list)
        var cpu = Self.childrenCPU()
        let (_, baselineSeconds) = try Measure.time {
            try Measure.run("/usr/bin/xargs", ["-a", list.path, "-P", String(workers), "-I{}", "sh", "-c",
                                              "b=$(basename \"$1\"); \"$0\" \"$1\" \"\(baselineOut.path)/${b%.*}\" 2>/dev/null",
                                              tesseract, "{}"], environment: environment)
        }

        let baselineCPU = Self.childrenCPU() - cpu

        // Lens: a fresh database, the whole import (scan, hash, dedupe, OCR, index) as a user runs
        // it; first without reading the texts for meaning (the words are searchable then), then
        // with, into another database.
        let textOnly = work.appendingPathComponent("text-only.db").path
        cpu = Self.childrenCPU()
        let (textStatus, textSeconds) = try Measure.time {
            try Measure.run(lens, ["import", "--no-progress", "--skip-meaning", "--workers", String(workers), "--db", textOnly, folder.path],
                            environment: environment)
        }
        let textCPU = Self.childrenCPU() - cpu
        guard textStatus == 0 || textStatus == 1 else { throw ValidationError("lens import exited with \(textStatus)") }
        let db = work.appendingPathComponent("bench.db").path
        cpu = Self.childrenCPU()
        let (status, lensSeconds) = try Measure.time {
            try Measure.run(lens, ["import", "--no-progress", "--workers", String(workers), "--db", db, folder.path],
                            environment: environment)
        }
        let lensCPU = Self.childrenCPU() - cpu
        guard status == 0 || status == 1 else { throw ValidationError("lens import exited with \(status)") }
        print(String(format: "CPU (user + system): tesseract CLI %.1f s; lens import %.1f s words only (%.2f×), %.1f s with meaning (%.2f×; %.1f s wall without it)",
                     baselineCPU, textCPU, textCPU / baselineCPU, lensCPU, lensCPU / baselineCPU, textSeconds))

        let baselineRate = Double(images.count) / baselineSeconds
        let lensRate = Double(images.count) / lensSeconds
        print("images:                  \(images.count) in \(folder.path)")
        print(String(format: "tesseract CLI (xargs -P%d): %7.2f s  %5.2f images/s", workers, baselineSeconds, baselineRate))
        print(String(format: "lens import (%d workers):   %7.2f s  %5.2f images/s", workers, lensSeconds, lensRate))
        print(String(format: "ratio lens / tesseract:   %5.2f  (goal >= 1.0)", lensRate / baselineRate))

        // The same texts in the scorer's layout: one STEM.txt per image.
        let lensOut = work.appendingPathComponent("lens")
        try FileManager.default.createDirectory(at: lensOut, withIntermediateDirectories: true)
        let store = try LensDatabase(path: db)
        let stats = try store.unsafeBulkWrite { db in
            try Row.fetchAll(db, sql: "SELECT count(*) AS n, sum(ocr_seconds) AS s FROM screenshot WHERE state = 'done'")
        }
        if let row = stats.first, let n: Int = row["n"], n > 0, let s: Double = row["s"] {
            print(String(format: "lens OCR time per image: %.3f s over %d unique images (byte-identical copies are not recognized again)", s / Double(n), n))
        }
        for name in images {
            let path = folder.appendingPathComponent(name).path
            guard let id = try store.screenshotID(forPath: path), let text = try store.screenshot(id: id)?.text else { continue }
            try Data(text.utf8).write(to: lensOut.appendingPathComponent((name as NSString).deletingPathExtension + ".txt"))
        }
        let scorerPath = scorer ?? folder.deletingLastPathComponent().appendingPathComponent("score.py").path
        if FileManager.default.fileExists(atPath: scorerPath), let python = Measure.which("python3") {
            for (label, out) in [("tesseract CLI", baselineOut), ("lens", lensOut)] {
                let pipe = Pipe()
                try Measure.run(python, [scorerPath, folder.path, out.path], stdout: pipe.fileHandleForWriting)
                try pipe.fileHandleForWriting.close()
                let report = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                let lines = report.split(separator: "\n")
                if let header = lines.first(where: { $0.hasPrefix("group") }), let overall = lines.first(where: { $0.hasPrefix("overall") }) {
                    print("score, \(label):")
                    print("  " + header)
                    print("  " + overall)
                }
            }
        }
    }

    /// CPU seconds (user + system) of the children waited for so far, grandchildren included.
    static func childrenCPU() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}

import GRDB
