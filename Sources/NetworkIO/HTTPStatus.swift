/// An HTTP response status (RFC 9110 §15): the code and the reason phrase sent with it.
public struct HTTPStatus: Hashable, Sendable, CustomStringConvertible {
    /// The three-digit status code.
    public var code: Int
    /// The reason phrase of the status line; clients ignore it.
    public var reasonPhrase: String

    /// A status with an explicit reason phrase.
    public init(code: Int, reasonPhrase: String) {
        self.code = code
        self.reasonPhrase = reasonPhrase
    }

    /// A status with the standard reason phrase for `code` (or an empty one for unknown codes).
    public init(code: Int) {
        self.init(code: code, reasonPhrase: Self.standardReasonPhrases[code] ?? "")
    }

    /// Whether the code is in the 2xx class.
    public var isSuccess: Bool { (200..<300).contains(code) }

    /// `200 OK`.
    public static let ok = HTTPStatus(code: 200)
    /// `201 Created`.
    public static let created = HTTPStatus(code: 201)
    /// `204 No Content`.
    public static let noContent = HTTPStatus(code: 204)
    /// `206 Partial Content`: the body is the requested byte range (RFC 9110 §15.3.7).
    public static let partialContent = HTTPStatus(code: 206)
    /// `301 Moved Permanently`.
    public static let movedPermanently = HTTPStatus(code: 301)
    /// `302 Found`.
    public static let found = HTTPStatus(code: 302)
    /// `304 Not Modified`.
    public static let notModified = HTTPStatus(code: 304)
    /// `400 Bad Request`.
    public static let badRequest = HTTPStatus(code: 400)
    /// `401 Unauthorized`: the request lacks valid credentials.
    public static let unauthorized = HTTPStatus(code: 401)
    /// `403 Forbidden`.
    public static let forbidden = HTTPStatus(code: 403)
    /// `404 Not Found`.
    public static let notFound = HTTPStatus(code: 404)
    /// `405 Method Not Allowed`: sent with an `Allow` header.
    public static let methodNotAllowed = HTTPStatus(code: 405)
    /// `413 Content Too Large`: the request body exceeds the server's limit.
    public static let contentTooLarge = HTTPStatus(code: 413)
    /// `414 URI Too Long`: the request target exceeds the server's limit.
    public static let uriTooLong = HTTPStatus(code: 414)
    /// `416 Range Not Satisfiable`: sent with `Content-Range: bytes */length` (RFC 9110 §15.5.17).
    public static let rangeNotSatisfiable = HTTPStatus(code: 416)
    /// `431 Request Header Fields Too Large` (RFC 6585 §5).
    public static let requestHeaderFieldsTooLarge = HTTPStatus(code: 431)
    /// `500 Internal Server Error`.
    public static let internalServerError = HTTPStatus(code: 500)
    /// `501 Not Implemented`.
    public static let notImplemented = HTTPStatus(code: 501)
    /// `503 Service Unavailable`: sent while the server shuts down.
    public static let serviceUnavailable = HTTPStatus(code: 503)
    /// `505 HTTP Version Not Supported`.
    public static let httpVersionNotSupported = HTTPStatus(code: 505)

    /// For example `404 Not Found`.
    public var description: String { reasonPhrase.isEmpty ? "\(code)" : "\(code) \(reasonPhrase)" }

    private static let standardReasonPhrases: [Int: String] = [
        100: "Continue", 101: "Switching Protocols",
        200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 206: "Partial Content",
        301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
        307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 406: "Not Acceptable", 408: "Request Timeout", 409: "Conflict",
        410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large",
        414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable",
        422: "Unprocessable Content", 429: "Too Many Requests", 431: "Request Header Fields Too Large",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
        503: "Service Unavailable", 504: "Gateway Timeout", 505: "HTTP Version Not Supported",
    ]
}
