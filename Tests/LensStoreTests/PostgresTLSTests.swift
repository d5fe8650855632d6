import Foundation
import LensCore
@testable import LensStore
import LensTestSupport
import Testing

/// A shared library reached over the network: TLS as `sslmode` asks, against a real server with
/// `ssl = on` that refuses plain TCP, and certificates made here by OpenSSL (a certificate
/// authority, a server certificate it signs, and an authority that signed nothing of the server's).
@Suite(.serialized)
struct PostgresTLSTests {
    /// Makes a CA, a server certificate for `serverName` signed by it, and a second, unrelated CA.
    static func certificates(serverName: String) throws -> (folder: String, ca: String, otherCA: String, certificate: String, key: String) {
        let folder = try TestSupport.makeTemporaryFolder("lens-tls").path
        chmod(folder, 0o755)
        let script = """
            set -e
            cd "$0"
            for ca in ca other; do
              openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=Lens test $ca" -keyout $ca.key -out $ca.crt 2>/dev/null
            done
            openssl req -newkey rsa:2048 -nodes -subj "/CN=$1" -keyout server.key -out server.csr 2>/dev/null
            printf 'subjectAltName=DNS:%s\\n' "$1" > san.ext
            openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 -extfile san.ext -out server.crt 2>/dev/null
            chmod 644 *
            """
        try PostgresCluster.run("/bin/sh", ["-c", script, folder, serverName])
        return (folder, folder + "/ca.crt", folder + "/other.crt", folder + "/server.crt", folder + "/server.key")
    }

    /// Whether every connection to `database` but psql's own is encrypted, and how many there are.
    static func encryptedConnections(_ cluster: PostgresCluster, _ database: String) throws -> String {
        try cluster.psql(database, """
            SELECT count(*) || ' ' || coalesce(bool_and(s.ssl), false) FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid)
            WHERE a.datname = current_database() AND a.pid <> pg_backend_pid()
            """).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func sslmodeDecidesWhatIsEncryptedAndWhatIsChecked() throws {
        // The certificate names a host other than the one connected to: verify-full must refuse it.
        let files = try Self.certificates(serverName: "db.lens.test")
        defer { try? FileManager.default.removeItem(atPath: files.folder) }
        let port = 20_000 + Int(getpid() % 20_000)
        let cluster = try PostgresCluster(tcp: ("127.0.0.1", port), tls: (files.certificate, files.key))
        defer { cluster.stop() }
        let name = try cluster.makeDatabase().database
        func address(_ query: String) throws -> PostgresAddress {
            try PostgresAddress(url: "postgresql://lens@127.0.0.1:\(port)/\(name)?\(query)")
        }

        // Plain TCP: the server refuses it (hostssl only), and the error names the address, not a password.
        #expect(throws: PostgresStoreError.self) { try LensDatabase(store: .postgresql(address("sslmode=disable"))) }

        // require: encrypted, certificate unchecked (libpq's meaning).
        do {
            let database = try LensDatabase(store: .postgresql(address("sslmode=require")))
            _ = try database.register(FileObservation(path: "/p/a.png", size: 1, modifiedAt: 1, sha256: StoreFixture.hash(1), format: .png, seenAt: 2))
            #expect(try database.stateCounts().values.reduce(0, +) == 1)
            let (count, allEncrypted) = try #require(Self.pair(Self.encryptedConnections(cluster, name)))
            #expect(count >= 1 && allEncrypted)
        }

        // verify-ca: the chain is checked against sslrootcert, the name is not.
        #expect(try LensDatabase(store: .postgresql(address("sslmode=verify-ca&sslrootcert=\(files.ca)"))).stateCounts().values.reduce(0, +) == 1)
        let stranger = #expect(throws: PostgresStoreError.self) {
            try LensDatabase(store: .postgresql(address("sslmode=verify-ca&sslrootcert=\(files.otherCA)")))
        }
        #expect(stranger.map { "\($0)".contains("127.0.0.1:\(port)") && "\($0)".contains("not signed by the authorities in \(files.otherCA)") } == true)

        // verify-full: the certificate is for db.lens.test, not 127.0.0.1.
        let misnamed = #expect(throws: PostgresStoreError.self) {
            try LensDatabase(store: .postgresql(address("sslmode=verify-full&sslrootcert=\(files.ca)")))
        }
        #expect(misnamed.map { "\($0)".contains("not issued for 127.0.0.1") } == true)
        // A root file that cannot be read is said so.
        let missing = #expect(throws: PostgresStoreError.self) {
            try LensDatabase(store: .postgresql(address("sslmode=verify-full&sslrootcert=/nonexistent/ca.pem")))
        }
        #expect(missing.map { "\($0)".contains("/nonexistent/ca.pem") } == true)
    }

    static func pair(_ text: String) -> (Int, Bool)? {
        let parts = text.split(separator: " ")
        guard parts.count == 2, let count = Int(parts[0]) else { return nil }
        return (count, parts[1] == "true")
    }
}
