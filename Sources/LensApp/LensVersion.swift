import Foundation
import LensOCR
import LensStore

/// Which Lens this is, and the versions of the libraries it runs on (`lens version`).
public enum LensVersion {
    /// This build's version (semantic versioning).
    public static let current = "0.9.0"

    /// Lens's version and its libraries' as `(name, version)`, in the order `lens version` prints them.
    public static func components() -> [(name: String, version: String)] {
        [("lens", current),
         ("tesseract", Recognizer.tesseractVersion),
         ("sqlite", (try? LensDatabase.sqliteVersion()) ?? "unknown")]
    }
}
