internal import CGStreamer

extension GStreamerPipeline {
    /// Where a pipeline renders one kind of stream.
    public enum Sink: Sendable, Equatable {
        /// playbin3's own choice (`autovideosink`, `autoaudiosink`): a window, the sound card.
        case automatic
        /// `fakesink sync=true`: buffers are dropped at their presentation time, so the clock and
        /// the position run as they would on screen. For headless tests and machines without a
        /// display or an audio device.
        case fake
        /// A `gst-launch-1.0` description (`"videoconvert ! ximagesink"`), made into a bin with
        /// a ghost pad.
        case description(String)
        /// A ``fake`` sink that logs the time each buffer is rendered at, with its stream time:
        /// how switch timing and A/V sync are measured.
        case recorded(RenderLog)

        /// The element for playbin3's sink property, a floating reference; `nil` for playbin3's
        /// own choice.
        func makeElement() throws(GStreamerPipelineError) -> UnsafeMutablePointer<GstElement>? {
            switch self {
            case .automatic: nil
            case .fake: try Self.makeElement("fakesink sync=true")
            case .description(let description): try Self.makeElement(description)
            case .recorded(let log): try log.makeSink()
            }
        }
    }

    /// How a pipeline renders.
    public struct Configuration: Sendable, Equatable {
        public var videoSink: Sink
        public var audioSink: Sink

        public init(videoSink: Sink = .automatic, audioSink: Sink = .automatic) {
            self.videoSink = videoSink
            self.audioSink = audioSink
        }

        /// Both streams to ``Sink/fake``: no window, no sound card.
        public static let headless = Configuration(videoSink: .fake, audioSink: .fake)
    }
}

extension GStreamerPipeline.Sink {
    /// The sink element for `description`, a floating reference for playbin3 to take.
    static func makeElement(_ description: String) throws(GStreamerPipelineError) -> UnsafeMutablePointer<GstElement> {
        var error: UnsafeMutablePointer<GError>?
        let element = gst_parse_bin_from_description(description, 1, &error)
        if let error {
            let reason = error.pointee.message.map { String(cString: $0) } ?? ""
            g_error_free(error)
            if let element { gst_object_unref(UnsafeMutableRawPointer(element)) }
            throw .invalidSinkDescription(description, reason: reason)
        }
        guard let element else { throw .invalidSinkDescription(description, reason: "no element") }
        return element
    }
}
