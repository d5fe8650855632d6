import Foundation
import LensOCR

/// Recognizes one image outside the queue, for `lens extract --image`.
public enum SingleImage {
    /// The text of the image at `path`, read as the daemon would read it.
    public static func text(atPath path: String, languages: String = "eng") throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SingleImageError(message: "\(path): cannot read the file")
        }
        do {
            return try Recognizer(settings: RecognizerSettings(languages: languages)).recognize([UInt8](data)).text
        } catch {
            throw SingleImageError(message: "\(path): \(error)")
        }
    }
}

public struct SingleImageError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
