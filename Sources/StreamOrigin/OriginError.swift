import FoundationEssentials
import HLSInterstitials

/// A request the origin cannot answer with what was asked for, with the HTTP status it maps to
/// and a JSON body that says why.
///
///     {"error":"unknown-viewer","message":"no viewer \"zed\"; known viewers: alice, bob, charlie, dana","status":404}
public struct OriginError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as a stable identifier.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// No route has this path.
        case unknownRoute = "unknown-route"
        /// No stream with this identifier (or not of the kind the path names).
        case unknownStream = "unknown-stream"
        /// No viewer with this identifier.
        case unknownViewer = "unknown-viewer"
        /// The stream has no break with this identifier (or a live break not announced yet).
        case unknownBreak = "unknown-break"
        /// No ad with this identifier.
        case unknownAd = "unknown-ad"
        /// No media file at this path.
        case unknownSegment = "unknown-segment"
        /// The path or query is malformed.
        case malformedRequest = "malformed-request"
        /// Only GET and HEAD are served.
        case methodNotAllowed = "method-not-allowed"
        /// A live stream that has not published its first segment yet.
        case notYetAvailable = "not-yet-available"
    }

    /// What went wrong.
    public var kind: Kind
    /// A sentence a person can act on.
    public var message: String

    /// An error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The HTTP status: 404 for anything unknown, 400 for a malformed request, 405 for another
    /// method, 503 for a live stream that has not started.
    public var status: Int {
        switch kind {
        case .unknownRoute, .unknownStream, .unknownViewer, .unknownBreak, .unknownAd, .unknownSegment: return 404
        case .malformedRequest: return 400
        case .methodNotAllowed: return 405
        case .notYetAvailable: return 503
        }
    }

    /// The JSON error body: `error` (the kind), `message` and `status`.
    public var jsonBody: [UInt8] {
        let object: [String: JSONValue] = [
            "error": .string(kind.rawValue), "message": .string(message), "status": .number(String(status)),
        ]
        return JSONValue.object(object).encodedBytes()
    }

    /// `kind: message`.
    public var description: String { "\(kind.rawValue): \(message)" }
}
