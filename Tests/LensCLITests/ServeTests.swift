import Foundation
import LensTestSupport
import Testing

/// `lens serve` and `lens open` as a user runs them (the page itself: Tests/browser).
@Suite struct ServeTests {
    @Test func aNonLoopbackAddressNeedsAToken() throws {
        let lens = try LensBinary()
        let refused = try lens.run(["serve", "--listen", "0.0.0.0:0"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("reachable from other machines") && refused.stderr.contains("token"))

        let config = lens.home.appendingPathComponent("config.toml")
        try "[web]\nlisten = \"0.0.0.0:7466\"\n".write(to: config, atomically: true, encoding: .utf8)
        let badConfig = try lens.run(["serve", "--config", config.path])
        #expect(badConfig.status == 2)
        #expect(badConfig.stderr.contains("config.toml:2: web.listen"))
    }

    @Test func serveAnswersAndStopsOnSIGTERM() throws {
        let lens = try LensBinary()
        let process = Process()
        process.executableURL = LensBinary.url
        process.arguments = ["serve", "--listen", "127.0.0.1:0", "--db", lens.database]
        process.environment = ["HOME": lens.home.path, "XDG_CACHE_HOME": lens.home.path + "/cache"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        let url = try #require(line.range(of: #"http://127\.0\.0\.1:\d+/"#, options: .regularExpression).map { String(line[$0]) })
        let page = try lens.runProgram("/usr/bin/env", ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", url])
        #expect(page.stdout == "200")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test func openPrintsTheAddressWithTheQuery() throws {
        let lens = try LensBinary()
        let result = try lens.runProgram(LensBinary.url.path, ["open", "--print-only", "--listen", "127.0.0.1:7500", "café & co"])
        #expect(result.status == 0)
        #expect(result.stdout == "http://127.0.0.1:7500/?q=caf%C3%A9%20%26%20co\n")
        let nobody = try lens.runProgram(LensBinary.url.path, ["open", "--listen", "127.0.0.1:1"])
        #expect(nobody.status == 2 && nobody.stderr.contains("nothing listens on 127.0.0.1:1"))
    }
}
