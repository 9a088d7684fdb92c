internal import CGStreamer

/// What a ``GStreamerPipeline``'s bus says, as far as a player acts on it. Messages from the
/// pipeline's children that only concern themselves (a decoder's own state changes) are left out.
public enum PipelineMessage: Sendable, Equatable {
    /// The pipeline's own state changed (`GST_MESSAGE_STATE_CHANGED` from the pipeline);
    /// `pending` is the state it is still on its way to, if any.
    case stateChanged(from: PipelineState, to: PipelineState, pending: PipelineState?)
    /// A state change or a flushing seek finished (`GST_MESSAGE_ASYNC_DONE`); `seek` is the seek
    /// it finishes, `nil` for a state change (the preroll on the way to PAUSED). After a seek, the
    /// position is the new one and the first frame at the target is prerolled.
    case asyncDone(seek: SeekID?)
    /// The sources' buffers fill (`GST_MESSAGE_BUFFERING`), in percent; 100 when playback can go on.
    case buffering(percent: Int)
    /// Every sink has rendered its last buffer (`GST_MESSAGE_EOS`).
    case endOfStream
    /// A failure that stops the pipeline (`GST_MESSAGE_ERROR`).
    case error(GStreamerError)
    /// A problem the pipeline plays on through (`GST_MESSAGE_WARNING`).
    case warning(GStreamerError)
}
