import Foundation

/// The text-embedding model as `scripts/install-deps.sh` unpacks it, and the reference its own
/// Python package computed once (`Tests/Embedding/reference.json`, from `make_reference.py`).
public struct EmbeddingReference: Decodable, Sendable {
    public struct Case: Decodable, Sendable {
        public var text: String
        public var ids: [Int32]
        public var embedding: [Float]
    }
    public var max_tokens: Int
    public var cases: [Case]

    public static let modelDirectory = ProcessInfo.processInfo.environment["LENS_MODEL_DIR"]
        ?? "/usr/local/share/lens/models/all-minilm-l6-v2"

    public static func load() throws -> EmbeddingReference {
        let url = TestSupport.packageRoot.appendingPathComponent("Tests/Embedding/reference.json")
        return try JSONDecoder().decode(EmbeddingReference.self, from: Data(contentsOf: url))
    }
}
