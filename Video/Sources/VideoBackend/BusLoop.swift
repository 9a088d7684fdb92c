internal import CGStreamer

/// What the bus thread hands on: a message, or the marker a seek posted before it.
enum BusEvent: Sendable {
    case message(PipelineMessage)
    case seekMarker(SeekID)
}

/// The thread that reads a pipeline's bus: a `GMainLoop` on a `GMainContext` of its own (not the
/// default context, which an app's toolkit may own), with the bus watch attached to it. Each
/// message is turned into a ``BusEvent`` there and handed to `deliver`, which must not
/// block: GStreamer's streaming threads do not wait for it, but the next message does.
///
/// Playback itself needs no loop: GStreamer's streaming threads move the media, and the control
/// calls (`gst_element_set_state`, `gst_element_seek`, queries) are thread-safe.
final class BusLoop {
    private let context: OpaquePointer
    private let loop: OpaquePointer
    private let busSource: UnsafeMutablePointer<GSource>
    private var thread: UnsafeMutablePointer<GThread>?

    /// Watches `pipeline`'s bus on a new thread until ``stop()``.
    init(pipeline: UnsafeMutablePointer<GstElement>, deliver: @escaping @Sendable (BusEvent) -> Void) {
        context = g_main_context_new()
        loop = g_main_loop_new(context, 0)

        let bus = gst_element_get_bus(pipeline)
        busSource = gst_bus_create_watch(bus)
        gst_object_unref(UnsafeMutableRawPointer(bus))
        let watch = Unmanaged.passRetained(BusWatch(pipeline: pipeline, deliver: deliver)).toOpaque()
        cgstreamer_set_bus_callback(busSource, busMessageReceived, watch, releaseWatch)
        g_source_attach(busSource, context)

        let loopBox = Unmanaged.passRetained(LoopBox(context: context, loop: loop)).toOpaque()
        thread = g_thread_new("interlude-gst-bus", runLoop, loopBox)
    }

    /// Ends the loop and waits for its thread; messages still on the bus are not delivered.
    /// Call it once, from any thread but the bus thread.
    func stop() {
        guard let thread else { return }
        self.thread = nil
        // An idle source, dispatched by the loop itself, so that a quit cannot come before the
        // loop runs and be lost (g_main_loop_run would reset it).
        let quit = g_idle_source_new()
        g_source_set_callback(quit, quitLoop, UnsafeMutableRawPointer(loop), nil)
        g_source_attach(quit, context)
        g_source_unref(quit)
        g_thread_join(thread)
        // Releases the BusWatch, with the loop's thread gone.
        g_source_destroy(busSource)
        g_source_unref(busSource)
        g_main_loop_unref(loop)
        g_main_context_unref(context)
    }
}

/// What the bus callback reaches through its user data.
private final class BusWatch {
    let pipeline: UnsafeMutablePointer<GstElement>
    let deliver: @Sendable (BusEvent) -> Void

    init(pipeline: UnsafeMutablePointer<GstElement>, deliver: @escaping @Sendable (BusEvent) -> Void) {
        self.pipeline = pipeline
        self.deliver = deliver
    }
}

/// The loop thread's own references, dropped when it returns.
private final class LoopBox {
    let context: OpaquePointer
    let loop: OpaquePointer

    init(context: OpaquePointer, loop: OpaquePointer) {
        self.context = g_main_context_ref(context)
        self.loop = g_main_loop_ref(loop)
    }

    deinit {
        g_main_loop_unref(loop)
        g_main_context_unref(context)
    }
}

private func runLoop(_ data: gpointer?) -> gpointer? {
    let box = Unmanaged<LoopBox>.fromOpaque(data!).takeRetainedValue()
    g_main_context_push_thread_default(box.context)
    g_main_loop_run(box.loop)
    g_main_context_pop_thread_default(box.context)
    return nil
}

private func quitLoop(_ loop: gpointer?) -> gboolean {
    g_main_loop_quit(OpaquePointer(loop))
    return 0  // G_SOURCE_REMOVE
}

private func releaseWatch(_ data: gpointer?) {
    guard let data else { return }
    Unmanaged<BusWatch>.fromOpaque(data).release()
}

private func busMessageReceived(_ bus: UnsafeMutablePointer<GstBus>?, _ message: UnsafeMutablePointer<GstMessage>?, _ data: gpointer?) -> gboolean {
    guard let message, let data else { return 1 }
    let watch = Unmanaged<BusWatch>.fromOpaque(data).takeUnretainedValue()
    if cgstreamer_is_seek_marker(message) != 0 {
        watch.deliver(.seekMarker(SeekID(sequenceNumber: gst_message_get_seqnum(message))))
    } else if let parsed = PipelineMessage(message, pipeline: watch.pipeline) {
        watch.deliver(.message(parsed))
    }
    return 1  // G_SOURCE_CONTINUE
}
