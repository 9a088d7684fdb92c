internal import CGStreamer
public import MediaTime
import Synchronization

/// One buffer as a sink rendered it.
public struct RenderedBuffer: Sendable, Hashable {
    /// When the sink rendered it, on GStreamer's monotonic clock (`gst_util_get_timestamp`), the
    /// same for every pipeline in the process.
    public var hostTime: Duration
    /// Its presentation time as stream time (its PTS through the segment it came in): the
    /// playlist's time through hlsdemux2, the position a query reports.
    public var streamTime: MediaTime

    public init(hostTime: Duration, streamTime: MediaTime) {
        self.hostTime = hostTime
        self.streamTime = streamTime
    }
}

/// The buffers a ``GStreamerPipeline/Sink/recorded(_:)`` sink rendered, in order: the measure of
/// what was on screen (or heard) when. Appended on the sink's streaming thread, read from any.
/// It keeps every buffer (some 70 a second for 25 fps video and 48 kHz AAC audio): a measuring
/// instrument for a test or a benchmark, not for hours of playback.
public final class RenderLog: Sendable, Equatable, CustomStringConvertible {
    private let buffers = Mutex<[RenderedBuffer]>([])

    public init() {}

    /// The time now on the clock the logs' host times are on (`gst_util_get_timestamp`).
    public static var now: Duration { .nanoseconds(Int64(gst_util_get_timestamp())) }

    /// Every buffer rendered so far.
    public var rendered: [RenderedBuffer] { buffers.withLock { $0 } }

    func append(_ buffer: RenderedBuffer) {
        buffers.withLock { $0.append(buffer) }
    }

    public static func == (lhs: RenderLog, rhs: RenderLog) -> Bool { lhs === rhs }

    public var description: String { "RenderLog(\(rendered.count) buffers)" }
}

extension RenderLog {
    /// A `fakesink sync=true` (floating) whose every rendered buffer is appended to this log: the
    /// "handoff" signal fires in the sink's render call, after the clock wait, so at the moment
    /// the buffer would be on screen.
    func makeSink() throws(GStreamerPipelineError) -> UnsafeMutablePointer<GstElement> {
        guard let sink = gst_element_factory_make("fakesink", nil) else { throw .missingElement("fakesink") }
        cgstreamer_set_bool(sink, "sync", 1)
        cgstreamer_set_bool(sink, "signal-handoffs", 1)
        let data = Unmanaged.passRetained(self).toOpaque()
        cgstreamer_connect_handoff(sink, bufferRendered, data, releaseRenderLog)
        return sink
    }
}

private func bufferRendered(_ sink: UnsafeMutablePointer<GstElement>?, _ buffer: UnsafeMutablePointer<GstBuffer>?, _ pad: UnsafeMutablePointer<GstPad>?, _ data: gpointer?) {
    let now = gst_util_get_timestamp()
    guard let buffer, let pad, let data, buffer.pointee.pts != CGSTREAMER_CLOCK_TIME_NONE else { return }
    guard let event = gst_pad_get_sticky_event(pad, GST_EVENT_SEGMENT, 0) else { return }
    defer { gst_event_unref(event) }
    var segment: UnsafePointer<GstSegment>?
    gst_event_parse_segment(event, &segment)
    guard let segment else { return }
    let streamTime = gst_segment_to_stream_time(segment, GST_FORMAT_TIME, buffer.pointee.pts)
    guard streamTime != CGSTREAMER_CLOCK_TIME_NONE else { return }
    let log = Unmanaged<RenderLog>.fromOpaque(data).takeUnretainedValue()
    log.append(RenderedBuffer(
        hostTime: .nanoseconds(Int64(now)),
        streamTime: MediaTime(value: Int64(streamTime), timescale: 1_000_000_000)
    ))
}

private func releaseRenderLog(_ data: gpointer?, _ closure: UnsafeMutablePointer<GClosure>?) {
    guard let data else { return }
    Unmanaged<RenderLog>.fromOpaque(data).release()
}
