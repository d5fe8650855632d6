import COpenBLAS
import Foundation
import LensCore

/// all-MiniLM-L6-v2's sentence embedding of a text: WordPiece ids, BERT's six layers, the mean
/// of the last layer over the tokens, scaled to length 1 (the model's Pooling and Normalize
/// modules). The weights are read from `model.safetensors` in place (see ``SafeTensors``).
///
/// Hand-written: no Swift package runs a BERT encoder; the matrix products go to OpenBLAS's
/// `cblas_sgemm` and only the small steps (layer norm, softmax, GELU) are loops here. One call
/// allocates its own scratch, so any number of workers may share one embedder.
public final class TextEmbedder: @unchecked Sendable {
    // @unchecked: every stored property is set once in init and only read after; the pointers
    // point into the read-only mapping that `weights` keeps alive.
    public static let dimensions = 384
    static let layers = 6, heads = 12, intermediate = 1536, positions = 512
    /// The model was trained on windows of at most 256 tokens; a longer text is cut into windows.
    public static let maximumTokens = 256

    struct Layer {
        var query, queryBias, key, keyBias, value, valueBias: UnsafeBufferPointer<Float>
        var output, outputBias, attentionNormWeight, attentionNormBias: UnsafeBufferPointer<Float>
        var up, upBias, down, downBias, normWeight, normBias: UnsafeBufferPointer<Float>
    }

    public let tokenizer: WordPieceTokenizer
    let weights: SafeTensors
    let words, positionEmbeddings, tokenTypes, embeddingNormWeight, embeddingNormBias: UnsafeBufferPointer<Float>
    let layers: [Layer]

    /// Where `scripts/install-deps.sh` unpacks the model: `$LENS_MODEL_DIR`, else
    /// `/usr/local/share/lens/models/all-minilm-l6-v2`.
    public static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        environment["LENS_MODEL_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share/lens/models/all-minilm-l6-v2"
    }

    /// The model in `directory`: `model.safetensors` and `vocab.txt`, as install-deps.sh unpacks them.
    public init(directory: String) throws {
        let vocabularyPath = directory + "/vocab.txt"
        guard let vocabularyText = try? String(contentsOfFile: vocabularyPath, encoding: .utf8) else {
            throw SafeTensors.Failure.unreadable(vocabularyPath, "missing or not UTF-8 (run scripts/install-deps.sh)")
        }
        guard let tokenizer = WordPieceTokenizer(vocabulary: vocabularyText) else {
            throw SafeTensors.Failure.malformed(vocabularyPath, "no [UNK], [CLS] or [SEP] in the vocabulary")
        }
        let weights = try SafeTensors(path: directory + "/model.safetensors")
        let d = Self.dimensions, f = Self.intermediate
        let vocabularyRows = weights.tensors["embeddings.word_embeddings.weight"]?.shape.first ?? 0
        words = try weights.floats("embeddings.word_embeddings.weight", shape: [vocabularyRows, d])
        positionEmbeddings = try weights.floats("embeddings.position_embeddings.weight", shape: [Self.positions, d])
        tokenTypes = try weights.floats("embeddings.token_type_embeddings.weight", shape: [2, d])
        embeddingNormWeight = try weights.floats("embeddings.LayerNorm.weight", shape: [d])
        embeddingNormBias = try weights.floats("embeddings.LayerNorm.bias", shape: [d])
        guard let largest = tokenizer.vocabulary.values.max(), Int(largest) < words.count / d else {
            throw SafeTensors.Failure.malformed(vocabularyPath, "the vocabulary has more pieces than the model has embeddings")
        }
        layers = try (0..<Self.layers).map { i in
            let p = "encoder.layer.\(i)."
            return Layer(
                query: try weights.floats(p + "attention.self.query.weight", shape: [d, d]),
                queryBias: try weights.floats(p + "attention.self.query.bias", shape: [d]),
                key: try weights.floats(p + "attention.self.key.weight", shape: [d, d]),
                keyBias: try weights.floats(p + "attention.self.key.bias", shape: [d]),
                value: try weights.floats(p + "attention.self.value.weight", shape: [d, d]),
                valueBias: try weights.floats(p + "attention.self.value.bias", shape: [d]),
                output: try weights.floats(p + "attention.output.dense.weight", shape: [d, d]),
                outputBias: try weights.floats(p + "attention.output.dense.bias", shape: [d]),
                attentionNormWeight: try weights.floats(p + "attention.output.LayerNorm.weight", shape: [d]),
                attentionNormBias: try weights.floats(p + "attention.output.LayerNorm.bias", shape: [d]),
                up: try weights.floats(p + "intermediate.dense.weight", shape: [f, d]),
                upBias: try weights.floats(p + "intermediate.dense.bias", shape: [f]),
                down: try weights.floats(p + "output.dense.weight", shape: [d, f]),
                downBias: try weights.floats(p + "output.dense.bias", shape: [d]),
                normWeight: try weights.floats(p + "output.LayerNorm.weight", shape: [d]),
                normBias: try weights.floats(p + "output.LayerNorm.bias", shape: [d])
            )
        }
        self.tokenizer = tokenizer
        self.weights = weights
        // The embedding pass runs beside OCR workers: one thread each, no pool of OpenBLAS's own.
        openblas_set_num_threads(1)
    }

    /// The embedding of `text` as the model's own package gives it for a text of up to 256
    /// tokens (longer ones are cut there, as the model's package does).
    public func embedding(_ text: String) -> [Float] {
        embedding(ids: tokenizer.ids(text, maximumTokens: Self.maximumTokens))
    }

    /// The embedding of a whole text: its pieces cut into windows the model's size (254 and
    /// `[CLS]`, `[SEP]`), at most `maximumWindows` of them (a bounded cost for any text), and the
    /// mean of their embeddings weighted by their lengths, made unit length again.
    public func embedding(windowsOf text: String, maximumWindows: Int = 4) -> (vector: [Float], windows: Int) {
        let windows = windowEmbeddings(of: text, maximumWindows: maximumWindows)
        return (windows.count == 1 ? windows[0].vector : Self.mean(of: windows), windows.count)
    }

    /// The windows' embeddings averaged, each weighted by its pieces, made unit length again.
    public static func mean(of windows: [(vector: [Float], pieces: Int)]) -> [Float] {
        var sum = [Float](repeating: 0, count: dimensions)
        for window in windows { for j in 0..<min(dimensions, window.vector.count) { sum[j] += window.vector[j] * Float(window.pieces) } }
        let norm = max(sum.reduce(0) { $0 + $1 * $1 }.squareRoot(), 1e-12)
        return sum.map { $0 / norm }
    }

    /// Each window's embedding and how many pieces it holds: at least one window (a blank text's
    /// is zeros), at most `maximumWindows`, each of at most `windowTokens` tokens (with `[CLS]`
    /// and `[SEP]`).
    public func windowEmbeddings(of text: String, maximumWindows: Int = 4,
                                 windowTokens: Int = maximumTokens) -> [(vector: [Float], pieces: Int)] {
        let size = max(1, min(windowTokens, Self.maximumTokens) - 2)
        let pieces = tokenizer.pieceIDs(text, maximum: size * max(1, maximumWindows))
        guard pieces.count > size else { return [(embedding(ids: [tokenizer.classifier] + pieces + [tokenizer.separator]), pieces.count)] }
        return stride(from: 0, to: pieces.count, by: size).map { start in
            let window = pieces[start..<min(pieces.count, start + size)]
            return (embedding(ids: [tokenizer.classifier] + window + [tokenizer.separator]), window.count)
        }
    }

    /// The normalized mean of the last layer over `ids` (`[CLS] … [SEP]`, at most 512; an id the
    /// model has no row for reads as `[UNK]`). No ids: a vector of zeros.
    public func embedding(ids: [Int32]) -> [Float] {
        let n = min(ids.count, Self.positions), d = Self.dimensions
        guard n > 0 else { return [Float](repeating: 0, count: d) }
        let rows = words.count / d
        var x = [Float](repeating: 0, count: n * d)
        x.withUnsafeMutableBufferPointer { x in
            for (t, id) in ids.prefix(n).enumerated() {
                // The weights are read through unchecked pointers: an id must name a row.
                let row = (0..<rows).contains(Int(id)) ? Int(id) : Int(tokenizer.unknown)
                let word = row * d, position = t * d
                for j in 0..<d { x[t * d + j] = words[word + j] + positionEmbeddings[position + j] + tokenTypes[j] }
            }
            Self.normalizeLayers(x, rows: n, weight: embeddingNormWeight, bias: embeddingNormBias)
            var scratch = Scratch(tokens: n)
            for layer in layers { forward(layer, x, rows: n, &scratch) }
        }
        var pooled = [Float](repeating: 0, count: d)
        for t in 0..<n { for j in 0..<d { pooled[j] += x[t * d + j] } }
        var norm: Float = 0
        for j in 0..<d {
            pooled[j] /= Float(n)
            norm += pooled[j] * pooled[j]
        }
        norm = max(norm.squareRoot(), 1e-12)
        return pooled.map { $0 / norm }
    }

    struct Scratch {
        var q, k, v, context, attended: [Float]
        var scores: [Float], hidden: [Float]
        init(tokens n: Int) {
            let d = TextEmbedder.dimensions
            q = [Float](repeating: 0, count: n * d)
            k = q; v = q; context = q; attended = q
            scores = [Float](repeating: 0, count: n * n)
            hidden = [Float](repeating: 0, count: n * TextEmbedder.intermediate)
        }
    }

    /// One encoder layer on `x` (rows × 384), in place.
    func forward(_ layer: Layer, _ x: UnsafeMutableBufferPointer<Float>, rows n: Int, _ s: inout Scratch) {
        let d = Self.dimensions, f = Self.intermediate, headSize = d / Self.heads
        Self.linear(UnsafeBufferPointer(x), rows: n, inputs: d, layer.query, layer.queryBias, outputs: d, into: &s.q)
        Self.linear(UnsafeBufferPointer(x), rows: n, inputs: d, layer.key, layer.keyBias, outputs: d, into: &s.k)
        Self.linear(UnsafeBufferPointer(x), rows: n, inputs: d, layer.value, layer.valueBias, outputs: d, into: &s.v)
        let scale = 1 / Float(headSize).squareRoot()
        for h in 0..<Self.heads {
            let offset = h * headSize
            s.q.withUnsafeBufferPointer { q in
                s.k.withUnsafeBufferPointer { k in
                    s.scores.withUnsafeMutableBufferPointer { scores in
                        // scores = Q_h · K_hᵀ / √32
                        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(n), Int32(n), Int32(headSize), scale,
                                    q.baseAddress! + offset, Int32(d), k.baseAddress! + offset, Int32(d), 0, scores.baseAddress!, Int32(n))
                    }
                }
            }
            s.scores.withUnsafeMutableBufferPointer { scores in
                for row in 0..<n {
                    let base = row * n
                    var largest = -Float.infinity
                    for c in 0..<n { largest = max(largest, scores[base + c]) }
                    var sum: Float = 0
                    for c in 0..<n {
                        let e = expf(scores[base + c] - largest)
                        scores[base + c] = e
                        sum += e
                    }
                    for c in 0..<n { scores[base + c] /= sum }
                }
            }
            s.scores.withUnsafeBufferPointer { scores in
                s.v.withUnsafeBufferPointer { v in
                    s.context.withUnsafeMutableBufferPointer { context in
                        // context_h = softmax · V_h
                        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(n), Int32(headSize), Int32(n), 1,
                                    scores.baseAddress!, Int32(n), v.baseAddress! + offset, Int32(d), 0, context.baseAddress! + offset, Int32(d))
                    }
                }
            }
        }
        let context = s.context
        context.withUnsafeBufferPointer { context in
            Self.linear(context, rows: n, inputs: d, layer.output, layer.outputBias, outputs: d, into: &s.attended)
        }
        for i in 0..<(n * d) { x[i] += s.attended[i] }
        Self.normalizeLayers(x, rows: n, weight: layer.attentionNormWeight, bias: layer.attentionNormBias)
        Self.linear(UnsafeBufferPointer(x), rows: n, inputs: d, layer.up, layer.upBias, outputs: f, into: &s.hidden)
        for i in 0..<(n * f) {
            // GELU as BERT has it: x · Φ(x), with the error function (not the tanh estimate).
            let value = s.hidden[i]
            s.hidden[i] = 0.5 * value * (1 + erff(value * 0.70710678118654752))
        }
        let hidden = s.hidden
        hidden.withUnsafeBufferPointer { hidden in
            Self.linear(hidden, rows: n, inputs: f, layer.down, layer.downBias, outputs: d, into: &s.attended)
        }
        for i in 0..<(n * d) { x[i] += s.attended[i] }
        Self.normalizeLayers(x, rows: n, weight: layer.normWeight, bias: layer.normBias)
    }

    /// out = input · weightᵀ + bias; `weight` is outputs × inputs, as PyTorch stores a Linear.
    static func linear(_ input: UnsafeBufferPointer<Float>, rows n: Int, inputs: Int, _ weight: UnsafeBufferPointer<Float>,
                       _ bias: UnsafeBufferPointer<Float>, outputs: Int, into out: inout [Float]) {
        out.withUnsafeMutableBufferPointer { out in
            for row in 0..<n { for j in 0..<outputs { out[row * outputs + j] = bias[j] } }
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(n), Int32(outputs), Int32(inputs), 1,
                        input.baseAddress!, Int32(inputs), weight.baseAddress!, Int32(inputs), 1, out.baseAddress!, Int32(outputs))
        }
    }

    /// Each row scaled to mean 0 and variance 1 (ε = 1e-12, the model's), then weight and bias.
    static func normalizeLayers(_ x: UnsafeMutableBufferPointer<Float>, rows n: Int, weight: UnsafeBufferPointer<Float>,
                                bias: UnsafeBufferPointer<Float>) {
        let d = dimensions
        for row in 0..<n {
            let base = row * d
            var mean: Float = 0
            for j in 0..<d { mean += x[base + j] }
            mean /= Float(d)
            var variance: Float = 0
            for j in 0..<d {
                let centered = x[base + j] - mean
                variance += centered * centered
            }
            let scale = 1 / (variance / Float(d) + 1e-12).squareRoot()
            for j in 0..<d { x[base + j] = (x[base + j] - mean) * scale * weight[j] + bias[j] }
        }
    }
}
