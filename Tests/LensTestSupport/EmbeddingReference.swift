import Foundation

/// What the text-embedding model's own Python package computed once (`Tests/Embedding/reference.json`,
/// from `make_reference.py`): token ids and vectors.
public struct EmbeddingReference: Decodable, Sendable {
    public struct Case: Decodable, Sendable {
        public var text: String
        public var ids: [Int32]
        public var embedding: [Float]
    }
    public var max_tokens: Int
    public var cases: [Case]

    public static func load() throws -> EmbeddingReference {
        let url = TestSupport.packageRoot.appendingPathComponent("Tests/Embedding/reference.json")
        return try JSONDecoder().decode(EmbeddingReference.self, from: Data(contentsOf: url))
    }
}
