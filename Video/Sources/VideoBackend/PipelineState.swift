internal import CGStreamer

/// A GStreamer element state (`GstState`), in the order an element goes through them on its way
/// to playing.
public enum PipelineState: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// No resources held: the state a pipeline is made in and closed to.
    case null
    /// Resources allocated, nothing flowing.
    case ready
    /// Prerolled: the first frame is at the sinks and the clock stands still.
    case paused
    /// The clock runs and the sinks render.
    case playing

    init?(_ state: GstState) {
        switch state {
        case GST_STATE_NULL: self = .null
        case GST_STATE_READY: self = .ready
        case GST_STATE_PAUSED: self = .paused
        case GST_STATE_PLAYING: self = .playing
        default: return nil
        }
    }

    var gstState: GstState {
        switch self {
        case .null: GST_STATE_NULL
        case .ready: GST_STATE_READY
        case .paused: GST_STATE_PAUSED
        case .playing: GST_STATE_PLAYING
        }
    }

    public static func < (lhs: PipelineState, rhs: PipelineState) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .null: "NULL"
        case .ready: "READY"
        case .paused: "PAUSED"
        case .playing: "PLAYING"
        }
    }
}
