internal import CGStreamer

extension GStreamerPipeline {
    /// Renders the video into the app's window `handle` (an X11 `Window`), through playbin3's
    /// GstVideoOverlay, which hands it to the video sink (now, or when the sink is made). May be
    /// called while playing: the video moves to the new window with the next frame.
    public func setWindowHandle(_ handle: UInt) {
        gst_video_overlay_set_window_handle(cgstreamer_video_overlay(element), guintptr(handle))
    }

    /// Redraws the last frame into the window (after the window was resized or uncovered).
    public func expose() {
        gst_video_overlay_expose(cgstreamer_video_overlay(element))
    }
}
