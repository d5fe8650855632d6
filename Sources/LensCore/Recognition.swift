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

/// A QR code or barcode found on an image.
public struct DecodedCode: Sendable, Equatable, Hashable, Codable {
    /// zbar's name of the symbology, e.g. `QR-Code`, `EAN-13`, `CODE-128`.
    public var symbology: String
    /// The decoded data, as text.
    public var payload: String

    public init(symbology: String, payload: String) {
        self.symbology = symbology
        self.payload = payload
    }
}

/// The result of recognizing one image.
public struct Recognition: Sendable, Equatable {
    /// The text in reading order: words separated by spaces, lines by `\n`, blocks by a blank line.
    public var text: String
    public var words: [RecognizedWord]
    /// Pixel size of the decoded image.
    public var width: Int, height: Int
    /// QR codes and barcodes, in the order zbar found them.
    public var codes: [DecodedCode]

    public init(text: String, words: [RecognizedWord], width: Int, height: Int, codes: [DecodedCode] = []) {
        self.text = text
        self.words = words
        self.width = width
        self.height = height
        self.codes = codes
    }

    /// The text with every word read with a confidence under `threshold` wrapped in `open` and `close`.
    public static func marking(_ text: String, words: [RecognizedWord], below threshold: Float,
                               open: String, close: String) -> String {
        let utf8 = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        var position = 0
        for word in words where word.confidence < threshold {
            let start = word.textOffset, end = word.textOffset + word.textLength
            guard start >= position, end <= utf8.count else { continue }
            out += utf8[position..<start]
            out += Array(open.utf8) + utf8[start..<end] + Array(close.utf8)
            position = end
        }
        out += utf8[position...]
        return String(decoding: out, as: UTF8.self)
    }

    /// The mean of the word confidences (0...100), or `nil` when no word was read.
    public var meanConfidence: Double? {
        guard !words.isEmpty else { return nil }
        return words.reduce(0.0) { $0 + Double($1.confidence) } / Double(words.count)
    }
}

extension Recognition {
    /// Word confidences and boxes in a compact binary form, about 5 bytes a word.
    ///
    /// Hand-written because no library here does it and a row per word would cost several times
    /// the text. Word offsets are not stored: the words are the text's whitespace-free runs, in
    /// order, so ``decodeWords(_:text:)`` recovers them. Each word is stored as LEB128 varints
    /// (zig-zag for signed deltas): x relative to the previous word's right edge, y relative to the
    /// previous word's top, width, height, then confidence as one byte.
    public static func encode(_ words: [RecognizedWord]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(words.count * 6)
        func varint(_ value: UInt64) {
            var v = value
            while v >= 0x80 {
                out.append(UInt8(v & 0x7F) | 0x80)
                v >>= 7
            }
            out.append(UInt8(v))
        }
        func signed(_ value: Int) { varint(UInt64(bitPattern: Int64((value << 1) ^ (value >> 63)))) }
        var previousRight = 0, previousTop = 0
        for w in words {
            signed(w.x - previousRight)
            signed(w.y - previousTop)
            varint(UInt64(max(0, w.width)))
            varint(UInt64(max(0, w.height)))
            out.append(UInt8(max(0, min(100, Int(w.confidence.rounded())))))
            previousRight = w.x + w.width
            previousTop = w.y
        }
        return out
    }

    /// Decodes ``encode(_:)``'s output against the text it was recognized with.
    /// Stops early, keeping what decoded, if the bytes or the text run out.
    public static func decodeWords(_ bytes: [UInt8], text: String) -> [RecognizedWord] {
        var words: [RecognizedWord] = []
        var i = 0
        func varint() -> UInt64? {
            var value: UInt64 = 0, shift: UInt64 = 0
            while i < bytes.count, shift < 64 {
                let b = bytes[i]
                i += 1
                value |= UInt64(b & 0x7F) << shift
                if b < 0x80 { return value }
                shift += 7
            }
            return nil
        }
        func signed() -> Int? {
            varint().map { Int(Int64(bitPattern: ($0 >> 1) ^ (0 &- ($0 & 1)))) }
        }
        let runs = wordRuns(in: text)
        var previousRight = 0, previousTop = 0
        for run in runs {
            guard let dx = signed(), let dy = signed(), let w = varint(), let h = varint(), i < bytes.count else { break }
            let confidence = Float(bytes[i])
            i += 1
            // Wrapping and clamping arithmetic: the bytes may come from a backup file (lens
            // restore), and hostile varints must give odd boxes, never a trap.
            let x = previousRight &+ dx, y = previousTop &+ dy
            let width = Int(clamping: w), height = Int(clamping: h)
            words.append(RecognizedWord(textOffset: run.offset, textLength: run.length, confidence: confidence,
                                        x: x, y: y, width: width, height: height))
            previousRight = x &+ width
            previousTop = y
        }
        return words
    }

    /// UTF-8 offset and length of each whitespace-free run of `text`.
    static func wordRuns(in text: String) -> [(offset: Int, length: Int)] {
        var runs: [(Int, Int)] = []
        var start: Int?
        var offset = 0
        for byte in text.utf8 {
            let isSpace = byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
            if isSpace, let s = start {
                runs.append((s, offset - s))
                start = nil
            } else if !isSpace, start == nil {
                start = offset
            }
            offset += 1
        }
        if let s = start { runs.append((s, offset - s)) }
        return runs
    }
}
