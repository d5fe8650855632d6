@testable import LensCore
import Testing

/// The table of calls that take a password as a positional argument (`credential-calls.tsv`)
/// drives the rule: each call is found with the password where the table says, and each holds a
/// cue the rule looks for before it searches (a call added without one would never be found).
struct CredentialCallsTests {
    @Test func theTableIsRead() {
        #expect(SecretScan.credentialCalls.count >= 30)
    }

    @Test(arguments: SecretScan.credentialCalls.map(\.name))
    func eachCallHasACue(name: String) {
        #expect(SecretScan.credentialCallCues.contains { name.lowercased().contains($0) })
    }

    /// A made-up password in the call's password place is masked; the same value one place
    /// earlier, where the table says no password goes, is not (the user's name, a host), unless
    /// the call's name itself names a password or an authentication (`PasswordAuthentication(…)`,
    /// `PlainAuth(…)`: the label rules take a literal after such a name, as before the table).
    @Test(arguments: SecretScan.credentialCalls.map { ($0.name, $0.passwordArgument) })
    func eachCallsPasswordIsMasked(name: String, position: Int) {
        func call(withValueAt place: Int) -> String {
            let arguments = (1...max(position, place)).map { $0 == place ? "\"Vq7mLx2RtQz\"" : "\"ana\"" }
            return "x = " + name + "(" + arguments.joined(separator: ", ") + ")"
        }
        let detector = SecretDetector()
        #expect(!detector.masking(call(withValueAt: position)).text.contains("Vq7mLx2RtQz"), "\(call(withValueAt: position))")
        if position > 1, !["password", "auth", "credential"].contains(where: name.lowercased().contains) {
            #expect(detector.masking(call(withValueAt: position - 1)).text.contains("Vq7mLx2RtQz"), "\(call(withValueAt: position - 1))")
        }
    }
}
