import Foundation
import LensTestSupport
import Testing

/// The privacy commands as a user runs them: `extract` shows secrets masked, `reindex --privacy`
/// masks again with another `[privacy] mask`, `doctor` says when texts were never checked, and the
/// demo's 2FA secret cannot be found.
struct PrivacyCLITests {
    @Test func extractReportsSecretsMaskedAndNoOtherEntityHoldsThem() throws {
        let lens = try LensBinary()
        let input = lens.home.appendingPathComponent("secret.txt")
        // The card number would otherwise also read as a phone number; the code is no date.
        try "Card 4242 4242 4242 4242, call (415) 555-0132. Your code is 482913".write(to: input, atomically: true, encoding: .utf8)
        let result = try lens.runProgram(LensBinary.url.path, ["extract", "--json"], stdin: input)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n") == [
            #"{"end":24,"kind":"card","normalized":"card","start":5,"type":"secret","value":"[card ••••4242]"}"#,
            #"{"end":45,"normalized":"+14155550132","start":31,"type":"phone","value":"(415) 555-0132"}"#,
            #"{"end":66,"kind":"otp","normalized":"otp","start":60,"type":"secret","value":"[one-time code]"}"#,
        ])
    }

    @Test func theDemosTwoFactorSecretIsMaskedAndReindexFollowsTheConfiguration() throws {
        let lens = try LensBinary()
        #expect(try lens.importSamples().status == 0)
        #expect(try lens.run(["search", "JBSWY3DPEHPK3PXP"]).stdout.contains("No matches"))
        let listed = try lens.run(["search", "--type", "secret", "--json"])
        let hits = try #require(try listed.json() as? [[String: Any]])
        #expect(hits.compactMap { $0["path"] as? String }.map { URL(fileURLWithPath: $0).lastPathComponent } == ["qr_dark_2fa.png"])
        let show = try lens.run(["show", "\(hits[0]["id"] as? Int ?? 0)"])
        #expect(show.stdout.contains("masked:      api_key in a code, shown as [api key: 2FA secret]"), "\(show.stdout)")
        #expect(try lens.run(["doctor"]).stdout.contains("secret masking:   ok"))

        // With API keys no longer masked, reindex --privacy has nothing to mask in the payload
        // (the secret is gone for good: masking is not reversible), and finds nothing new.
        let config = lens.home.appendingPathComponent("config.toml")
        try "[privacy]\nmask = [\"card\"]\n".write(to: config, atomically: true, encoding: .utf8)
        let reindex = try lens.run(["reindex", "--privacy", "--config", config.path])
        #expect(reindex.status == 0, "\(reindex.stderr)")
        #expect(reindex.stdout.hasPrefix("\(TestSupport.samplePNGCount) texts checked, 0 with secrets masked"), "\(reindex.stdout)")
        try "[privacy]\nmask = [\"cards\"]\n".write(to: config, atomically: true, encoding: .utf8)
        let bad = try lens.run(["reindex", "--privacy", "--config", config.path])
        #expect(bad.status != 0 && bad.stderr.contains("privacy.mask") && bad.stderr.contains("'cards' is not a kind of secret"), "\(bad.stderr)")
    }

    /// What a user types is guarded as what OCR reads: a note keeps its words and loses its
    /// password; a tag that is a token is refused, and the refusal does not repeat it.
    @Test(arguments: StoreKind.allCases)
    func notesAndTagsKeepNoSecret(_ kind: StoreKind) throws {
        let lens = try LensBinary(kind)
        #expect(try lens.importSamples().status == 0)
        let note = try lens.run(["note", "1", "router admin, password: Hx7!pq92Lz"])
        #expect(note.status == 0 && note.stdout.contains("It held a secret (password), stored masked"), "\(note.stdout)")
        #expect(try lens.run(["show", "1"]).stdout.contains("router admin, password: [password]"))
        #expect(try lens.run(["search", "router"]).stdout.contains("[password]"))
        let token = "ghp_Zq8RkW2mT5xVb7NcLp4HsJd9FgYa3Ue6Qi0O"
        let tag = try lens.run(["tag", "1", token])
        #expect(tag.status != 0 && tag.stderr.contains("holds a secret (api_key)") && !tag.stderr.contains(token), "\(tag.stderr)")
        let export = lens.home.appendingPathComponent("all.jsonl")
        #expect(try lens.run(["export", "--output", export.path]).status == 0)
        let exported = try String(contentsOf: export, encoding: .utf8)
        #expect(!exported.contains("Hx7!pq92Lz") && !exported.contains(token))
    }
}
