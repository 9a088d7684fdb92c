/// Why a ``GStreamerPipeline`` refused a command. What happens later, while the media plays,
/// arrives as a ``PipelineMessage`` instead.
public enum GStreamerPipelineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An element could not be made: its plugin is not installed (`playbin3` needs
    /// gstreamer1.0-plugins-base; `scripts/bootstrap --video` installs it).
    case missingElement(String)
    /// A sink's launch description does not parse (the parser's message).
    case invalidSinkDescription(String, reason: String)
    /// `gst_element_set_state` returned GST_STATE_CHANGE_FAILURE; the bus carries the reason as
    /// a ``PipelineMessage/error(_:)``.
    case stateChangeFailed(to: PipelineState)
    /// The pipeline refused the seek (not yet prerolled, or a source that cannot seek).
    case seekRefused
    /// Only positive, finite rates are played.
    case unsupportedRate(Double)
    /// The pipeline was closed.
    case closed

    public var description: String {
        switch self {
        case .missingElement(let name): "GStreamer element '\(name)' is not installed"
        case .invalidSinkDescription(let description, let reason): "sink '\(description)' does not parse: \(reason)"
        case .stateChangeFailed(let state): "the pipeline could not change to \(state)"
        case .seekRefused: "the pipeline refused the seek"
        case .unsupportedRate(let rate): "rate \(rate) is not supported (only positive rates are)"
        case .closed: "the pipeline is closed"
        }
    }
}
