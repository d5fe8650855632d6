/// One word as Tesseract read it: where it sits in the recognized text and on the image.
public struct RecognizedWord: Sendable, Equatable {
    /// UTF-8 byte offset of the word in ``Recognition/text``.
    public var textOffset: Int
    /// UTF-8 byte length of the word in ``Recognition/text``.
    public var textLength: Int
    /// Tesseract's confidence, 0...100.
    public var confidence: Float
    /// Bounding box in image pixels.
    public var x: Int, y: Int, width: Int, height: Int

    public init(textOffset: Int, textLength: Int, confidence: Float, x: Int, y: Int, width: Int, height: Int) {
        self.textOffset = textOffset
        self.textLength = textLength
        self.confidence = confidence
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// The result of recognizing one image.
public struct Recognition: Sendable, Equatable {
    /// The text in reading order: words separated by spaces, lines by `\n`, blocks by a blank line.
    public var text: String
    public var words: [RecognizedWord]
    /// Pixel size of the decoded image.
    public var width: Int, height: Int

    public init(text: String, words: [RecognizedWord], width: Int, height: Int) {
        self.text = text
        self.words = words
        self.width = width
        self.height = height
    }

    /// The mean of the word confidences (0...100), or `nil` when no word was read.
    public var meanConfidence: Double? {
        guard !words.isEmpty else { return nil }
        return words.reduce(0.0) { $0 + Double($1.confidence) } / Double(words.count)
    }
}

extension Recognition {
    /// Word boxes in a compact binary form (15 bytes a word, little-endian), so a
    /// screenshot's boxes cost about as much as its text rather than a row per word.
    ///
    /// Layout per word: offset u32, length u16, x u16, y u16, width u16, height u16, confidence u8.
    public static func encode(_ words: [RecognizedWord]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(words.count * 15)
        func put(_ value: Int, bytes: Int) {
            let clamped = UInt64(max(0, min(value, (1 << (bytes * 8)) - 1)))
            for i in 0..<bytes { out.append(UInt8(truncatingIfNeeded: clamped >> (8 * UInt64(i)))) }
        }
        for w in words {
            put(w.textOffset, bytes: 4)
            put(w.textLength, bytes: 2)
            put(w.x, bytes: 2)
            put(w.y, bytes: 2)
            put(w.width, bytes: 2)
            put(w.height, bytes: 2)
            put(Int(w.confidence.rounded()), bytes: 1)
        }
        return out
    }

    /// Decodes ``encode(_:)``'s output; trailing bytes that do not fill a word are ignored.
    public static func decodeWords(_ bytes: [UInt8]) -> [RecognizedWord] {
        var words: [RecognizedWord] = []
        var i = 0
        func take(_ n: Int) -> Int {
            var v = 0
            for k in 0..<n { v |= Int(bytes[i + k]) << (8 * k) }
            i += n
            return v
        }
        while i + 15 <= bytes.count {
            let offset = take(4), length = take(2), x = take(2), y = take(2), w = take(2), h = take(2)
            let confidence = Float(take(1))
            words.append(RecognizedWord(textOffset: offset, textLength: length, confidence: confidence,
                                        x: x, y: y, width: w, height: h))
        }
        return words
    }
}
