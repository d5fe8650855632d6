import LensCore

/// What Lens does with the secrets of one screenshot before anything of it is stored: masks the
/// configured kinds, and keeps no text at all when one of `skipImagesWith` is on it.
public struct PrivacyFilter: Sendable {
    public var detector: SecretDetector
    public var skipImagesWith: Set<SecretKind>

    public init(mask: Set<SecretKind> = Set(SecretKind.allCases), skipImagesWith: Set<SecretKind> = []) {
        detector = SecretDetector(kinds: mask.union(skipImagesWith))
        self.skipImagesWith = skipImagesWith
    }

    /// The recognition as it may be stored, and the secrets masked in it.
    public func filter(_ recognition: Recognition) -> (Recognition, [MaskedSecret]) {
        let (masked, secrets) = recognition.masked(by: detector)
        guard secrets.contains(where: { skipImagesWith.contains($0.kind) }) else { return (masked, secrets) }
        // Recorded without any text: only what was there, by kind, stays (for `--type secret`).
        let kept = Recognition(text: "", words: [], width: recognition.width, height: recognition.height)
        let kinds = Set(secrets.map(\.kind)).sorted()
        return (kept, kinds.map { MaskedSecret(kind: $0, label: "text not kept", marker: "[\($0.rawValue): text not kept]", start: nil, end: nil) })
    }

    /// The filter for each file: its folder's `mask`, or `[privacy] mask`.
    static func make(_ privacy: LensConfiguration.Privacy, folders: WatchedFolders) -> @Sendable (String) -> PrivacyFilter {
        let standard = PrivacyFilter(mask: privacy.mask, skipImagesWith: privacy.skipImagesWith)
        return { path in
            guard let mask = folders.folder(holding: path)?.mask else { return standard }
            return PrivacyFilter(mask: mask, skipImagesWith: privacy.skipImagesWith)
        }
    }
}
