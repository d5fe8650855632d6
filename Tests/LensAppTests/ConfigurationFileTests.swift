import Foundation
import LensApp
import LensCore
import LensTestSupport
import Testing

struct ConfigurationFileTests {
    func parse(_ text: String) throws(ConfigurationError) -> LensConfiguration {
        try ConfigurationFile.parse(text, file: "config.toml", home: "/home/u")
    }

    @Test func aStoreURLChoosesAPostgreSQLLibraryAndABadOneNamesTheLine() throws {
        let config = try parse("[store]\nurl = \"postgresql://ana:pw@db.internal/team\"\n")
        #expect(config.store == .postgresql(PostgresAddress(host: "db.internal", user: "ana", password: "pw", database: "team")))
        do {
            _ = try parse("workers = 2\n[store]\nurl = \"mysql://ana:pw@db/team\"\n")
            Issue.record("a mysql:// store was accepted")
        } catch {
            #expect(error.description.contains("config.toml:3: store.url") && error.description.contains("not a store Lens knows"), "\(error)")
            #expect(!error.description.contains("pw@"))
        }
        #expect(throws: ConfigurationError.self) { try parse("[store]\naddress = \"x\"\n") }
    }

    @Test func anEmptyFileMeansTheDefaults() throws {
        #expect(try parse("") == LensConfiguration())
        #expect(try ConfigurationFile.load("/no/such/config.toml") == LensConfiguration())
    }

    @Test func readsThePrivacyTableAndFolderMasks() throws {
        let config = try parse("""
            [privacy]
            mask = ["card", "api_key"]
            skip_images_with = ["seed_phrase"]

            [[folders]]
            path = "~/Pictures/Work"
            mask = ["card", "iban", "password"]
            """)
        #expect(config.privacy.mask == [.card, .apiKey])
        #expect(config.privacy.skipImagesWith == [.seedPhrase])
        #expect(config.folders[0].mask == [.card, .iban, .password])
        #expect(try parse("").privacy.mask == Set(SecretKind.allCases))
        #expect(try parse("").privacy.skipImagesWith.isEmpty)
        #expect(throws: ConfigurationError.self) { try parse("[privacy]\nmask = [\"cvv\"]") }
        #expect(throws: ConfigurationError.self) { try parse("[privacy]\nmasks = []") }
    }

    @Test func readsThePhoneRegions() throws {
        #expect(try parse("regions = [\"de\", \"FR\"]").phoneRegions == ["DE", "FR"])
        #expect(try parse("").phoneRegions.isEmpty)
        #expect(throws: ConfigurationError.self) { try parse("regions = [\"Germany\"]") }
    }

    @Test func readsTheWebTable() throws {
        let config = try parse("""
            [web]
            enabled = true
            listen = "0.0.0.0:8080"
            token = "0123456789abcdef0123"
            """)
        #expect(config.web.isEnabled && config.web.listen == ListenAddress(host: "0.0.0.0", port: 8080))
        #expect(config.web.token == "0123456789abcdef0123")
        #expect(try parse("").web == LensConfiguration.Web())
        #expect(LensConfiguration.Web().listen.description == "127.0.0.1:7466")
    }

    @Test(arguments: [
        ("[web]\nlisten = \"0.0.0.0:80\"", "config.toml:2: web.listen: 0.0.0.0:80 is reachable from other machines"),
        ("[web]\n\nlisten = \"nowhere\"", "config.toml:3: web.listen: 'nowhere' is not HOST:PORT"),
        ("[web]\ntoken = \"short\"", "config.toml:2: web.token: must be at least 16"),
        ("[web]\nport = 1", "config.toml:2: web.port: unknown key"),
        ("web = 1", "config.toml:1: web: must be a table"),
    ])
    func webMistakesNameTheLine(text: String, message: String) {
        #expect {
            _ = try parse(text)
        } throws: { error in
            "\(error)".hasPrefix(message)
        }
    }

    @Test func readsEveryKey() throws {
        let config = try parse("""
            database = "~/lens/index.db"
            workers = 3
            languages = ["eng", "deu"]
            region = "GB"
            stability_ms = 500
            log_level = "debug"
            max_file_mb = 20
            max_megapixels = 40
            symlinks = "never"

            [[folders]]
            path = "~/Pictures/Screenshots"

            [[folders]]
            path = "/mnt/nas/shots"
            recursive = false
            include = ["*.png"]
            exclude = ["tmp*"]
            languages = ["fra"]
            region = "FR"
            enabled = false
            delete_after_import = true
            poll_interval = 30
            """)
        #expect(config.database == "/home/u/lens/index.db")
        #expect(config.workers == 3)
        #expect(config.languages == ["eng", "deu"])
        #expect(config.region == "GB")
        #expect(config.stabilityMilliseconds == 500)
        #expect(config.logLevel == "debug")
        #expect(config.maximumFileBytes == 20 << 20 && config.maximumPixels == 40_000_000 && config.symlinks == .never)
        var nas = LensConfiguration.Folder(path: "/mnt/nas/shots", recursive: false, include: ["*.png"], exclude: ["tmp*"],
                                           languages: ["fra"], isEnabled: false, deletesAfterImport: true, pollInterval: 30)
        nas.region = "FR"
        #expect(config.folders == [LensConfiguration.Folder(path: "/home/u/Pictures/Screenshots"), nas])
    }

    @Test(arguments: [
        ("workers = \"two\"", "config.toml:1: workers: must be a whole number"),
        ("workers = 0", "config.toml:1: workers: must be between 1 and 64"),
        ("\nstabilty_ms = 5", "config.toml:2: stabilty_ms: unknown key"),
        ("log_level = \"loud\"", "config.toml:1: log_level: must be one of"),
        ("languages = \"eng\"", "config.toml:1: languages: must be an array of strings"),
        ("languages = []", "config.toml:1: languages: must name at least one language"),
        ("region = \"usa\"", "config.toml:1: region: must be a two-letter ISO 3166 code"),
        ("[[folders]]\npath = \"/a\"\nregion = \"de\"", "config.toml:3: folders[1].region: must be a two-letter ISO 3166 code"),
        ("workers = 2\n[[folders]]\nrecursive = true", "config.toml:2: folders[1].path: is required"), // the header
        ("[[folders]]\npath = \"/a\"\n\n[[folders]]\npath = \"/b\"\nenabled = \"yes\"", "config.toml:6: folders[2].enabled: must be true or false"),
        ("[[folders]]\npath = \"relative/dir\"", "config.toml:2: folders[1].path: must be an absolute path"),
        ("[[folders]]\npath = \"/a\"\npoll_intervall = 5", "config.toml:3: folders[1].poll_intervall: unknown key"),
        ("[[folders]]\npath = \"/a\"\npoll_interval = 0", "config.toml:3: folders[1].poll_interval: must be between 1 and 86400"),
        ("[[folders]]\npath = \"/a\"\n[[folders]]\npath = \"/a\"", "config.toml:4: folders[2].path: /a is listed twice"),
        ("workers = 2\nworkers = [", "config.toml:2: not valid TOML"),
        ("folders = 3", "config.toml:1: folders: must be an array of tables"),
        ("max_file_mb = 0", "config.toml:1: max_file_mb: must be between 1 and 4096"),
        ("max_megapixels = 5000", "config.toml:1: max_megapixels: must be between 1 and 1000"),
        ("symlinks = \"always\"", "config.toml:1: symlinks: must be \"inside\", \"follow\" or \"never\""),
    ])
    func problemsNameTheLineAndTheKey(text: String, expected: String) {
        #expect {
            _ = try parse(text)
        } throws: { error in
            (error as? ConfigurationError).map { "\($0)".hasPrefix(expected) } ?? false
        }
    }

    @Test func theDefaultTextParsesToTheDefaultsWithItsFolders() throws {
        let text = ConfigurationFile.defaultText(folders: ["/home/u/Pictures/Screenshots", "/home/u/Desk \"top\""])
        let config = try parse(text)
        #expect(config.folders.map(\.path) == ["/home/u/Pictures/Screenshots", "/home/u/Desk \"top\""])
        #expect(config.folders.allSatisfy { $0.isEnabled && !$0.deletesAfterImport && $0.recursive })
        var expected = LensConfiguration()
        expected.folders = config.folders
        #expect(config == expected)
        #expect(try parse(ConfigurationFile.defaultText(folders: [])) == LensConfiguration())
    }

    /// The example shipped in config/ is what `lens init` writes for ~/Pictures/Screenshots.
    @Test func theShippedExampleIsTheDefaultText() throws {
        let shipped = try String(contentsOf: TestSupport.packageRoot.appendingPathComponent("config/config.toml"), encoding: .utf8)
        #expect(shipped == ConfigurationFile.defaultText(folders: ["~/Pictures/Screenshots"]))
        #expect(try parse(shipped).folders.map(\.path) == ["/home/u/Pictures/Screenshots"])
    }

    @Test func theFileLocationFollowsXDG() {
        #expect(ConfigurationFile.path(explicit: nil, environment: ["HOME": "/h"]) == "/h/.config/lens/config.toml")
        #expect(ConfigurationFile.path(explicit: nil, environment: ["HOME": "/h", "XDG_CONFIG_HOME": "/x"]) == "/x/lens/config.toml")
        #expect(ConfigurationFile.path(explicit: nil, environment: ["HOME": "/h", "LENS_CONFIG": "/c.toml"]) == "/c.toml")
        #expect(ConfigurationFile.path(explicit: "/e.toml", environment: ["LENS_CONFIG": "/c.toml"]) == "/e.toml")
    }
}
