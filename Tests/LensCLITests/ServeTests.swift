import Foundation
import LensTestSupport
import Testing

/// `lens serve` and `lens open` as a user runs them (the page itself: Tests/browser).
@Suite struct ServeTests {
    @Test func aNonLoopbackAddressNeedsAToken() throws {
        let lens = try LensBinary()
        #expect(try lens.importSamples().status == 0)
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
        #expect(try lens.importSamples().status == 0)
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

    /// A server on 0.0.0.0 with a token, reached by a real remote client: a second network
    /// namespace joined to this one by a veth pair, which names the server by its address.
    @Test(.enabled(if: getuid() == 0, "network namespaces need root"))
    func aTokenServerServesARemoteClientByAddress() throws {
        let lens = try LensBinary()
        #expect(try lens.importSamples().status == 0)
        let token = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
        let config = lens.home.appendingPathComponent("config.toml")
        try "[web]\ntoken = \"\(token)\"\n".write(to: config, atomically: true, encoding: .utf8)
        let serverAddress = "169.254.77.1", clientAddress = "169.254.77.2"
        let client = try RemoteHost("remote", lens: lens, localAddress: serverAddress, remoteAddress: clientAddress)
        defer { client.remove() }
        let namespace = client.namespace
        let server = Process()
        server.executableURL = LensBinary.url
        server.arguments = ["serve", "--listen", "0.0.0.0:0", "--db", lens.database, "--config", config.path]
        server.environment = ["HOME": lens.home.path, "XDG_CACHE_HOME": lens.home.path + "/cache"]
        let output = Pipe()
        server.standardOutput = output
        try server.run()
        defer { kill(server.processIdentifier, SIGTERM); server.waitUntilExit() }
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        let port = try #require(line.range(of: #":(\d+)/"#, options: .regularExpression).map { String(line[$0].dropFirst().dropLast()) })
        let url = "http://\(serverAddress):\(port)/api/search?q=cafe"
        func remote(_ headers: [String]) throws -> LensBinary.Result {
            try lens.runProgram("/usr/sbin/ip", ["netns", "exec", namespace, "curl", "-s", "--max-time", "20", "-w", "\n%{http_code}"]
                                + headers.flatMap { ["-H", $0] } + [url])
        }
        let served = try remote(["Authorization: Bearer \(token)"])
        #expect(served.stdout.hasSuffix("\n200"), "\(served.stdout) \(served.stderr)")
        #expect(served.stdout.contains("receipt_light.png"))
        let refused = try remote([])
        #expect(refused.stdout.hasSuffix("\n401"), "\(refused.stdout)")
        let wrong = try remote(["Authorization: Bearer nope"])
        #expect(wrong.stdout.hasSuffix("\n401"), "\(wrong.stdout)")
    }
}
