import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The page itself: one HTML document for every view (search, a screenshot, the mind map; the
/// script reads the path), and its scripts and styles, embedded in the binary at build time.
struct PageRoutes {
    let csrfToken: String

    /// The views' paths; each answers with the same document.
    static let views = ["/", "/screenshots/:id", "/map"]

    func register(on router: Router<BasicRequestContext>) {
        let document = Self.document(csrfToken: csrfToken)
        for view in Self.views {
            router.get(RouterPath(view)) { _, _ in
                Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                         body: .init(byteBuffer: ByteBuffer(string: document)))
            }
        }
        router.get("/assets/:name") { request, context -> Response in
            guard let name = context.parameters.get("name"), let asset = Self.assets[name] else {
                return JSONResponse.error(.notFound, "no such asset")
            }
            if request.headers[.ifNoneMatch] == asset.tag {
                return Response(status: .notModified, headers: [.eTag: asset.tag, .cacheControl: "no-cache"])
            }
            return Response(status: .ok, headers: [.contentType: asset.type, .eTag: asset.tag, .cacheControl: "no-cache"],
                            body: .init(byteBuffer: ByteBuffer(string: asset.text)))
        }
    }

    struct Asset: Sendable {
        var text: String
        var type: String
        var tag: String
    }

    /// Embedded files other than the HTML document, by name, with their type and a content tag.
    static let assets: [String: Asset] = Dictionary(uniqueKeysWithValues: EmbeddedAssets.files.compactMap { name, text in
        let type: String
        switch (name as NSString).pathExtension {
        case "js": type = "text/javascript; charset=utf-8"
        case "css": type = "text/css; charset=utf-8"
        case "svg": type = "image/svg+xml"
        default: return nil
        }
        return (name, Asset(text: text, type: type, tag: "\"\(contentTag(text))\""))
    })

    /// The HTML document with the CSRF token in its `<meta>` tag (hex: nothing to escape).
    static func document(csrfToken: String) -> String {
        let template = EmbeddedAssets.files["index.html"] ?? "<!doctype html><title>Lens</title>"
        return template.replacingOccurrences(of: "{{csrf-token}}", with: csrfToken)
    }

    /// FNV-1a over the text: a cheap tag that changes when an asset does.
    static func contentTag(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
