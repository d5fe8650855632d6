/// The Public Suffix List (publicsuffix.org; Debian's `publicsuffix` package installs it), to
/// tell a real domain (`example.org`, `lumen-optics.de`) from a file name (`settings.toml`).
///
/// Parsed here from the list's text, so LensCore reads no files; LensApp loads the file.
/// Hand-written because no library here reads the list, and the rules are three lines of it:
/// plain suffixes, `*.` wildcards and `!` exceptions.
public struct PublicSuffixList: Sendable {
    private var rules: Set<String> = []
    private var wildcards: Set<String> = []
    private var exceptions: Set<String> = []

    /// Parses the list's text: one rule a line, `//` comments and blank lines skipped.
    public init(parsing text: String) {
        for line in text.split(whereSeparator: \.isNewline) {
            guard let rule = line.split(whereSeparator: \.isWhitespace).first, !rule.hasPrefix("//") else { continue }
            let lowered = rule.lowercased()
            if lowered.hasPrefix("!") {
                exceptions.insert(String(lowered.dropFirst()))
            } else if lowered.hasPrefix("*.") {
                wildcards.insert(String(lowered.dropFirst(2)))
            } else {
                rules.insert(lowered)
            }
        }
    }

    public var isEmpty: Bool { rules.isEmpty && wildcards.isEmpty }

    /// How many labels of `host` form its public suffix (`co.uk` in `shop.example.co.uk`: 2),
    /// or `nil` when its last label is no known suffix.
    public func suffixLabelCount(of host: String) -> Int? {
        let labels = host.lowercased().split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard labels.count >= 1, !labels.contains(where: \.isEmpty) else { return nil }
        for start in 0..<labels.count { // longest candidate first
            let candidate = labels[start...].joined(separator: ".")
            if exceptions.contains(candidate) { return labels.count - start - 1 }
            if rules.contains(candidate) { return labels.count - start }
            if start + 1 < labels.count, wildcards.contains(labels[(start + 1)...].joined(separator: ".")) {
                return labels.count - start
            }
        }
        return nil
    }

    /// Whether `host` is a name someone can register under a public suffix (`example.org`), not
    /// a bare suffix (`co.uk`) and not a name under an unknown one (`settings.toml`).
    public func isRegistrable(_ host: String) -> Bool {
        guard let suffix = suffixLabelCount(of: host) else { return false }
        return host.split(separator: ".").count > suffix
    }
}
