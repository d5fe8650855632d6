/// A secret as Lens keeps it: what kind it was and the marker that stands in its place. The value
/// itself is never kept.
public struct MaskedSecret: Sendable, Equatable, Hashable {
    public var kind: SecretKind
    public var label: String?
    public var marker: String
    /// UTF-8 offsets of the marker in the masked text; `nil` for a secret in a QR code or barcode.
    public var start: Int?, end: Int?

    public init(kind: SecretKind, label: String?, marker: String, start: Int?, end: Int?) {
        self.kind = kind
        self.label = label
        self.marker = marker
        self.start = start
        self.end = end
    }

    /// The entity Lens stores for it: type `secret`, the marker as value, the kind as normalized form.
    public var entity: Entity {
        Entity(type: .secret, value: marker, normalized: kind.rawValue, start: start ?? 0, end: end ?? 0)
    }
}

extension Recognition {
    /// This recognition with every secret in its text and in its code payloads replaced by a marker,
    /// and the secrets that were replaced.
    ///
    /// The word boxes follow the new text: a word outside any secret keeps its box; a word of a
    /// marker gets the union of the boxes of the words the secret covered (so the page can still
    /// show where the masked value was), with their lowest confidence.
    public func masked(by detector: SecretDetector) -> (recognition: Recognition, secrets: [MaskedSecret]) {
        var secrets: [MaskedSecret] = []
        var result = self
        let masked = detector.masking(text)
        if !masked.secrets.isEmpty {
            result.text = masked.text
            result.words = Self.remap(words, from: text, to: masked)
            for (secret, range) in zip(masked.secrets, masked.markerRanges) {
                secrets.append(MaskedSecret(kind: secret.kind, label: secret.label, marker: secret.marker,
                                            start: range.lowerBound, end: range.upperBound))
            }
        }
        result.codes = codes.map { code in
            let payload = detector.masking(code.payload)
            for secret in payload.secrets {
                secrets.append(MaskedSecret(kind: secret.kind, label: secret.label, marker: secret.marker, start: nil, end: nil))
            }
            return DecodedCode(symbology: code.symbology, payload: payload.text)
        }
        return (result, secrets)
    }

    /// Word boxes for the whitespace-free runs of the masked text (see ``masked(by:)``).
    static func remap(_ words: [RecognizedWord], from original: String, to masked: MaskedText) -> [RecognizedWord] {
        // Maps a masked offset to the original range it came from.
        func originalRange(of range: Range<Int>) -> Range<Int> {
            var shift = 0 // original offset − masked offset, before the current marker
            var lower: Int?, upper: Int?
            for (secret, marker) in zip(masked.secrets, masked.markerRanges) {
                if lower == nil, range.lowerBound < marker.lowerBound { lower = range.lowerBound + shift }
                if lower == nil, range.lowerBound < marker.upperBound { lower = secret.start }
                if upper == nil, range.upperBound <= marker.lowerBound { upper = range.upperBound + shift }
                if upper == nil, range.upperBound <= marker.upperBound { upper = secret.end }
                shift = secret.end - marker.upperBound
            }
            let l = lower ?? range.lowerBound + shift
            return l..<max(l, upper ?? range.upperBound + shift)
        }
        return wordRuns(in: masked.text).compactMap { run in
            let source = originalRange(of: run.offset..<(run.offset + run.length))
            let covered = words.filter { $0.textOffset < source.upperBound && source.lowerBound < $0.textOffset + $0.textLength }
            guard let first = covered.first else {
                return RecognizedWord(textOffset: run.offset, textLength: run.length, confidence: 0, x: 0, y: 0, width: 0, height: 0)
            }
            var minX = first.x, minY = first.y, maxX = first.x + first.width, maxY = first.y + first.height
            var confidence = first.confidence
            for word in covered.dropFirst() {
                minX = min(minX, word.x)
                minY = min(minY, word.y)
                maxX = max(maxX, word.x + word.width)
                maxY = max(maxY, word.y + word.height)
                confidence = min(confidence, word.confidence)
            }
            return RecognizedWord(textOffset: run.offset, textLength: run.length, confidence: confidence,
                                  x: minX, y: minY, width: maxX - minX, height: maxY - minY)
        }
    }
}
