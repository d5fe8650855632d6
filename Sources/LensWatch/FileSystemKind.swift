import Glibc

/// What kind of file system holds a folder, as far as watching it goes.
///
/// inotify reports changes made through this machine's kernel only: on a network share (NFS,
/// SMB/CIFS, …) a file written by another machine raises no event, and FUSE file systems
/// (sshfs, rclone, …) may not forward remote changes either. Such folders are polled instead of
/// being silently half-watched, the mistake paperless-ngx users keep reporting.
public enum FileSystemKind: Sendable, Equatable {
    case local
    /// A network or user-space file system, with its usual name (`nfs`, `cifs`, `fuse`…).
    case remote(String)

    /// `statfs(2)` magic numbers (linux/magic.h, which Swift's Glibc module does not expose).
    static let remoteMagics: [Int: String] = [
        0x6969: "nfs",
        0x517B: "smb",
        0xFF53_4D42: "cifs",
        0xFE53_4D42: "smb2",
        0x6573_5546: "fuse",
        0x0102_1997: "9p",
        0x00C3_6400: "ceph",
        0x5346_414F: "afs",
        0x7375_7245: "coda",
        0x564C: "ncp",
        0x0BD0_0BD0: "lustre",
        0x0116_1970: "gfs2",
        0x7461_636F: "ocfs2",
    ]

    /// The kind of the file system holding `path`, or `nil` when it cannot be told (no such path).
    public static func of(_ path: String) -> FileSystemKind? {
        fileSystemMagic(path).map(kind(magic:))
    }

    /// `statfs(2)`'s `f_type`. `<sys/statfs.h>` is not in Swift's Glibc module, so the function is
    /// found with dlsym; `f_type` is the first member of `struct statfs` on every Linux ABI (a
    /// `long`), and the buffer is larger than the struct (120 bytes on x86_64 and aarch64).
    static func fileSystemMagic(_ path: String) -> Int? {
        typealias StatFS = @convention(c) (UnsafePointer<CChar>, UnsafeMutableRawPointer) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "statfs") else { return nil }
        let statfs = unsafeBitCast(symbol, to: StatFS.self)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 512, alignment: 16)
        defer { buffer.deallocate() }
        guard statfs(path, buffer) == 0 else { return nil }
        return Int(UInt32(truncatingIfNeeded: buffer.load(as: Int.self)))
    }

    static func kind(magic: Int) -> FileSystemKind {
        remoteMagics[magic].map(FileSystemKind.remote) ?? .local
    }

    public var isRemote: Bool {
        if case .remote = self { return true }
        return false
    }
}
