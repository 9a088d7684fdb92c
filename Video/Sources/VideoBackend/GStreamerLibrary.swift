internal import CGStreamer

/// GStreamer's one-time set-up (`gst_init`), done by the first pipeline made.
enum GStreamerLibrary {
    private static let initialized: Void = {
        gst_init(nil, nil)
    }()

    static func initialize() {
        _ = initialized
    }
}
