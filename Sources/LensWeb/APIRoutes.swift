import Foundation
import HTTPTypes
import Hummingbird
import LensApp
import LensCore
import Logging
import NIOCore

/// The JSON API and the images. Every answer is what the command line's `--json` prints for the
/// same question; changes go through the same use cases as `lens tag`, `lens note`, `lens link`,
/// `lens delete` and `lens undo`.
struct APIRoutes {
    let library: Library
    let settings: WebSettings
    var logger = Logger(label: "lens.web")
    let facetsCache = FacetsCache()

    /// The most results one search request returns.
    static let maximumLimit = 200
    /// The most values one filter of a search takes (`tag=`, `type=`, `entity=`): each is a
    /// condition on every candidate row.
    static let maximumFilterValues = 16

    func register(on router: Router<BasicRequestContext>) {
        router.get("/api/search") { request, _ in await respond { try await search(request) } }
        router.get("/api/screenshots/:id") { request, context in
            await respond {
                let parameters = request.uri.queryParameters
                let typing = parameters["typing"] == "1" || parameters["typing"] == "true"
                return try await screenshot(try id(context), query: parameters["q"].map { typing ? SearchForm.completingLastWord(String($0)) : String($0) })
            }
        }
        router.get("/api/screenshots/:id/similar") { request, context in
            await respond {
                let id = try id(context)
                var limit = 12
                if let text = request.uri.queryParameters["limit"] {
                    guard let value = Int(text), (1...Self.maximumLimit).contains(value) else {
                        throw APIError(.badRequest, "limit must be a number from 1 to \(Self.maximumLimit)")
                    }
                    limit = value
                }
                let hits = try await offloaded { [library, limit] () throws -> [JSONOutput.Hit] in
                    guard try library.exists(id) else { throw ScreenshotFileError.noSuchScreenshot(id) }
                    // Not read for meaning yet: none known to be similar (an error would be logged
                    // by every browser showing a screenshot the daemon has not reached).
                    do { return try library.similar(to: id, limit: limit).map(JSONOutput.Hit.init) } catch is MeaningError { return [] }
                }
                return try JSONResponse.ok(hits)
            }
        }
        router.post("/api/screenshots/:id/tags") { request, context in
            await respond {
                let id = try id(context)
                let change = try await decode(TagChange.self, request, context)
                let invalid = (change.add ?? []) + (change.remove ?? [])
                if let bad = invalid.first(where: { !Library.isTag($0) }) { throw APIError(.badRequest, AnnotationError.invalidTag(bad).description) }
                try await offloaded { [library, facetsCache] in
                    guard try library.exists(id) else { throw ScreenshotFileError.noSuchScreenshot(id) }
                    try library.changeTags(of: id, adding: change.add ?? [], removing: change.remove ?? [])
                    facetsCache.invalidate()
                }
                return try await screenshot(id, query: nil)
            }
        }
        router.put("/api/screenshots/:id/note") { request, context in
            await respond {
                let id = try id(context)
                let change = try await decode(NoteChange.self, request, context)
                try await offloaded { [library] in
                    guard try library.exists(id) else { throw ScreenshotFileError.noSuchScreenshot(id) }
                    try library.setNote(of: id, to: change.note)
                }
                return try await screenshot(id, query: nil)
            }
        }
        router.delete("/api/screenshots/:id") { _, context in
            await respond {
                let id = try id(context)
                let report = try await offloaded { [library, facetsCache] in
                    guard try library.exists(id) else { throw ScreenshotFileError.noSuchScreenshot(id) }
                    defer { facetsCache.invalidate() }
                    return try HistoryUseCases.delete(library, ids: [id], deletingFiles: false, trashFolder: nil)
                }
                return try JSONResponse.ok(report)
            }
        }
        router.post("/api/undo") { request, context in
            await respond {
                let body = try await decode(UndoRequest.self, request, context, allowingEmpty: true)
                let report = try await offloaded { [library, settings, facetsCache] in
                    defer { facetsCache.invalidate() }
                    // As on the command line: an import, or a large batch, needs to be confirmed.
                    let (candidate, needsConfirmation) = try HistoryUseCases.undoCandidate(library, batch: body?.batch, undoDays: settings.undoDays)
                    if needsConfirmation && body?.confirm != true {
                        throw APIError(.conflict, "undoing batch \(candidate.id) (\(candidate.kind.rawValue), \(candidate.items) screenshots) "
                                       + "takes them out of the library: send {\"batch\": \(candidate.id), \"confirm\": true}")
                    }
                    return try HistoryUseCases.undo(library, batch: candidate.id, undoDays: settings.undoDays)
                }
                return try JSONResponse.ok(report)
            }
        }
        router.post("/api/links") { request, context in
            await respond {
                let link = try await decode(LinkRequest.self, request, context)
                guard link.a != link.b else { throw APIError(.badRequest, "a link needs two different screenshots") }
                let connections = try await offloaded { [library] in
                    guard try library.link(link.a, link.b, note: link.note) else {
                        throw APIError(.notFound, "no screenshot with id \(link.a) or \(link.b)")
                    }
                    return try library.connections(of: link.a)
                }
                return try JSONResponse.ok(connections.first { $0.other == link.b }, status: .created)
            }
        }
        router.delete("/api/links/:a/:b") { _, context in
            await respond {
                guard let a = context.parameters.get("a", as: Int64.self), let b = context.parameters.get("b", as: Int64.self) else {
                    throw APIError(.notFound, "a link is /api/links/ID/ID")
                }
                let removed = try await offloaded { [library] in try library.unlink(a, b) }
                guard removed else { throw APIError(.notFound, "\(a) and \(b) are not linked by hand") }
                struct Unlinked: Encodable { var a: Int64; var b: Int64; var removed: Bool }
                return try JSONResponse.ok(Unlinked(a: min(a, b), b: max(a, b), removed: true))
            }
        }
        router.get("/api/graph") { request, _ in await respond { try await graph(request) } }
        router.get("/api/facets") { _, _ in
            await respond {
                let facets = try await offloaded { [library, facetsCache] in
                    let mark = try library.changeMark()
                    if let cached = facetsCache.value(for: mark) { return cached }
                    let fresh = try library.facets()
                    facetsCache.store(fresh, for: mark)
                    return fresh
                }
                return try JSONResponse.ok(facets)
            }
        }
        router.get("/thumbnails/:id") { request, context in
            await respond {
                let id = try id(context)
                let (bytes, tag) = try await offloaded { [library, settings] in try settings.thumbnails.thumbnail(of: id, in: library) }
                return Self.image(bytes, type: "image/jpeg", tag: "\"\(tag)\"", request: request, cacheControl: "private, max-age=300")
            }
        }
        router.get("/images/:id") { request, context in
            await respond {
                let id = try id(context)
                let image = try await offloaded { [library] in try library.originalImage(id: id) }
                return Self.image(image.bytes, type: "image/\(image.format.rawValue)", tag: "\"\(image.sha256.prefix(32))\"",
                                  request: request, cacheControl: "private, no-cache")
            }
        }
    }

    // MARK: Handlers

    func search(_ request: Request) async throws -> Response {
        let started = ContinuousClock.now
        let query = request.uri.queryParameters
        var form = SearchForm()
        form.text = query["q"].map(String.init) ?? ""
        form.folder = query["folder"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
        form.since = query["since"].map(String.init)
        form.until = query["until"].map(String.init)
        form.types = query[values: "type"].map(String.init).filter { !$0.isEmpty }
        form.entities = query[values: "entity"].map(String.init).filter { !$0.isEmpty }
        form.tags = query[values: "tag"].map(String.init).filter { !$0.isEmpty }
        for (name, values) in [("type", form.types), ("entity", form.entities), ("tag", form.tags)] where values.count > Self.maximumFilterValues {
            throw APIError(.badRequest, "\(values.count) \(name) filters; at most \(Self.maximumFilterValues) are accepted")
        }
        form.region = settings.region
        form.isBeingTyped = query["typing"] == "1" || query["typing"] == "true"
        form.isExact = query["exact"] == "1" || query["exact"] == "true"
        switch query["meaning"] {
        case nil: break
        case "only": form.meaning = .only
        case "1", "true", "on": form.meaning = .alongWords
        case "0", "false", "off": form.meaning = .off
        case let other?: throw APIError(.badRequest, "meaning must be on, off or only, not '\(other)'")
        }
        if let text = query["limit"] {
            guard let limit = Int(text), (1...Self.maximumLimit).contains(limit) else {
                throw APIError(.badRequest, "limit must be a number from 1 to \(Self.maximumLimit)")
            }
            form.limit = limit
        }
        if let text = query["offset"] {
            guard let offset = Int(text), offset >= 0 else { throw APIError(.badRequest, "offset must be a number from 0") }
            form.offset = offset
        }
        let searchRequest: SearchRequest
        do {
            searchRequest = try form.request(listingWhenEmpty: true)
        } catch {
            throw APIError(.badRequest, error.description)
        }
        let hits = try await offloaded { [library] in try library.search(searchRequest) }
        let body = try JSONOutput.encode(hits.map(JSONOutput.Hit.init))
        let milliseconds = Double((ContinuousClock.now - started).components.attoseconds) / 1e15
            + Double((ContinuousClock.now - started).components.seconds) * 1000
        return Response(status: .ok, headers: [
            .contentType: "application/json; charset=utf-8", .cacheControl: "no-store",
            .serverTiming: String(format: "search;dur=%.2f", milliseconds),
        ], body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    func screenshot(_ id: Int64, query: String?) async throws -> Response {
        let parsed = query.flatMap { try? SearchQuery(parsing: $0) }
        let answer = try await offloaded { [library] () throws -> ScreenshotAnswer in
            guard let detail = try library.screenshot(id: id) else { throw ScreenshotFileError.noSuchScreenshot(id) }
            let highlights = parsed.map { query in detail.wordTexts.indices.filter { query.highlights(word: detail.wordTexts[$0]) } } ?? []
            return ScreenshotAnswer(screenshot: JSONOutput.Screenshot(detail, includeWords: true), highlights: highlights,
                                    connections: try library.connections(of: id))
        }
        return try JSONResponse.ok(answer)
    }

    func graph(_ request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        func number<T: LosslessStringConvertible>(_ name: String, _ type: T.Type) throws -> T? {
            guard let text = query[Substring(name)], !text.isEmpty else { return nil }
            guard let value = T(String(text)) else { throw APIError(.badRequest, "\(name) must be a number") }
            return value
        }
        let minimumScore = try number("min_score", Double.self) ?? 0
        guard (0...1).contains(minimumScore) else { throw APIError(.badRequest, "min_score must be between 0 and 1") }
        let maximumNodes = try number("max_nodes", Int.self)
        if let maximumNodes, maximumNodes < 2 { throw APIError(.badRequest, "max_nodes must be at least 2") }
        let depth = try number("depth", Int.self) ?? 1
        guard (1...6).contains(depth) else { throw APIError(.badRequest, "depth must be between 1 and 6") }
        let around = try number("around", Int64.self)
        let type = query["type"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
        if let type, !["person", "email", "phone", "url"].contains(type) {
            throw APIError(.badRequest, "type must be person, email, phone or url")
        }
        let isolated = query["isolated"] == "true" || query["isolated"] == "1"
        let data = try await offloaded { [library] in
            let map = try MindMapUseCases.mindMap(library, minimumScore: minimumScore, type: type, around: around, depth: depth,
                                                  maximumNodes: maximumNodes, includingIsolated: isolated)
            return try MindMapUseCases.render(map, format: .json)
        }
        return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    // MARK: Helpers

    static func image(_ bytes: [UInt8], type: String, tag: String, request: Request, cacheControl: String) -> Response {
        if request.headers[.ifNoneMatch] == tag {
            return Response(status: .notModified, headers: [.eTag: tag, .cacheControl: cacheControl])
        }
        return Response(status: .ok, headers: [.contentType: type, .eTag: tag, .cacheControl: cacheControl],
                        body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    func id(_ context: BasicRequestContext) throws -> Int64 {
        guard let id = context.parameters.get("id", as: Int64.self), id > 0 else {
            throw APIError(.notFound, "no screenshot with id '\(context.parameters.get("id") ?? "")'")
        }
        return id
    }

    func decode<T: Decodable>(_ type: T.Type, _ request: Request, _ context: BasicRequestContext, allowingEmpty: Bool = false) async throws -> T? {
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: SecurityMiddleware.maximumBodyBytes)
        } catch let error as NIOTooManyBytesError {
            throw error
        } catch {
            // Broken chunked encoding, a connection closed mid-body: the client's request.
            throw APIError(.badRequest, "the request's body could not be read")
        }
        if buffer.readableBytes == 0 && allowingEmpty { return nil }
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer: buffer))
        } catch {
            throw APIError(.badRequest, "the body is not the JSON this call takes (\(T.self))")
        }
    }

    func decode<T: Decodable>(_ type: T.Type, _ request: Request, _ context: BasicRequestContext) async throws -> T {
        guard let value = try await decode(type, request, context, allowingEmpty: false) else {
            throw APIError(.badRequest, "a JSON body is needed")
        }
        return value
    }

    /// Runs a handler, turning every failure into a JSON error with the right status.
    func respond(_ body: () async throws -> Response) async -> Response {
        do {
            return try await body()
        } catch let error as APIError {
            return JSONResponse.error(error.status, error.message)
        } catch let error as ScreenshotFileError {
            return JSONResponse.error(.notFound, error.description)
        } catch let error as UndoError {
            return JSONResponse.error(.conflict, error.description)
        } catch let error as AnnotationError {
            return JSONResponse.error(.badRequest, error.description)
        } catch let error as SearchError {
            return JSONResponse.error(.unprocessableContent, error.description)
        } catch let error as MeaningError {
            // The model or the vectors are not there yet: the search by words still works.
            return JSONResponse.error(.conflict, error.description)
        } catch let error where Library.unsupportedHere(error) != nil {
            // What a shared library (PostgreSQL) does not do yet, said as such.
            return JSONResponse.error(.notImplemented, Library.unsupportedHere(error)!)
        } catch is NIOTooManyBytesError {
            return JSONResponse.error(.contentTooLarge, "the body is over \(SecurityMiddleware.maximumBodyBytes) bytes")
        } catch {
            // A storage problem the user can act on (disk full, locked) says so; anything else
            // may carry SQL or internal names, which are logged, never sent.
            if let explanation = Library.explanation(of: error, path: "the database") {
                return JSONResponse.error(.serviceUnavailable, explanation)
            }
            logger.error("request failed", metadata: ["error": "\(String(reflecting: type(of: error)))", "detail": "\(error)"])
            return JSONResponse.error(.internalServerError, "internal error (the server's log says more)")
        }
    }
}

/// A failure with the status to answer it with.
struct APIError: Error {
    var status: HTTPResponse.Status
    var message: String
    init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }
}

struct TagChange: Decodable { var add: [String]?; var remove: [String]? }
struct NoteChange: Decodable { var note: String? }
struct UndoRequest: Decodable { var batch: Int64?; var confirm: Bool? }
struct LinkRequest: Decodable { var a: Int64; var b: Int64; var note: String? }

/// The last facets, valid while the library's change mark stays the same and nothing was
/// changed through this server (a tag added here does not move the mark).
final class FacetsCache: @unchecked Sendable {
    private let lock = NSLock()
    private var mark: String?
    private var facets: Facets?

    func value(for mark: String) -> Facets? {
        lock.withLock { self.mark == mark ? facets : nil }
    }

    func store(_ facets: Facets, for mark: String) {
        lock.withLock {
            self.mark = mark
            self.facets = facets
        }
    }

    func invalidate() {
        lock.withLock { mark = nil }
    }
}

/// `lens show --json --words`, plus the indexes of the words the query matched and the
/// screenshot's connections.
struct ScreenshotAnswer: Encodable, @unchecked Sendable {
    var screenshot: JSONOutput.Screenshot
    var highlights: [Int]
    var connections: [MindMapConnection]

    enum CodingKeys: String, CodingKey { case highlights, connections }

    func encode(to encoder: any Encoder) throws {
        try screenshot.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(highlights, forKey: .highlights)
        try container.encode(connections, forKey: .connections)
    }
}
