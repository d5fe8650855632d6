import Foundation

/// A `.safetensors` file mapped into memory: an 8-byte little-endian header length, a JSON header
/// naming each tensor's dtype, shape and byte range, then the raw data. Only `F32` tensors are
/// read. The mapping is read-only and shared: the weights cost page cache, not heap.
///
/// Hand-written: the format is a few lines of JSON and offsets, and no Swift package here reads it.
public final class SafeTensors: @unchecked Sendable {
    // @unchecked: the mapping is read-only after init and unmapped only in deinit.
    public struct Tensor: Sendable {
        public var shape: [Int]
        let offset: Int, count: Int
    }

    public enum Failure: Error, CustomStringConvertible {
        case unreadable(String, String)
        case malformed(String, String)
        public var description: String {
            switch self {
            case let .unreadable(path, reason): "\(path): cannot read the model: \(reason)"
            case let .malformed(path, reason): "\(path): not a usable safetensors file: \(reason)"
            }
        }
    }

    public let path: String
    public let tensors: [String: Tensor]
    let base: UnsafeRawPointer, length: Int

    public init(path: String) throws {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure.unreadable(path, String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure.unreadable(path, String(cString: strerror(errno))) }
        let length = Int(info.st_size)
        guard length >= 8 else { throw Failure.malformed(path, "\(length) bytes") }
        guard let mapped = mmap(nil, length, PROT_READ, MAP_SHARED, fd, 0), mapped != MAP_FAILED else {
            throw Failure.unreadable(path, String(cString: strerror(errno)))
        }
        let base = UnsafeRawPointer(mapped)
        do {
            tensors = try Self.tensors(in: base, length: length, path: path)
        } catch {
            munmap(mapped, length)
            throw error
        }
        self.base = base
        self.length = length
    }

    /// The F32 tensors the header names, each checked to lie inside the file with its shape's size.
    static func tensors(in base: UnsafeRawPointer, length: Int, path: String) throws -> [String: Tensor] {
        var headerLength = 0
        for i in 0..<8 { headerLength |= Int(base.load(fromByteOffset: i, as: UInt8.self)) << (8 * i) }
        // The header is JSON of a few kilobytes; 100 MB would be a hostile file.
        guard headerLength > 0, headerLength <= min(length - 8, 100_000_000) else {
            throw Failure.malformed(path, "a header of \(headerLength) bytes in a file of \(length)")
        }
        let header = Data(bytes: base + 8, count: headerLength)
        guard let object = try? JSONSerialization.jsonObject(with: header) as? [String: Any] else {
            throw Failure.malformed(path, "its header is not a JSON object")
        }
        let dataStart = 8 + headerLength
        var tensors: [String: Tensor] = [:]
        for (name, value) in object where name != "__metadata__" {
            guard let entry = value as? [String: Any], let dtype = entry["dtype"] as? String,
                  let shape = entry["shape"] as? [Int], let range = entry["data_offsets"] as? [Int], range.count == 2 else {
                throw Failure.malformed(path, "tensor \(name) has no dtype, shape or data_offsets")
            }
            guard dtype == "F32" else { continue }
            // A hostile shape may not overflow: its product is checked, never trapped on.
            var count = 1
            for dimension in shape {
                let (product, overflow) = count.multipliedReportingOverflow(by: dimension)
                guard dimension >= 0, !overflow else { throw Failure.malformed(path, "tensor \(name) has the shape \(shape)") }
                count = product
            }
            guard count <= (length - dataStart) / 4, range[0] >= 0, range[0] <= range[1], range[1] <= length - dataStart,
                  range[1] - range[0] == count * 4,
                  (dataStart + range[0]) % 4 == 0 else {
                throw Failure.malformed(path, "tensor \(name)'s bytes \(range) do not fit its shape \(shape) or the file")
            }
            tensors[name] = Tensor(shape: shape, offset: dataStart + range[0], count: count)
        }
        return tensors
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: base), length) }

    /// The tensor's floats; it must exist with the given shape.
    public func floats(_ name: String, shape: [Int]) throws -> UnsafeBufferPointer<Float> {
        guard let tensor = tensors[name] else { throw Failure.malformed(path, "no F32 tensor \(name)") }
        guard tensor.shape == shape else { throw Failure.malformed(path, "tensor \(name) is \(tensor.shape), not \(shape)") }
        return UnsafeBufferPointer(start: (base + tensor.offset).assumingMemoryBound(to: Float.self), count: tensor.count)
    }
}
