internal import CGStreamer
public import MediaTime
import Synchronization

/// One `playbin3` pipeline playing one URI (`file://` or `http://`; HLS over HTTP goes through
/// hlsdemux2, whose stream time is the playlist's time): play and pause, exact seeks, rate
/// changes, the position and duration as GStreamer reports them, and the bus as
/// ``PipelineMessage``s.
///
///     let pipeline = try GStreamerPipeline(uri: "file:///media/clip.ts", configuration: .headless)
///     let messages = pipeline.messages()
///     try pipeline.play()
///     for await message in messages { … }   // .stateChanged(…, to: .playing, …), .endOfStream
///     pipeline.close()
///
/// The commands are GStreamer's thread-safe control calls and may come from any thread; they do
/// not wait for the change (a state change or a seek finishes with ``PipelineMessage/asyncDone(seek:)``).
/// The bus is read on a thread of its own (``BusLoop``); every message goes to each stream from
/// ``messages()``, outside any lock.
public final class GStreamerPipeline: @unchecked Sendable {
    // @unchecked: the pointer is set once and used only through GStreamer's thread-safe calls;
    // the mutable state is behind `state`.

    private struct State {
        var rate = 1.0
        /// The target of the last seek: where a rate change starts when the pipeline, flushing
        /// for that seek, reports no position.
        var lastSeekTarget: MediaTime?
        var busLoop: BusLoop?
    }

    /// The URI played.
    public let uri: String
    let element: UnsafeMutablePointer<GstElement>
    private let broadcast = MessageBroadcast()
    private let seeks = SeekLedger()
    private let state: Mutex<State>

    /// Makes the pipeline for `uri`, in the NULL state; nothing is read until ``play()`` or
    /// ``pause()``.
    public init(uri: String, configuration: Configuration = Configuration()) throws(GStreamerPipelineError) {
        GStreamerLibrary.initialize()
        guard let element = gst_element_factory_make("playbin3", nil) else { throw .missingElement("playbin3") }
        // playbin3 comes as a floating reference; take it as ours.
        gst_object_ref_sink(UnsafeMutableRawPointer(element))
        do {
            for (property, sink) in [("video-sink", configuration.videoSink), ("audio-sink", configuration.audioSink)] {
                if let sinkElement = try sink.makeElement() {
                    cgstreamer_set_object(element, property, sinkElement)
                }
            }
        } catch {
            gst_object_unref(UnsafeMutableRawPointer(element))
            throw error
        }
        cgstreamer_set_string(element, "uri", uri)
        self.uri = uri
        self.element = element
        let (broadcast, seeks) = (broadcast, seeks)
        let busLoop = BusLoop(pipeline: element) { event in
            switch event {
            case .seekMarker(let seek): seeks.markerArrived(seek)
            case .message(.asyncDone): broadcast.deliver(.asyncDone(seek: seeks.asyncDone()))
            case .message(let message): broadcast.deliver(message)
            }
        }
        state = Mutex(State(busLoop: busLoop))
    }

    deinit {
        close()
        // Again: a command that raced with close() may have started it up once more, and an
        // element must be in NULL when it is freed.
        gst_element_set_state(element, GST_STATE_NULL)
        gst_object_unref(UnsafeMutableRawPointer(element))
    }

    /// The bus messages from now on, until ``close()``. Each call is a stream of its own; take it
    /// before the command whose messages it should see.
    public func messages() -> AsyncStream<PipelineMessage> {
        broadcast.subscribe()
    }

    /// Starts or resumes playback (to PLAYING, prerolling first when needed).
    public func play() throws(GStreamerPipelineError) {
        try setState(.playing)
    }

    /// Pauses, keeping the current frame (to PAUSED; from NULL this prerolls the first frame).
    public func pause() throws(GStreamerPipelineError) {
        try setState(.paused)
    }

    /// Seeks to `time` exactly (`GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE`): decoding starts at
    /// the keyframe before and the frames up to `time` are dropped, so the first frame shown is
    /// the one at `time`. Keeps the current rate. Needs a prerolled pipeline: PLAYING, or PAUSED
    /// after the preroll's ``PipelineMessage/asyncDone(seek:)`` (`seek: nil`), which comes just
    /// after the state change to PAUSED. The ``PipelineMessage/asyncDone(seek:)`` naming the
    /// returned ID says the seek is done.
    @discardableResult
    public func seek(to time: MediaTime) throws(GStreamerPipelineError) -> SeekID {
        let rate = try state.withLock { state throws(GStreamerPipelineError) in
            guard state.busLoop != nil else { throw .closed }
            return state.rate
        }
        let seek = try seek(rate: rate, to: time)
        state.withLock { $0.lastSeekTarget = time }
        return seek
    }

    /// Plays at `rate` from the current position: a flushing, accurate seek with that rate
    /// (hlsdemux2 does not support GStreamer's instant rate change), so playback hiccups for
    /// about a frame or two. Right after a seek, while the pipeline flushes and reports no
    /// position, it plays from that seek's target. Returns the seek, as ``seek(to:)`` does.
    @discardableResult
    public func setRate(_ rate: Double) throws(GStreamerPipelineError) -> SeekID {
        guard rate.isFinite, rate > 0 else { throw .unsupportedRate(rate) }
        let lastSeekTarget = try state.withLock { state throws(GStreamerPipelineError) in
            guard state.busLoop != nil else { throw .closed }
            return state.lastSeekTarget
        }
        // No position while flushing for a seek (start from its target), nor before the preroll,
        // when the pipeline would refuse the seek anyway.
        guard let start = position ?? lastSeekTarget else { throw .seekRefused }
        let seek = try seek(rate: rate, to: start)
        state.withLock { $0.rate = rate }
        return seek
    }

    /// The rate last set with ``setRate(_:)`` (1 at first).
    public var rate: Double { state.withLock { $0.rate } }

    /// The position the pipeline reports (`gst_element_query_position`): the stream time, clock
    /// interpolated between frames, to the nanosecond; `nil` before preroll. While a seek is in
    /// flight (until its ``PipelineMessage/asyncDone(seek:)``), the seek's target: a flushing
    /// pipeline reports the old position, none, or 0 until the first frame at the target is
    /// ready, and the target is where it is going (what a player shows while it seeks).
    public var position: MediaTime? {
        if let target = seeks.targetInFlight { return target }
        var nanoseconds: gint64 = 0
        guard gst_element_query_position(element, GST_FORMAT_TIME, &nanoseconds) != 0, nanoseconds >= 0 else { return nil }
        return MediaTime(value: Int64(nanoseconds), timescale: 1_000_000_000)
    }

    /// The media's duration (`gst_element_query_duration`); `nil` when not known yet, or for a
    /// live stream.
    public var duration: MediaTime? {
        var nanoseconds: gint64 = 0
        guard gst_element_query_duration(element, GST_FORMAT_TIME, &nanoseconds) != 0, nanoseconds >= 0 else { return nil }
        return MediaTime(value: Int64(nanoseconds), timescale: 1_000_000_000)
    }

    /// Brings the pipeline to NULL (releasing the media, the sinks and their threads), stops the
    /// bus thread and finishes every message stream. Later commands throw
    /// ``GStreamerPipelineError/closed`` (one that races with the close may still reach the
    /// pipeline; it is brought to NULL again when freed). Idempotent.
    public func close() {
        guard let busLoop = state.withLock({ state in
            defer { state.busLoop = nil }
            return state.busLoop
        }) else { return }
        gst_element_set_state(element, GST_STATE_NULL)
        busLoop.stop()
        broadcast.finish()
    }

    private func setState(_ target: PipelineState) throws(GStreamerPipelineError) {
        try state.withLock { state throws(GStreamerPipelineError) in
            guard state.busLoop != nil else { throw .closed }
        }
        if gst_element_set_state(element, target.gstState) == GST_STATE_CHANGE_FAILURE {
            throw .stateChangeFailed(to: target)
        }
    }

    /// `gst_element_seek`, after the marker that tells the bus thread the next ASYNC_DONE is
    /// this seek's (``SeekLedger``).
    private func seek(rate: Double, to time: MediaTime) throws(GStreamerPipelineError) -> SeekID {
        let nanoseconds = max(time.converted(toTimescale: 1_000_000_000)?.value ?? 0, 0)
        let flags = GstSeekFlags(rawValue: GST_SEEK_FLAG_FLUSH.rawValue | GST_SEEK_FLAG_ACCURATE.rawValue)
        let seek = SeekID(sequenceNumber: gst_util_seqnum_next())
        _ = cgstreamer_post_seek_marker(element, seek.sequenceNumber)
        seeks.starting(seek, target: MediaTime(value: Int64(nanoseconds), timescale: 1_000_000_000))
        let accepted = gst_element_seek(
            element, rate, GST_FORMAT_TIME, flags,
            GST_SEEK_TYPE_SET, gint64(nanoseconds), GST_SEEK_TYPE_NONE, gint64(bitPattern: CGSTREAMER_CLOCK_TIME_NONE)
        )
        if accepted == 0 {
            seeks.refused(seek)
            throw .seekRefused
        }
        return seek
    }
}
