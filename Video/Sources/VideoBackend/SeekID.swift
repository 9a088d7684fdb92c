/// One seek asked of a ``GStreamerPipeline`` (``GStreamerPipeline/seek(to:)``,
/// ``GStreamerPipeline/setRate(_:)``), so that ``PipelineMessage/asyncDone(seek:)`` can say
/// which seek is done, and an ASYNC_DONE already on the bus when the seek was asked for (a
/// preroll's, which comes just after the state change to PAUSED) is not taken for the seek's.
public struct SeekID: Hashable, Sendable, CustomStringConvertible {
    /// A GStreamer sequence number (`gst_util_seqnum_next`), unique within the process.
    public let sequenceNumber: UInt32

    public var description: String { "seek #\(sequenceNumber)" }
}
