internal import CGStreamer

extension PipelineMessage {
    /// The message `message` carries, or `nil` for one a player does not act on (and for a state
    /// change of one of `pipeline`'s children).
    init?(_ message: UnsafeMutablePointer<GstMessage>, pipeline: UnsafeMutablePointer<GstElement>) {
        switch cgstreamer_message_type(message) {
        case GST_MESSAGE_EOS:
            self = .endOfStream
        case GST_MESSAGE_ERROR:
            self = .error(GStreamerError(parsing: message, isFatal: true))
        case GST_MESSAGE_WARNING:
            self = .warning(GStreamerError(parsing: message, isFatal: false))
        case GST_MESSAGE_ASYNC_DONE:
            guard cgstreamer_message_source(message) == UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstObject.self) else {
                return nil
            }
            // Which seek it finishes is the SeekLedger's to say.
            self = .asyncDone(seek: nil)
        case GST_MESSAGE_BUFFERING:
            var percent: gint = 0
            gst_message_parse_buffering(message, &percent)
            self = .buffering(percent: Int(percent))
        case GST_MESSAGE_STATE_CHANGED:
            guard cgstreamer_message_source(message) == UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstObject.self) else {
                return nil
            }
            var old = GST_STATE_VOID_PENDING, new = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
            gst_message_parse_state_changed(message, &old, &new, &pending)
            guard let from = PipelineState(old), let to = PipelineState(new) else { return nil }
            self = .stateChanged(from: from, to: to, pending: PipelineState(pending))
        default:
            return nil
        }
    }
}

extension GStreamerError {
    /// The `GError` and debug string of an ERROR or WARNING message.
    init(parsing message: UnsafeMutablePointer<GstMessage>, isFatal: Bool) {
        var error: UnsafeMutablePointer<GError>?
        var debug: UnsafeMutablePointer<gchar>?
        if isFatal {
            gst_message_parse_error(message, &error, &debug)
        } else {
            gst_message_parse_warning(message, &error, &debug)
        }
        defer {
            if let error { g_error_free(error) }
            g_free(debug)
        }
        self.init(
            kind: error.map { Kind(domain: $0.pointee.domain) } ?? .other(domain: ""),
            code: Int(error?.pointee.code ?? 0),
            message: error?.pointee.message.map { String(cString: $0) } ?? "",
            debugDetails: debug.map { String(cString: $0) },
            sourceName: cgstreamer_message_source_name(message).map { String(cString: $0) },
            isFatal: isFatal
        )
    }
}
