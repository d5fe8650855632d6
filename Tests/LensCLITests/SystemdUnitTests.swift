import Foundation
import LensTestSupport
import Testing

/// The user unit is checked the way systemd itself would: there is no running systemd in CI.
struct SystemdUnitTests {
    static let unit = TestSupport.packageRoot.appendingPathComponent("systemd/lens.service")

    func systemdAnalyze(_ args: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
        process.arguments = args
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func theUnitVerifies() throws {
        // verify also checks that ExecStart exists: point it at the binary this build made.
        let folder = try TestSupport.makeTemporaryFolder("lens-unit")
        let copy = folder.appendingPathComponent("lens.service")
        let text = try String(contentsOf: Self.unit, encoding: .utf8)
        #expect(text.contains("ExecStart=%h/.local/bin/lens watch"))
        try text.replacingOccurrences(of: "%h/.local/bin/lens", with: LensBinary.url.path).write(to: copy, atomically: true, encoding: .utf8)
        let result = try systemdAnalyze(["verify", copy.path])
        #expect(result.status == 0 && result.output.isEmpty, "\(result.output)")
    }

    @Test func theExposureScoreIsAtMostTwo() throws {
        let result = try systemdAnalyze(["security", "--offline=true", "--threshold=20", Self.unit.path])
        #expect(result.status == 0, "\(result.output)")
        let line = result.output.split(separator: "\n").last { $0.contains("Overall exposure level") } ?? ""
        let score = line.split(separator: " ").compactMap { Double($0) }.first
        #expect((score ?? 99) <= 2.0, "\(line)")
    }

    static let webUnit = TestSupport.packageRoot.appendingPathComponent("systemd/lens-web.service")

    @Test func theWebUnitVerifiesAndKeepsToLoopback() throws {
        let folder = try TestSupport.makeTemporaryFolder("lens-unit")
        let copy = folder.appendingPathComponent("lens-web.service")
        let text = try String(contentsOf: Self.webUnit, encoding: .utf8)
        #expect(text.contains("ExecStart=%h/.local/bin/lens serve\n"))
        for line in ["IPAddressAllow=localhost", "IPAddressDeny=any", "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6",
                     "ProtectHome=read-only", "ReadWritePaths=%h/.local/share/lens", "CacheDirectory=lens"] {
            #expect(text.contains("\n" + line + "\n"), "missing \(line)")
        }
        try text.replacingOccurrences(of: "%h/.local/bin/lens", with: LensBinary.url.path).write(to: copy, atomically: true, encoding: .utf8)
        let verified = try systemdAnalyze(["verify", copy.path])
        #expect(verified.status == 0 && verified.output.isEmpty, "\(verified.output)")
        let security = try systemdAnalyze(["security", "--offline=true", "--threshold=20", Self.webUnit.path])
        let line = security.output.split(separator: "\n").last { $0.contains("Overall exposure level") } ?? ""
        #expect((line.split(separator: " ").compactMap { Double($0) }.first ?? 99) <= 2.0, "\(line)")
    }

    @Test func theUnitHasWhatTheDaemonNeeds() throws {
        let text = try String(contentsOf: Self.unit, encoding: .utf8)
        for line in ["Type=notify", "Environment=OMP_THREAD_LIMIT=1", "Restart=on-failure", "IOSchedulingClass=idle",
                     "NoNewPrivileges=yes", "ProtectSystem=strict", "ProtectHome=read-only",
                     "ReadWritePaths=%h/.local/share/lens", "PrivateTmp=yes", "RestrictAddressFamilies=AF_UNIX",
                     "ExecReload=/bin/kill -HUP $MAINPID", "WantedBy=default.target"] {
            #expect(text.contains("\n" + line + "\n"), "missing \(line)")
        }
    }
}
