import Foundation
import HTTPTypes
import Hummingbird
import LensApp
import NIOCore

/// Answers in the shapes the command line prints with `--json` (``JSONOutput``).
enum JSONResponse {
    static func ok(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.cacheControl] = "no-store"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: try JSONOutput.encode(value))))
    }

    /// `{"error": message}` with the status; the message names what was wrong and never echoes markup
    /// unescaped (it is JSON, served as JSON).
    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        struct Body: Encodable { var error: String }
        let text = (try? JSONOutput.encode(Body(error: message))) ?? #"{"error":"internal error"}"#
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
