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

    /// Makes namespace `name-<pid>` with `localAddress` on this side and `remoteAddress` on its side (a /30).
    init(_ name: String, lens: LensBinary, localAddress: String, remoteAddress: String) throws {
        let tag = String(getpid() % 100_000)
        self.lens = lens
        namespace = "lens-\(name)-\(tag)"
        hostSide = "\(name.prefix(1))h\(tag)"
        let remoteSide = "\(name.prefix(1))r\(tag)"
        for step in ["netns add \(namespace)", "link add \(hostSide) type veth peer name \(remoteSide)",
                     "link set \(remoteSide) netns \(namespace)", "addr add \(localAddress)/30 dev \(hostSide)", "link set \(hostSide) up",
                     "netns exec \(namespace) ip addr add \(remoteAddress)/30 dev \(remoteSide)",
                     "netns exec \(namespace) ip link set \(remoteSide) up", "netns exec \(namespace) ip link set lo up"] {
            let result = try ip(step)
            if result.status != 0 { remove() }
            try #require(result.status == 0, "ip \(step): \(result.stderr)")
        }
    }

    func remove() {
        _ = try? ip("netns del \(namespace)")
        _ = try? ip("link del \(hostSide)")
    }

    private func ip(_ arguments: String) throws -> LensBinary.Result {
        try lens.runProgram("/usr/sbin/ip", arguments.split(separator: " ").map(String.init))
    }
}
