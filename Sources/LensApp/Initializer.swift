import Foundation
import LensCore

/// `lens init`: writes a commented configuration file.
public enum Initializer {
    /// The usual screenshot folders that exist in `home`, most specific first.
    public static func candidateFolders(home: String) -> [String] {
        ["Pictures/Screenshots", "Pictures", "Desktop"].map { home + "/" + $0 }.filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && isDirectory.boolValue
        }
    }

    public enum InitError: Error, CustomStringConvertible {
        case exists(String)
        case cannotWrite(String, String)
        public var description: String {
            switch self {
            case .exists(let path): return "\(path) already exists; pass --force to replace it"
            case .cannotWrite(let path, let reason): return "cannot write \(path): \(reason)"
            }
        }
    }

    /// Writes `text` to `path` as 0600 in a 0700 folder; refuses to replace a file unless `force`.
    public static func write(_ text: String, to path: String, force: Bool) throws(InitError) {
        let manager = FileManager.default
        if manager.fileExists(atPath: path) && !force { throw .exists(path) }
        let folder = (path as NSString).deletingLastPathComponent
        do {
            if !manager.fileExists(atPath: folder) {
                try manager.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
            let temporary = path + ".tmp-\(getpid())"
            guard manager.createFile(atPath: temporary, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
                throw InitError.cannotWrite(path, String(cString: strerror(errno)))
            }
            guard rename(temporary, path) == 0 else { throw InitError.cannotWrite(path, String(cString: strerror(errno))) }
        } catch let error as InitError {
            throw error
        } catch {
            throw .cannotWrite(path, "\(error)")
        }
    }
}
