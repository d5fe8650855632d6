import LensCore
import Testing

struct StoreAddressTests {
    @Test func filePathsAreSQLite() throws {
        #expect(try StoreAddress("/home/u/.local/share/lens/lens.db") == .sqlite(path: "/home/u/.local/share/lens/lens.db"))
        #expect(try StoreAddress("lens.db") == .sqlite(path: "lens.db"))
    }

    @Test func urlsReadAsLibpqReadsThem() throws {
        let tcp = try PostgresAddress(url: "postgresql://ana:p%40ss@db.internal:6543/team?sslmode=disable")
        #expect(tcp.host == "db.internal" && tcp.port == 6543 && tcp.user == "ana" && tcp.password == "p@ss" && tcp.database == "team")
        #expect(tcp.socketPath == nil)
        let socket = try PostgresAddress(url: "postgres:///lens?host=/run/postgresql")
        #expect(socket.socketPath == "/run/postgresql/.s.PGSQL.5432" && socket.database == "lens" && socket.user == "postgres")
        let bare = try PostgresAddress(url: "postgresql://")
        #expect(bare.socketFolder == "/var/run/postgresql" && bare.database == "postgres")
        let v6 = try PostgresAddress(url: "postgresql://u@[::1]:5433/d")
        #expect(v6.host == "::1" && v6.port == 5433)
        let encodedSocket = try PostgresAddress(url: "postgresql://u@%2Ftmp%2Fpg/d")
        #expect(encodedSocket.socketFolder == "/tmp/pg")
        #expect(tcp.tls == .disable && socket.tls == .disable)
        let verified = try PostgresAddress(url: "postgresql://u@db.internal/d?sslmode=verify-full&sslrootcert=/etc/lens/ca.pem")
        #expect(verified.tls == .verifyFull && verified.rootCertificates == "/etc/lens/ca.pem")
        #expect(verified.description == "postgresql://u@db.internal:5432/d?sslmode=verify-full")
        #expect(try PostgresAddress(url: "postgresql://u@h/d?sslmode=verify-ca").tls == .verifyCA)
        #expect(try PostgresAddress(url: "postgresql://u@h/d?sslmode=require").tls == .require)
        #expect(try PostgresAddress(url: "postgresql://u@h/d?sslmode=allow").tls == .disable)
    }

    @Test func passwordsNeverShow() throws {
        let address = try StoreAddress("postgresql://ana:hunter2@db:5432/team")
        #expect(!address.description.contains("hunter2"))
        #expect(address.description == "postgresql://ana:***@db:5432/team")
        do {
            _ = try StoreAddress("postgresql://ana:hunter2@db:99999/team")
            Issue.record("a bad port was accepted")
        } catch {
            #expect(!error.description.contains("hunter2"))
            #expect(error.reason.contains("port"))
        }
    }

    @Test(arguments: ["mysql://h/db", "postgresql://h/db?sslmode=sometimes", "postgresql://h/db?sslrootcert=", "postgresql://h/db?options=-c%20x", "postgresql://h:0/db", ""])
    func badAddressesSayWhy(text: String) {
        #expect(throws: StoreAddressError.self) { try StoreAddress(text) }
    }

    @Test func pathMapsTakeTheLongestWholeComponentPrefix() throws {
        let map = try PathPrefixMap(parsing: ["/home/ana=/mnt/ana", "/home/ana/Pictures/=/mnt/pictures"])
        #expect(map.local("/home/ana/Pictures/x.png") == "/mnt/pictures/x.png")
        #expect(map.local("/home/ana/doc.png") == "/mnt/ana/doc.png")
        #expect(map.local("/home/anabel/x.png") == "/home/anabel/x.png")
        #expect(map.local("/elsewhere/x.png") == "/elsewhere/x.png")
        #expect(throws: PathPrefixMapError.self) { try PathPrefixMap(parsing: ["relative=/x"]) }
        #expect(throws: PathPrefixMapError.self) { try PathPrefixMap(parsing: ["/no-equals"]) }
    }
}
