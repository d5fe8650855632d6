extension SecretScan {
    /// The password and code labels of scripts OCR's English model cannot read, as it reads them:
    /// Russian's `пароль` (`Naponb`, `naponb`, `Tlapomb`, `NAPOJIb`) and Greek's `κωδικός`
    /// (`Kw61K6¢`, `Kwdikdg`, `KQAIKOZ`, with `πρόσβασης` after it as a password's label), from the
    /// measured readings of ``OCRLookalikes`` (round 147; rounds 145 and 146 had written `Naponb` and
    /// `Maponb` by hand). Tried as password labels (``cuedPasswordMatcher``) and as codes' cues
    /// (``otpMatchersWithLookalikes``) only in a text that holds one of ``lookalikeAnchors``.
    static let lookalikeLabels = [
        OCRLookalikes.pattern(for: "пароль"),
        OCRLookalikes.pattern(for: "κωδικός") + "(?:[ \\t]+" + OCRLookalikes.pattern(for: "πρόσβασης") + ")?",
    ].joined(separator: "|")
    /// Greek's `είναι` (`is`) between such a cue and its code, as OCR reads it (`Eival`, `eivat`, `etvar`).
    static let lookalikeVerbs = "(?<![A-Za-z])" + OCRLookalikes.pattern(for: "είναι") + "(?![A-Za-z])"
    static let lookalikeAnchors = OCRLookalikes.anchors(for: "пароль") + OCRLookalikes.anchors(for: "κωδικός")
    static let lookalikeAnchorBytes = lookalikeAnchors.map { Array($0.utf8) }
}
