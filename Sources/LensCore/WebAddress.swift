/// A web address given whole, e.g. a QR code's payload, with its normalized form.
///
/// Normalization follows the entity rules: scheme and host lower-cased, `https://` added to a
/// `www.` address without a scheme, path, query and fragment kept as written.
/// Finding addresses inside running text is the entity extractor's job; this only judges a whole string.
public struct WebAddress: Sendable, Equatable {
    public var normalized: String

    /// `allowingLocalHost`: `http://localhost`, `http://nas:5000` and `http://intranet/` (one
    /// label, after a scheme, with a port, or with http and a path) are addresses in a developer's text; in a code's payload they point nowhere the
    /// user can go, so a payload must name a host with a dot.
    public init?(_ candidate: String, allowingLocalHost: Bool = false) {
        let trimmed = candidate.trimmingWhitespace
        guard !trimmed.isEmpty, !trimmed.contains(where: { $0.isWhitespace }) else { return nil }
        let lower = trimmed.lowercased()
        var scheme: String
        var rest: Substring
        if lower.hasPrefix("https://") || lower.hasPrefix("http://") {
            let schemeEnd = trimmed.range(of: "://")!
            scheme = String(trimmed[..<schemeEnd.lowerBound]).lowercased()
            rest = trimmed[schemeEnd.upperBound...]
        } else if lower.hasPrefix("www.") {
            scheme = "https"
            rest = Substring(trimmed)
        } else {
            return nil
        }
        let hostEnd = rest.firstIndex(where: { "/?#".contains($0) }) ?? rest.endIndex
        let authority = rest[..<hostEnd]
        // user-info is dropped from the host test but kept in the address as written
        let host = authority.split(separator: "@", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        let hostParts = host.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let hostName = String(hostParts[0])
        // RFC 1123 labels: letters, digits and inner hyphens; a port is a number up to 65535.
        let labels = hostName.split(separator: ".", omittingEmptySubsequences: false)
        // A one-label host other than `localhost` needs a port, or plain http and a path:
        // `https://riverstone` and `https://quillfeatherio/changelog` are addresses OCR broke at
        // their dot, since no public certificate names a one-label host.
        let local = allowingLocalHost && !hostName.isEmpty
            && (hostName.lowercased() == "localhost" || hostParts.count == 2 || (scheme == "http" && hostEnd < rest.endIndex))
        guard labels.count > 1 || local,
              labels.allSatisfy({ !$0.isEmpty && !$0.hasPrefix("-") && !$0.hasSuffix("-") }),
              hostName.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." }) else { return nil }
        if hostParts.count == 2 {
            guard let port = Int(hostParts[1]), (1...65_535).contains(port), hostParts[1].allSatisfy(\.isASCII) else { return nil }
        }
        normalized = scheme + "://" + authority.lowercased() + rest[hostEnd...]
    }
}

extension String {
    var trimmingWhitespace: String {
        String(self.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
