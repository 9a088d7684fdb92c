internal import CGStreamer

/// An error or a warning posted on a pipeline's bus: GStreamer's `GError` with the element that
/// posted it and its debug details.
public struct GStreamerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// GStreamer's error domains (`GST_CORE_ERROR`, `GST_LIBRARY_ERROR`, `GST_RESOURCE_ERROR`,
    /// `GST_STREAM_ERROR`); `other` holds any other domain's name.
    public enum Kind: Sendable, Equatable {
        /// GStreamer itself failed (a missing plugin element, a negotiation that cannot happen).
        case core
        /// A library a plugin uses failed.
        case library
        /// A file or a network resource could not be opened, read or written (a missing file, an
        /// HTTP 404, a host that cannot be reached).
        case resource
        /// The media cannot be played: an unknown type, no decoder, corrupt data.
        case stream
        case other(domain: String)
    }

    public var kind: Kind
    /// The `GError` code within its domain (for `resource`, `GstResourceError`: 3 not found, …).
    public var code: Int
    /// The message for people, as GStreamer words it ("Resource not found.", "No such file …").
    public var message: String
    /// GStreamer's debug string: the source file and function, and often the OS error.
    public var debugDetails: String?
    /// The name of the element that posted it (`source`, `tsdemux0`, …).
    public var sourceName: String?
    /// True for a `GST_MESSAGE_ERROR`: the pipeline has stopped and must be brought to NULL.
    public var isFatal: Bool

    public init(kind: Kind, code: Int, message: String, debugDetails: String? = nil, sourceName: String? = nil, isFatal: Bool) {
        self.kind = kind
        self.code = code
        self.message = message
        self.debugDetails = debugDetails
        self.sourceName = sourceName
        self.isFatal = isFatal
    }

    public var description: String {
        var text = sourceName.map { "\($0): \(message)" } ?? message
        if let debugDetails { text += " (\(debugDetails))" }
        return text
    }
}

extension GStreamerError.Kind {
    init(domain: GQuark) {
        switch domain {
        case gst_core_error_quark(): self = .core
        case gst_library_error_quark(): self = .library
        case gst_resource_error_quark(): self = .resource
        case gst_stream_error_quark(): self = .stream
        default: self = .other(domain: g_quark_to_string(domain).map { String(cString: $0) } ?? "")
        }
    }
}
