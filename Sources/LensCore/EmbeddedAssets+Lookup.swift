/// The data files of `Sources/LensCore/Assets` (word lists, the name tagger's weights), which the
/// EmbedAssets build plugin turns into `EmbeddedAssets.files`: data kept apart from code, and
/// still one binary to install with nothing read from disk.
extension EmbeddedAssets {
    /// A data file's text. A name that is not there is a mistake in the build, not in the input.
    static func text(of name: String) -> String {
        guard let text = files[name] else { preconditionFailure("\(name) is not in Sources/LensCore/Assets") }
        return text
    }

    /// A word list: a data file's words, one a line.
    static func words(in name: String) -> [Substring] {
        text(of: name).split(whereSeparator: \.isWhitespace)
    }
}
