import Foundation
import LensCore

/// Dates in an archive: seconds since 1970 inside the database (undo's archives), ISO 8601 text
/// with microseconds in `lens export` (every other output of Lens writes dates so; a person or a
/// spreadsheet reads `2024-03-05T14:02:11.250000Z`, not `1709647331.25`). Reading takes either.
extension ArchivedScreenshot {
    /// Set to `true` in an encoder's `userInfo` to write dates as ISO 8601 text.
    public static let datesAsText = CodingUserInfoKey(rawValue: "lens.datesAsText")!

    /// One value-type style for every date of an export (a formatter object made per date was
    /// five allocations of a heavyweight class per record).
    static let iso8601 = Date.ISO8601FormatStyle()

    /// `seconds` as `YYYY-MM-DDTHH:MM:SS.ffffffZ` (UTC, microseconds: what a Double of a date
    /// this century holds, so text → seconds → text gives the same text).
    public static func isoText(_ seconds: Double) -> String {
        let micros = (seconds * 1_000_000).rounded()
        let whole = (micros / 1_000_000).rounded(.down)
        let fraction = Int(micros - whole * 1_000_000)
        let base = iso8601.format(Date(timeIntervalSince1970: whole)) // ends in Z
        return String(base.dropLast()) + "." + String(format: "%06d", fraction) + "Z"
    }

    /// The seconds of an ISO 8601 date written by ``isoText(_:)`` (or without a fraction, or
    /// with an offset), or `nil`.
    public static func seconds(fromISOText text: String) -> Double? {
        var text = Substring(text)
        var fraction = 0.0
        if let dot = text.firstIndex(of: ".") {
            let digits = text[text.index(after: dot)...].prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, let value = Double("0." + digits) else { return nil }
            fraction = value
            text = text[..<dot] + text[digits.endIndex...]
        }
        guard let date = try? iso8601.parse(String(text)) else { return nil }
        return date.timeIntervalSince1970 + fraction
    }
}

extension Encoder {
    /// Whether this encoder writes an archive's dates as text (``ArchivedScreenshot/datesAsText``).
    var writesDatesAsText: Bool { (userInfo[ArchivedScreenshot.datesAsText] as? Bool) == true }
}

extension KeyedEncodingContainer {
    mutating func encodeDate(_ seconds: Double, forKey key: Key, asText: Bool) throws {
        if asText { try encode(ArchivedScreenshot.isoText(seconds), forKey: key) } else { try encode(seconds, forKey: key) }
    }

    mutating func encodeDateIfPresent(_ seconds: Double?, forKey key: Key, asText: Bool) throws {
        guard let seconds else { return }
        try encodeDate(seconds, forKey: key, asText: asText)
    }
}

extension KeyedDecodingContainer {
    func decodeDate(forKey key: Key) throws -> Double {
        if let seconds = try? decode(Double.self, forKey: key) { return seconds }
        let text = try decode(String.self, forKey: key)
        guard let seconds = ArchivedScreenshot.seconds(fromISOText: text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "'\(text)' is not an ISO 8601 date")
        }
        return seconds
    }

    func decodeDateIfPresent(forKey key: Key) throws -> Double? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try decodeDate(forKey: key)
    }
}

extension ArchivedScreenshot.ArchivedPath {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        path = try c.decode(String.self, forKey: .path)
        size = try c.decode(Int.self, forKey: .size)
        modifiedAt = try c.decodeDate(forKey: .modifiedAt)
        firstSeenAt = try c.decodeDate(forKey: .firstSeenAt)
        lastSeenAt = try c.decodeDate(forKey: .lastSeenAt)
        goneAt = try c.decodeDateIfPresent(forKey: .goneAt)
    }

    public func encode(to encoder: Encoder) throws {
        let text = encoder.writesDatesAsText
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(path, forKey: .path)
        try c.encode(size, forKey: .size)
        try c.encodeDate(modifiedAt, forKey: .modifiedAt, asText: text)
        try c.encodeDate(firstSeenAt, forKey: .firstSeenAt, asText: text)
        try c.encodeDate(lastSeenAt, forKey: .lastSeenAt, asText: text)
        try c.encodeDateIfPresent(goneAt, forKey: .goneAt, asText: text)
    }
}

extension ArchivedScreenshot.ArchivedLink {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        other = try c.decode(String.self, forKey: .other)
        note = try c.decodeIfPresent(String.self, forKey: .note)
        createdAt = try c.decodeDate(forKey: .createdAt)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(other, forKey: .other)
        try c.encodeIfPresent(note, forKey: .note)
        try c.encodeDate(createdAt, forKey: .createdAt, asText: encoder.writesDatesAsText)
    }
}

extension ArchivedScreenshot {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int64.self, forKey: .id)
        sha256 = try c.decode(String.self, forKey: .sha256)
        byteCount = try c.decode(Int.self, forKey: .byteCount)
        format = try c.decode(String.self, forKey: .format)
        width = try c.decodeIfPresent(Int.self, forKey: .width)
        height = try c.decodeIfPresent(Int.self, forKey: .height)
        state = try c.decode(String.self, forKey: .state)
        lastError = try c.decodeIfPresent(String.self, forKey: .lastError)
        confidence = try c.decodeIfPresent(Double.self, forKey: .confidence)
        ocrSeconds = try c.decodeIfPresent(Double.self, forKey: .ocrSeconds)
        capturedAt = try c.decodeDate(forKey: .capturedAt)
        importedAt = try c.decodeDate(forKey: .importedAt)
        recognizedAt = try c.decodeDateIfPresent(forKey: .recognizedAt)
        paths = try c.decode([ArchivedPath].self, forKey: .paths)
        text = try c.decodeIfPresent(String.self, forKey: .text)
        words = try c.decodeIfPresent(String.self, forKey: .words)
        codes = try c.decode([DecodedCode].self, forKey: .codes)
        entities = try c.decode([StoredEntity].self, forKey: .entities)
        tags = try c.decode([String].self, forKey: .tags)
        note = try c.decodeIfPresent(String.self, forKey: .note)
        links = try c.decode([ArchivedLink].self, forKey: .links)
    }

    public func encode(to encoder: Encoder) throws {
        let text = encoder.writesDatesAsText
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(sha256, forKey: .sha256)
        try c.encode(byteCount, forKey: .byteCount)
        try c.encode(format, forKey: .format)
        try c.encodeIfPresent(width, forKey: .width)
        try c.encodeIfPresent(height, forKey: .height)
        try c.encode(state, forKey: .state)
        try c.encodeIfPresent(lastError, forKey: .lastError)
        try c.encodeIfPresent(confidence, forKey: .confidence)
        try c.encodeIfPresent(ocrSeconds, forKey: .ocrSeconds)
        try c.encodeDate(capturedAt, forKey: .capturedAt, asText: text)
        try c.encodeDate(importedAt, forKey: .importedAt, asText: text)
        try c.encodeDateIfPresent(recognizedAt, forKey: .recognizedAt, asText: text)
        try c.encode(paths, forKey: .paths)
        try c.encodeIfPresent(self.text, forKey: .text)
        try c.encodeIfPresent(words, forKey: .words)
        try c.encode(codes, forKey: .codes)
        try c.encode(entities, forKey: .entities)
        try c.encode(tags, forKey: .tags)
        try c.encodeIfPresent(note, forKey: .note)
        try c.encode(links, forKey: .links)
    }
}
