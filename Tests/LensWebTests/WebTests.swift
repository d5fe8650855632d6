import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LensApp
import LensCore
import LensTestSupport
import Logging
import NIOCore
import Testing
@testable import LensWeb

/// A library made from the bundled samples (real Tesseract, real SQLite), copied into a temporary
/// folder so that tests may change or remove the files.
struct WebFixture {
    let folder: URL
    let library: Library
    let settings: WebSettings
    let csrf = "test-csrf-token-0123456789abcdef"

    init(token: String? = nil, store kind: StoreKind = .sqlite) async throws {
        folder = try TestSupport.makeTemporaryFolder("lens-web")
        let images = folder.appendingPathComponent("shots")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: TestSupport.samplesFolder.path) where name.hasSuffix(".png") {
            try FileManager.default.copyItem(at: TestSupport.samplesFolder.appendingPathComponent(name), to: images.appendingPathComponent(name))
        }
        library = kind == .sqlite ? try Library(databasePath: folder.appendingPathComponent("lens.db").path)
            : try Library(store: .postgresql(try PostgresCluster.shared.get().makeDatabase()))
        let summary = try await Importer(library: library, options: ImportOptions(workers: 2), logger: Logger(label: "test")).run(paths: [images.path])
        #expect(summary.failed.isEmpty)
        // As lens import does after OCR; on a thread of its own, not Swift's cooperative pool,
        // which the other tests' event loops and watchers need (2 threads on CI's 2 cores).
        let library = self.library
        try await withTaskExecutorPreference(Self.embeddingExecutor) {
            _ = try library.fillEmbeddings(with: try EmbeddingModel.load())
        }
        settings = WebSettings(listen: .init(host: "127.0.0.1", port: 7466), token: token,
                               thumbnails: ThumbnailCache(folder: folder.appendingPathComponent("cache").path))
    }

    /// One library a store for the tests that only read, made once.
    static func shared(_ kind: StoreKind = .sqlite) async throws -> WebFixture {
        try await (kind == .sqlite ? sharedTask : sharedPostgresTask).value
    }
    private static let embeddingExecutor = ThreadExecutor(name: "lens-test-web-embeddings")
    private static let sharedTask = Task { try await WebFixture() }
    private static let sharedPostgresTask = Task { try await WebFixture(store: .postgresql) }

    func path(_ name: String) -> String { folder.appendingPathComponent("shots/\(name).png").path }

    func id(of name: String) throws -> Int64 {
        try #require(try library.screenshot(idOrPath: path(name))).id
    }

    func test(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let router = WebServer.makeRouter(library: library, settings: settings, csrfToken: csrf)
        try await Application(router: router).test(.router, body)
    }

    var changeHeaders: HTTPFields { [.csrfToken: csrf, .contentType: "application/json"] }
}

func json(_ buffer: ByteBuffer) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(buffer: buffer), options: [.fragmentsAllowed])
}

func body(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

// Serialized: each test imports the samples with real Tesseract (about half a second alone);
// thirty imports at once on two cores take over a minute each.
@Suite("lens serve: the HTTP API", .serialized)
struct WebAPITests {
    @Test(arguments: StoreKind.allCases)
    func searchAnswersWithTheCLIShapeAndServerTiming(_ kind: StoreKind) async throws {
        let fixture = try await WebFixture.shared(kind)
        try await fixture.test { client in
            try await client.execute(uri: "/api/search?q=cafe", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
                let timing = try #require(response.headers[.serverTiming])
                #expect(timing.range(of: #"^search;dur=\d+(\.\d+)?$"#, options: .regularExpression) != nil)
                #expect(response.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
                // The two holding the word, then (marked) those found by meaning alone.
                let all = try #require(try json(response.body) as? [[String: Any]])
                let hits = Array(all.prefix { $0["semantic"] == nil })
                #expect(all.dropFirst(hits.count).allSatisfy { $0["semantic"] as? Bool == true })
                #expect(Set(hits.compactMap { ($0["path"] as? String)?.split(separator: "/").last }) == ["receipt_light.png", "contact_card.png"])
                let first = try #require(hits.first)
                for key in ["id", "path", "paths", "score", "snippet", "matches", "captured_at", "imported_at"] {
                    #expect(first[key] != nil, "missing \(key)")
                }
                // The match offsets point at the marked word inside its brackets.
                let snippet = try #require(first["snippet"] as? String)
                let match = try #require((first["matches"] as? [[Int]])?.first)
                let utf16 = Array(snippet.utf16)
                #expect(String(decoding: utf16[match[0]..<match[1]], as: UTF16.self).lowercased().hasPrefix("caf"))
                #expect(utf16[match[0] - 1] == UInt16(UInt8(ascii: "[")) && utf16[match[1]] == UInt16(UInt8(ascii: "]")))
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anEmptySearchPagesThroughTheLibraryNewestFirst(_ kind: StoreKind) async throws {
        let fixture = try await WebFixture.shared(kind)
        try await fixture.test { client in
            var seen: [Int] = []
            var dates: [String] = []
            for offset in stride(from: 0, to: 12, by: 3) {
                try await client.execute(uri: "/api/search?limit=3&offset=\(offset)", method: .get) { response in
                    #expect(response.status == .ok)
                    let hits = try #require(try json(response.body) as? [[String: Any]])
                    seen += hits.compactMap { $0["id"] as? Int }
                    dates += hits.compactMap { $0["captured_at"] as? String }
                }
            }
            #expect(seen.count == TestSupport.samplePNGCount)
            #expect(Set(seen).count == seen.count)
            #expect(dates == dates.sorted(by: >))
        }
    }

    @Test(arguments: [
        ("/api/search?q=a&limit=0", "limit"), ("/api/search?q=a&limit=201", "limit"), ("/api/search?q=a&offset=-1", "offset"),
        ("/api/search?since=someday", "someday"), ("/api/search?type=bogus", "bogus"), ("/api/search?q=x*", "prefix"),
        ("/api/search?tag=a%20b", "tag"), ("/api/graph?min_score=2", "min_score"), ("/api/graph?type=date", "type"),
    ])
    func badParametersAreRefusedWithAReason(uri: String, mentioning word: String) async throws {
        let fixture = try await WebFixture.shared()
        try await fixture.test { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .badRequest)
                let message = try #require((try json(response.body) as? [String: String])?["error"])
                #expect(message.contains(word), "\(uri): \(message)")
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func hostileQueriesNeverReachSQL(_ kind: StoreKind) async throws {
        let fixture = try await WebFixture.shared(kind)
        try await fixture.test { client in
            for query in ["%22", "a%20OR", "NEAR(a%20b)", "col%3Aterm", "%2A%2A%2A", "%27%3B%20DROP%20TABLE%20screenshot%3B--", "%00", String(repeating: "a", count: 5000)] {
                try await client.execute(uri: "/api/search?q=\(query)", method: .get) { response in
                    #expect(response.status == .ok || response.status == .badRequest, "\(query): \(response.status)")
                }
            }
            try await client.execute(uri: "/api/search?q=receipt&meaning=off", method: .get) { response in
                try #expect((json(response.body) as? [Any])?.count == 1)
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func meaningComesAfterWordsAndIsMarked(_ kind: StoreKind) async throws {
        let fixture = try await WebFixture.shared(kind)
        let receipt = try fixture.id(of: "receipt_light")
        let query = "dessert%20bought%20at%20a%20coffee%20shop"
        try await fixture.test { client in
            func hits(_ uri: String) async throws -> [[String: Any]] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .ok, "\(uri)")
                    return try #require(try json(response.body) as? [[String: Any]])
                }
            }
            // Plain search and meaning only: the receipt, marked; words only or as-you-type: nothing.
            for uri in ["/api/search?q=\(query)", "/api/search?q=\(query)&meaning=only", "/api/search?q=\(query)&typing=1&meaning=on"] {
                let found = try await hits(uri)
                #expect(found.first?["id"] as? Int64 == receipt && found.first?["semantic"] as? Bool == true, "\(uri)")
            }
            for uri in ["/api/search?q=\(query)&meaning=off", "/api/search?q=\(query)&typing=1", "/api/search?q=\(query)&exact=1"] {
                #expect(try await hits(uri).isEmpty, "\(uri)")
            }
            // Words first: the receipt holds "espresso", unmarked; others may follow by meaning.
            let espresso = try await hits("/api/search?q=espresso")
            #expect(espresso.first?["id"] as? Int64 == receipt && espresso.first?["semantic"] == nil)
            try await client.execute(uri: "/api/search?q=x&meaning=maybe", method: .get) { response in
                #expect(response.status == .badRequest)
            }
            // Similar screenshots: never itself; an unknown id is 404.
            let similar = try await hits("/api/screenshots/\(receipt)/similar?limit=3")
            #expect(similar.count <= 3 && !similar.contains { $0["id"] as? Int64 == receipt })
            #expect(similar.allSatisfy { $0["semantic"] as? Bool == true })
            try await client.execute(uri: "/api/screenshots/99999/similar", method: .get) { response in #expect(response.status == .notFound) }
            try await client.execute(uri: "/api/screenshots/\(receipt)/similar?limit=0", method: .get) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aScreenshotHasItsWordBoxesAndTheMatchedWords(_ kind: StoreKind) async throws {
        let fixture = try await WebFixture.shared(kind)
        let id = try fixture.id(of: "receipt_light")
        try await fixture.test { client in
            try await client.execute(uri: "/api/screenshots/\(id)?q=receipt%20espresso", method: .get) { response in
                #expect(response.status == .ok)
                let shot = try #require(try json(response.body) as? [String: Any])
                #expect(shot["id"] as? Int == Int(id))
                #expect(shot["width"] as? Int == 760 && shot["height"] as? Int == 420)
                let words = try #require(shot["words"] as? [[String: Any]])
                #expect(words.count > 20)
                for word in words {
                    let box = try #require(word["box"] as? [Int])
                    #expect(box.count == 4 && box[0] >= 0 && box[1] >= 0 && box[0] + box[2] <= 760 && box[1] + box[3] <= 420)
                }
                let highlights = try #require(shot["highlights"] as? [Int])
                let matched = highlights.map { (words[$0]["text"] as? String ?? "").lowercased() }
                #expect(Set(matched) == ["receipt", "espresso"])
                #expect((shot["entities"] as? [[String: Any]])?.contains { $0["type"] as? String == "phone" } == true)
                let connections = try #require(shot["connections"] as? [[String: Any]])
                #expect(connections.contains { ($0["via"] as? [String])?.contains("phone: +14155550132") == true })
            }
        }
    }

    @Test(arguments: [
        "/api/screenshots/999999", "/api/screenshots/0", "/api/screenshots/-1", "/api/screenshots/abc",
        "/api/screenshots/..%2F..%2Fetc%2Fpasswd", "/images/..%2F..%2F..%2Fetc%2Fpasswd", "/images/999999",
        "/thumbnails/%2Fetc%2Fpasswd", "/thumbnails/1.png", "/images/1%00", "/assets/..%2FPackage.swift", "/assets/missing.js",
    ])
    func unknownAndTraversalLookingIDsGive404(uri: String) async throws {
        let fixture = try await WebFixture.shared()
        try await fixture.test { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .notFound, "\(uri): \(response.status)")
                let text = String(buffer: response.body)
                #expect(!text.contains("root:") && !text.contains("PackageDescription"))
            }
        }
    }

    @Test func imagesAreTheOriginalBytesUntilTheFileChanges() async throws {
        let fixture = try await WebFixture()
        let id = try fixture.id(of: "terminal")
        let original = try Data(contentsOf: URL(fileURLWithPath: fixture.path("terminal")))
        try await fixture.test { client in
            try await client.execute(uri: "/images/\(id)", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                #expect(Data(buffer: response.body) == original)
            }
            try Data(original.prefix(2000)).write(to: URL(fileURLWithPath: fixture.path("terminal")))
            try await client.execute(uri: "/images/\(id)", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(String(buffer: response.body).contains("none of its files is still there with the same content"))
            }
        }
    }

    @Test func thumbnailsAreSmallJPEGsMadeOnceAndCached() async throws {
        let fixture = try await WebFixture()
        let id = try fixture.id(of: "retina_chat") // 1170 x 1260 pixels
        try await fixture.test { client in
            let tag = try await client.execute(uri: "/thumbnails/\(id)", method: .get) { response -> String in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/jpeg")
                let size = try #require(jpegSize(Array(Data(buffer: response.body))))
                #expect(max(size.width, size.height) == 400)
                return try #require(response.headers[.eTag])
            }
            try await client.execute(uri: "/thumbnails/\(id)", method: .get, headers: [.ifNoneMatch: tag]) { response in
                #expect(response.status == .notModified)
            }
        }
        let cached = try FileManager.default.subpathsOfDirectory(atPath: fixture.settings.thumbnails.folder).filter { $0.hasSuffix(".jpg") }
        #expect(cached.count == 1)
        let attributes = try FileManager.default.attributesOfItem(atPath: fixture.settings.thumbnails.folder + "/" + cached[0])
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        // Served from the cache once the original is gone.
        try FileManager.default.removeItem(atPath: fixture.path("retina_chat"))
        try await fixture.test { client in
            try await client.execute(uri: "/thumbnails/\(id)", method: .get) { response in #expect(response.status == .ok) }
            try await client.execute(uri: "/images/\(id)", method: .get) { response in #expect(response.status == .notFound) }
        }
    }

    @Test func changesNeedThePagesCSRFTokenAndNoForeignOrigin() async throws {
        let fixture = try await WebFixture()
        let id = try fixture.id(of: "chat_dark")
        let change = body(#"{"add": ["work", "q3"]}"#)
        try await fixture.test { client in
            for headers: HTTPFields in [[:], [.csrfToken: "wrong"], [.csrfToken: fixture.csrf, .origin: "http://evil.example"],
                                        [.csrfToken: fixture.csrf, .secFetchSite: "cross-site"]] {
                try await client.execute(uri: "/api/screenshots/\(id)/tags", method: .post, headers: headers, body: change) { response in
                    #expect(response.status == .forbidden, "\(headers)")
                }
            }
            try await client.execute(uri: "/api/search?tag=work", method: .get) { response in
                try #expect((json(response.body) as? [Any])?.isEmpty == true)
            }
            var good = fixture.changeHeaders
            good[.origin] = "http://localhost"
            try await client.execute(uri: "/api/screenshots/\(id)/tags", method: .post, headers: good, body: change) { response in
                #expect(response.status == .ok)
                try #expect(Set((json(response.body) as? [String: Any])?["tags"] as? [String] ?? []) == ["q3", "work"])
            }
            try await client.execute(uri: "/api/search?tag=work", method: .get) { response in
                try #expect((json(response.body) as? [[String: Any]])?.map { $0["id"] as? Int } == [Int(id)])
            }
            try await client.execute(uri: "/api/screenshots/\(id)/tags", method: .post, headers: fixture.changeHeaders,
                                     body: body(#"{"add": ["<script>"]}"#)) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    @Test(arguments: [("evil.example", false), ("evil.example:7466", false), ("127.0.0.1.evil.example", false), ("", false),
                      ("localhost:7466", true), ("127.0.0.1:7466", true), ("[::1]:7466", true), ("LOCALHOST", true)])
    func theHostHeaderMustNameThisMachine(host: String, allowed: Bool) async throws {
        let fixture = try await WebFixture.shared()
        // Through a real HTTP/1 parser: it makes the Host header the request's authority.
        let router = WebServer.makeRouter(library: fixture.library, settings: fixture.settings, csrfToken: fixture.csrf)
        try await Application(router: router).test(.live) { client in
            let port = try #require(client.port)
            for uri in ["/", "/api/search?q=cafe", "/images/1"] {
                let answer = try RawHTTP.exchange(port: port, "GET \(uri) HTTP/1.1\r\n" + (host.isEmpty ? "" : "Host: \(host)\r\n") + "Connection: close\r\n\r\n")
                #expect(!answer.hasPrefix("HTTP/1.1 403") == allowed, "\(host) \(uri): \(answer.prefix(40))")
                #expect(!answer.hasPrefix("HTTP/1.1 5"), "\(host) \(uri): \(answer.prefix(40))")
            }
        }
    }

    @Test func aConfiguredTokenIsNeededOnEveryRequest() async throws {
        let token = "0123456789abcdef0123456789abcdef"
        let fixture = try await WebFixture(token: token)
        try await fixture.test { client in
            try await client.execute(uri: "/api/search?q=cafe", method: .get) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/api/search?q=cafe", method: .get, headers: [.authorization: "Bearer nope"]) {
                #expect($0.status == .unauthorized)
            }
            try await client.execute(uri: "/api/search?q=cafe", method: .get, headers: [.authorization: "Bearer \(token)"]) {
                #expect($0.status == .ok)
            }
            try await client.execute(uri: "/?token=\(token)", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.setCookie]?.contains("HttpOnly") == true)
            }
            try await client.execute(uri: "/api/search?q=cafe", method: .get, headers: [.cookie: "lens_token=\(token)"]) {
                #expect($0.status == .ok)
            }
        }
    }

    @Test func aNonLoopbackAddressIsRefusedWithoutAToken() throws {
        let library = try Library(databasePath: try TestSupport.makeTemporaryFolder().appendingPathComponent("lens.db").path)
        #expect(throws: WebServerError.self) {
            _ = try WebServer.makeApplication(library: library, settings: WebSettings(listen: .init(host: "0.0.0.0", port: 0)),
                                              logger: Logger(label: "test"))
        }
        _ = try WebServer.makeApplication(library: library, settings: WebSettings(listen: .init(host: "0.0.0.0", port: 0), token: "x"),
                                          logger: Logger(label: "test"))
        _ = try WebServer.makeApplication(library: library, settings: WebSettings(listen: .init(host: "127.0.0.2", port: 0)),
                                          logger: Logger(label: "test"))
    }

    @Test(arguments: StoreKind.allCases)
    func notesLinksDeleteAndUndoGoThroughTheUseCases(_ kind: StoreKind) async throws {
        let fixture = try await WebFixture(store: kind)
        let a = try fixture.id(of: "terminal"), b = try fixture.id(of: "small_text")
        try await fixture.test { client in
            try await client.execute(uri: "/api/screenshots/\(a)/note", method: .put, headers: fixture.changeHeaders,
                                     body: body(#"{"note": "deploy <b>notes</b>"}"#)) { response in
                #expect(response.status == .ok)
                try #expect((json(response.body) as? [String: Any])?["note"] as? String == "deploy <b>notes</b>")
            }
            try await client.execute(uri: "/api/links", method: .post, headers: fixture.changeHeaders,
                                     body: body(#"{"a": \#(a), "b": \#(b), "note": "same sprint"}"#)) { response in
                #expect(response.status == .created)
                let link = try #require(try json(response.body) as? [String: Any])
                #expect(link["id"] as? Int == Int(b) && link["manual"] as? Bool == true && link["note"] as? String == "same sprint")
            }
            try await client.execute(uri: "/api/links", method: .post, headers: fixture.changeHeaders, body: body(#"{"a": 1, "b": 999999}"#)) {
                #expect($0.status == .notFound)
            }
            try await client.execute(uri: "/api/links", method: .post, headers: fixture.changeHeaders, body: body("not json")) {
                #expect($0.status == .badRequest)
            }
            try await client.execute(uri: "/api/links/\(b)/\(a)", method: .delete, headers: fixture.changeHeaders) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/links/\(b)/\(a)", method: .delete, headers: fixture.changeHeaders) { #expect($0.status == .notFound) }

            try await client.execute(uri: "/api/screenshots/\(a)", method: .delete, headers: fixture.changeHeaders) { response in
                #expect(response.status == .ok)
                try #expect(((json(response.body) as? [String: Any])?["removed"] as? [Any])?.count == 1)
            }
            try await client.execute(uri: "/api/screenshots/\(a)", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/api/search?q=deploy&meaning=off", method: .get) { try #expect((json($0.body) as? [Any])?.isEmpty == true) }
            // Gone from meaning's answers too.
            try await client.execute(uri: "/api/search?q=deploy", method: .get) {
                try #expect((json($0.body) as? [[String: Any]])?.contains { $0["id"] as? Int64 == a } == false)
            }
            try await client.execute(uri: "/api/undo", method: .post, headers: [.csrfToken: fixture.csrf]) { response in
                #expect(response.status == .ok)
                try #expect((json(response.body) as? [String: Any])?["restored"] as? [Int] == [Int(a)])
            }
            try await client.execute(uri: "/api/screenshots/\(a)", method: .get) { response in
                #expect(response.status == .ok)
                try #expect((json(response.body) as? [String: Any])?["note"] as? String == "deploy <b>notes</b>")
            }
            // The import batch itself: as on the command line, it must be confirmed.
            try await client.execute(uri: "/api/undo", method: .post, headers: [.csrfToken: fixture.csrf]) { response in
                #expect(response.status == .conflict)
                #expect(String(buffer: response.body).contains(#"\"confirm\": true"#))
            }
            try await client.execute(uri: "/api/undo", method: .post, headers: fixture.changeHeaders, body: body("{\"confirm\": true}")) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/api/undo", method: .post, headers: [.csrfToken: fixture.csrf]) { response in
                #expect(response.status == .conflict)
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theGraphIsLensGraphsJSON(_ kind: StoreKind) async throws {
        let fixture = try await WebFixture.shared(kind)
        let contact = try fixture.id(of: "contact_card")
        try await fixture.test { client in
            try await client.execute(uri: "/api/graph", method: .get) { response in
                let graph = try #require(try json(response.body) as? [String: Any])
                let edges = try #require(graph["edges"] as? [[String: Any]])
                #expect(edges.count == 2)
                #expect(edges.allSatisfy { $0["source"] as? Int == Int(contact) || $0["target"] as? Int == Int(contact) })
                #expect((graph["nodes"] as? [[String: Any]])?.count == 3)
            }
            try await client.execute(uri: "/api/graph?type=phone", method: .get) { response in
                let edges = try #require((try json(response.body) as? [String: Any])?["edges"] as? [[String: Any]])
                #expect(edges.map { $0["via"] as? [String] ?? [] } == [["phone: +14155550132"]])
            }
            try await client.execute(uri: "/api/graph?around=\(contact)&depth=1&isolated=1", method: .get) { response in
                try #expect(((json(response.body) as? [String: Any])?["nodes"] as? [Any])?.count == 3)
            }
        }
    }

    @Test func thePageCarriesItsTokenAndNoInlineScript() async throws {
        let fixture = try await WebFixture.shared()
        try await fixture.test { client in
            for uri in ["/", "/screenshots/3", "/map"] {
                try await client.execute(uri: uri, method: .get) { response in
                    let html = String(buffer: response.body)
                    #expect(html.contains(#"<meta name="csrf-token" content="\#(fixture.csrf)">"#))
                    #expect(html.components(separatedBy: "<script").count == 2 && html.contains(#"<script type="module" src="/assets/app.js">"#))
                    #expect(!html.contains(" on") || !html.contains("onclick="))
                }
            }
            let tag = try await client.execute(uri: "/assets/app.js", method: .get) { response -> String in
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
                #expect(String(buffer: response.body).contains("X-CSRF-Token"))
                return try #require(response.headers[.eTag])
            }
            try await client.execute(uri: "/assets/app.js", method: .get, headers: [.ifNoneMatch: tag]) { #expect($0.status == .notModified) }
            try await client.execute(uri: "/assets/", method: .get) { #expect($0.status == .notFound) }
        }
    }
}

/// Width and height from a JPEG's start-of-frame segment.
func jpegSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
    var i = 2
    while i + 9 < bytes.count {
        guard bytes[i] == 0xFF else { return nil }
        let marker = bytes[i + 1]
        let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
        if (0xC0...0xC3).contains(marker) {
            return (Int(bytes[i + 7]) << 8 | Int(bytes[i + 8]), Int(bytes[i + 5]) << 8 | Int(bytes[i + 6]))
        }
        i += 2 + length
    }
    return nil
}
