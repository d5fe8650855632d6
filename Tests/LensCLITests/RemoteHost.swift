import Foundation
import LensTestSupport
import Testing

/// A second host for the tests: a network namespace joined to this one by a veth pair, with
/// link-local addresses on a link of its own (traffic never leaves this machine). Needs root.
/// `remove()` takes it down again; call it in a `defer`.
struct RemoteHost {
    let namespace: String
    let hostSide: String
    let lens: LensBinary

    /// Makes namespace `lens-name-<pid>` with `localAddress` on this side and `remoteAddress` on its side (a /30).
    /// A run that was killed leaves its namespace and link behind (they outlive the process): their
    /// route to the same /30 would take this one's traffic, so those of a process that is gone go first.
    init(_ name: String, lens: LensBinary, localAddress: String, remoteAddress: String) throws {
        let tag = String(getpid())
        self.lens = lens
        namespace = "lens-\(name)-\(tag)"
        hostSide = "\(name.prefix(1))h\(tag)"
        let remoteSide = "\(name.prefix(1))r\(tag)"
        try Self.removeLeftovers(of: name, lens: lens)
        for step in ["netns add \(namespace)", "link add \(hostSide) type veth peer name \(remoteSide)",
                     "link set \(remoteSide) netns \(namespace)", "addr add \(localAddress)/30 dev \(hostSide)", "link set \(hostSide) up",
                     "netns exec \(namespace) ip addr add \(remoteAddress)/30 dev \(remoteSide)",
                     "netns exec \(namespace) ip link set \(remoteSide) up", "netns exec \(namespace) ip link set lo up"] {
            let result = try Self.ip(step, lens: lens)
            if result.status != 0 { remove() }
            try #require(result.status == 0, "ip \(step): \(result.stderr)")
        }
    }

    /// Removes the namespaces and host-side links named for `name` whose process no longer runs.
    static func removeLeftovers(of name: String, lens: LensBinary) throws {
        func isGone(_ pid: Substring) -> Bool {
            guard let pid = pid_t(pid), pid != getpid() else { return false }
            return kill(pid, 0) != 0 && errno == ESRCH
        }
        let namespaces = try ip("netns list", lens: lens).stdout.split(separator: "\n")
            .compactMap { $0.split(separator: " ").first?.wholeMatch(of: /lens-(.+)-(\d+)/) }
        for match in namespaces where match.1 == name && isGone(match.2) {
            _ = try ip("netns del \(match.0)", lens: lens)
        }
        let links = try ip("-o link show", lens: lens).stdout.split(separator: "\n")
            .compactMap { $0.split(separator: " ").dropFirst().first?.prefixMatch(of: /([a-z])h(\d+)@/) }
        for match in links where match.1 == name.prefix(1) && isGone(match.2) {
            _ = try ip("link del \(match.1)h\(match.2)", lens: lens)
        }
    }

    func remove() {
        _ = try? Self.ip("netns del \(namespace)", lens: lens)
        _ = try? Self.ip("link del \(hostSide)", lens: lens)
    }

    private static func ip(_ arguments: String, lens: LensBinary) throws -> LensBinary.Result {
        try lens.runProgram("/usr/sbin/ip", arguments.split(separator: " ").map(String.init))
    }
}
