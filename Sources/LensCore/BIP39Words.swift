/// The BIP-39 English word list (2,048 words), from trezor/python-mnemonic's
/// `src/mnemonic/wordlist/english.txt` (MIT licence; the list itself is from the BIP-39 specification).
/// A run of 12 or more of these words is a wallet's seed phrase (``SecretDetector``).
/// The list is the data file `Assets/bip39-english.txt`, one word a line, built into the binary.
enum BIP39 {
    static let words: Set<String> = Set(EmbeddedAssets.words(in: "bip39-english.txt").map(String.init))
}
