@testable import LensCore
import Testing

/// gitleaks' rules, read from the data file and run as gitleaks runs them.
struct GitleaksRulesTests {
    @Test func everyRuleCompilesWithICU() {
        let rules = GitleaksRules.shared
        #expect(rules.unreadable.isEmpty, "ICU refused: \(rules.unreadable)")
        #expect(rules.rules.count > 200)
        // Every rule's id fits the marker the page and the store recognize as one.
        for rule in rules.rules {
            let marker = SecretDetector.marker(.apiKey, label: rule.id, value: "x")
            #expect(SecretDetector.markerPattern.matches(in: marker).first?.text == marker, "\(rule.id)")
        }
    }

    /// The stopword search by first three bytes finds what a search for each word finds.
    @Test func stopwordsAreFoundAsByEachWord() throws {
        let list = try #require(GitleaksRules.shared.rules.flatMap(\.allowlists).first { $0.stopwords.count > 1_000 })
        var state: UInt64 = 11
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
        var held = 0
        for index in 0..<3_000 {
            var value = String((0..<(8 + index % 40)).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return letters[Int(state >> 33) % letters.count]
            })
            // A third of the values hold a stopword, in any case, anywhere.
            if index % 3 == 0 {
                let word = list.stopwords[index % list.stopwords.count]
                let at = value.index(value.startIndex, offsetBy: index % value.count)
                value.insert(contentsOf: index % 2 == 0 ? word.uppercased() : word, at: at)
            }
            let expected = list.stopwords.contains { value.lowercased().contains($0) }
            #expect(list.holdsStopword(value) == expected, "\(value)")
            if expected { held += 1 }
        }
        #expect(held >= 1_000)
    }

    /// Keys of providers Lens has no shape of its own for (random values in each documented shape).
    @Test(arguments: [
        ("export DATABRICKS_HOST=x\ntoken dapi3a37dfe702393e0fa6c8bbc2a299e490 ok", "dapi3a37dfe702393e0fa6c8bbc2a299e490"),
        ("LINEAR lin_api_2TxxDBfz5LJF3hBGZW3M4Fz6Hq2AK7EGHZbKoXi0", "lin_api_2TxxDBfz5LJF3hBGZW3M4Fz6Hq2AK7EGHZbKoXi0"),
        ("Postman key: PMAK-13df4f73ef8c9fcd698014ef-b68fefd19ae3e8e5df28fb36d4e020e267", "PMAK-13df4f73ef8c9fcd698014ef-b68fefd19ae3e8e5df28fb36d4e020e267"),
        ("# created: 2026-11-25\nAGE-SECRET-KEY-18Z3KFQ5LGW7GJ962GN6CFVCQXCYRKKPP75NU58LA2FDM4AWYEZVTZRUV7P",
         "AGE-SECRET-KEY-18Z3KFQ5LGW7GJ962GN6CFVCQXCYRKKPP75NU58LA2FDM4AWYEZVTZRUV7P"),
        ("Grafana: glsa_iPHnY4H59ikQ2lyrBIA3fytlwlqDFX0A_9e5afe38 (viewer)", "glsa_iPHnY4H59ikQ2lyrBIA3fytlwlqDFX0A_9e5afe38"),
        ("PREFECT_API_KEY pnu_0g2noa9f4DPvAIY122Ql9bw2kwJRKYInhNTr", "pnu_0g2noa9f4DPvAIY122Ql9bw2kwJRKYInhNTr"),
        ("pulumi login\npul-6984383d531b53a829a58820d8d01370933bae1c", "pul-6984383d531b53a829a58820d8d01370933bae1c"),
        ("doppler: dp.pt.un31hx6qyswd1bsvsht0ub8vm9dhkhhci7wtb1iw0yy", "dp.pt.un31hx6qyswd1bsvsht0ub8vm9dhkhhci7wtb1iw0yy"),
    ])
    func providerKeysAreMasked(text: String, value: String) {
        let masked = SecretDetector().masking(text)
        #expect(!masked.text.contains(value.suffix(12)), "\(masked.text)")
        #expect(masked.secrets.contains { $0.kind == .apiKey })
    }

    @Test func theRulesOwnChecksHold() {
        // Entropy floor: a value too regular for its rule is no key.
        #expect(SecretScan(text: "pul-0000000000000000000000000000000000000000").gitleaksKeys().isEmpty)
        // A rule's allowlist: AWS's documentation key ends in EXAMPLE.
        #expect(SecretScan(text: "aws_access_key_id = AKIAIOSFODNN7EXAMPLE").gitleaksKeys().allSatisfy { $0.label != "aws-access-token" })
        // A placeholder is no key, whatever the rule: `curl --user USERNAME:PASSWORD`.
        #expect(SecretScan(text: "curl --user USERNAME:PASSWORD https://example.org").gitleaksKeys().isEmpty)
        // Go's named groups are read by ICU as plain groups.
        #expect(GitleaksRules.icuPattern("a(?P<alg>b)|(?P<key_ops>c)") == "a(?:b)|(?:c)")
        // Go's literal braces and brackets, escaped for ICU; repetitions and POSIX classes kept.
        #expect(GitleaksRules.icuPattern(#"\$?{{[^}]+}}:[^]]+][a-z]{2,5}[[:alnum:][]"#) == #"\$?\{\{[^}]+\}\}:[^\]]+][a-z]{2,5}[[:alnum:]\[]"#)
        // An allowlist that needed those: template variables in `curl -u` are not credentials.
        #expect(SecretScan(text: #"curl --user "{{ $.Values.username }}:{{ $.Values.password }}""#).gitleaksKeys().isEmpty)
        #expect(SecretScan(text: #"curl --user "key:secret" https://example.com"#).gitleaksKeys().isEmpty)
        // No keyword, no rule tried: the same shape without its prefix.
        #expect(SecretScan(text: "6984383d531b53a829a58820d8d01370933bae1c").gitleaksKeys().isEmpty)
        // The secret is the rule's group, not the whole match: the label stays readable.
        let found = SecretScan(text: "Postman key: PMAK-13df4f73ef8c9fcd698014ef-b68fefd19ae3e8e5df28fb36d4e020e267\n").gitleaksKeys()
        let postman = found.filter { $0.label == "postman-api-token" }
        #expect(postman.count == 1)
        #expect(postman.first?.start == "Postman key: ".utf8.count)
    }

    @Test func keywordsAreFoundAnywhereOnce() {
        let rules = GitleaksRules.shared
        let text = Array("x PMAK- and pmak- then PUL-".utf8).map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        let ids = rules.rules(triggeredBy: text).map { rules.rules[$0].id }
        #expect(ids.contains("postman-api-token"))
        #expect(ids.contains("pulumi-api-token"))
        #expect(Set(ids).count == ids.count)
        #expect(rules.rules(triggeredBy: Array("p".utf8)).isEmpty)
    }
}
