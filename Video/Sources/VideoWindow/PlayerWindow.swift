internal import CX11
public import PlayerInterface
import Synchronization
public import VideoBackend

/// The player's X11 window, owned by the app: a top-level window with the video in one child
/// window (handed to each pipeline's video sink through GstVideoOverlay) and the controls strip
/// in another, stacked above it, drawn with Xlib from the player layer's ``TransportBar``; and a
/// small top-level window for picture in picture. The presentation follows a
/// ``PresentationStateMachine``: full screen and picture in picture re-target the video (resize
/// its window, or hand the sinks the other window) while it plays, once the machine's transition
/// has completed; a cancelled transition leaves the windows as they were.
///
/// Every Xlib call is made under the window's lock (after `XInitThreads`), and each request is
/// flushed before the call returns. Presentation callbacks are made with the lock let go.
public final class PlayerWindow: @unchecked Sendable {
    // @unchecked: the display and the window IDs are set once; every use is under `state`'s lock.

    public struct Configuration: Sendable, Hashable {
        public var videoWidth: Int
        public var videoHeight: Int
        public var controlsHeight: Int
        public var presentation: PresentationStateMachine.Configuration

        public init(videoWidth: Int = 640, videoHeight: Int = 360, controlsHeight: Int = 40,
                    presentation: PresentationStateMachine.Configuration = PresentationStateMachine.Configuration()) {
            self.videoWidth = videoWidth
            self.videoHeight = videoHeight
            self.controlsHeight = controlsHeight
            self.presentation = presentation
        }
    }

    private struct State {
        var presentation: PresentationStateMachine
        var applied: PresentationMode = .inline
        var layout: WindowLayout
        var strip = ControlsStrip()
        var pipelines: [GStreamerPipeline] = []
        var isClosed = false
    }

    public let configuration: Configuration
    /// The X11 window IDs: the top-level window, its video and controls children, and the
    /// picture-in-picture window.
    public let window: UInt, videoWindow: UInt, controlsWindow: UInt, pictureInPictureWindow: UInt
    /// The X display's name, as given.
    public let displayName: String
    /// The screen's size in pixels.
    public let screenWidth: Int, screenHeight: Int
    private let display: OpaquePointer
    private let graphics: GC
    private let onPresentation: @Sendable (PresentationStateMachine.Action) -> Void
    private let state: Mutex<State>

    /// Opens `displayName` (`":99"`) and maps the window inline at the screen's top left.
    /// `onPresentation` receives the presentation machine's actions (the will / did callbacks,
    /// restores, pauses; not its wake requests), after the windows have been rearranged for them.
    public init(displayName: String, configuration: Configuration = Configuration(),
                onPresentation: @escaping @Sendable (PresentationStateMachine.Action) -> Void = { _ in }) throws(PlayerWindowError) {
        _ = XInitThreads()
        guard let display = XOpenDisplay(displayName) else { throw .cannotOpenDisplay(displayName) }
        let screen = XDefaultScreen(display)
        let root = XRootWindow(display, screen)
        screenWidth = Int(XDisplayWidth(display, screen))
        screenHeight = Int(XDisplayHeight(display, screen))
        let layout = WindowLayout(mode: .inline, screenWidth: screenWidth, screenHeight: screenHeight,
                                  videoWidth: configuration.videoWidth, videoHeight: configuration.videoHeight,
                                  controlsHeight: configuration.controlsHeight)
        let black = XBlackPixel(display, screen)
        func make(_ parent: UInt, _ rect: PixelRect) -> UInt {
            XCreateSimpleWindow(display, parent, Int32(rect.x), Int32(rect.y), UInt32(rect.width), UInt32(rect.height), 0, black, black)
        }
        window = make(root, layout.window)
        videoWindow = make(window, layout.video)
        controlsWindow = make(window, layout.controls)
        let (pipWidth, pipHeight) = (configuration.videoWidth / 2, configuration.videoHeight / 2)
        pictureInPictureWindow = make(root, PixelRect(x: screenWidth - pipWidth - 16, y: screenHeight - pipHeight - 16, width: pipWidth, height: pipHeight))
        graphics = XCreateGC(display, window, 0, nil)
        // KeyPressMask: the keys typed into the window (or its children, which propagate them).
        XSelectInput(display, window, 1 << 0)
        XMapWindow(display, videoWindow)
        XMapRaised(display, controlsWindow)
        XMapRaised(display, window)
        XSync(display, 0)
        self.display = display
        self.displayName = displayName
        self.configuration = configuration
        self.onPresentation = onPresentation
        state = Mutex(State(presentation: PresentationStateMachine(configuration: configuration.presentation), layout: layout))
        drawControls(ControlsStrip(), width: layout.controls.width, height: layout.controls.height)
        XSync(display, 0)
    }

    deinit {
        close()
    }

    /// The video sink for the pipelines shown in this window: `ximagesink` on the same display
    /// (the sink opens a connection of its own), without drawing the preroll frame, so that a
    /// pipeline waiting in PAUSED (a prerolled interstitial, primary sought while one plays) does
    /// not paint over the one playing. (`xvimagesink` has no Xv port under Xvfb.)
    public var videoSink: GStreamerPipeline.Sink {
        .description("ximagesink display=\(displayName) show-preroll-frame=false")
    }

    /// The presentation now (the machine's: during a transition, the one it started from).
    public var mode: PresentationMode { state.withLock { $0.presentation.mode } }

    /// The layout the windows have now.
    public var layout: WindowLayout { state.withLock { $0.layout } }

    /// The window the video is rendered in now: the video child, or the picture-in-picture window.
    public var videoTarget: UInt {
        state.withLock { $0.applied == .pictureInPicture ? pictureInPictureWindow : videoWindow }
    }

    /// Hands the video window (or the picture-in-picture window, while the video plays there) to
    /// `pipeline`'s video sink, and keeps doing so as the presentation changes: for primary and
    /// each interstitial asset, before they preroll.
    public func attach(_ pipeline: GStreamerPipeline) {
        let target = state.withLock { state in
            state.pipelines.append(pipeline)
            return state.applied == .pictureInPicture ? pictureInPictureWindow : videoWindow
        }
        pipeline.setWindowHandle(target)
    }

    /// Stops re-targeting `pipeline` (a finished interstitial's).
    public func detach(_ pipeline: GStreamerPipeline) {
        state.withLock { $0.pipelines.removeAll { $0 === pipeline } }
    }

    /// Draws what a ``TransportBarStateMachine`` asks of the view (a new bar, new controls, the
    /// playhead and countdown moved, a scrub's target) into the controls strip, redrawn whole: a
    /// strip is a few rectangles. The actions meant for the player draw nothing.
    public func perform(_ action: TransportBarStateMachine.Action) {
        state.withLock { state in
            guard !state.isClosed, state.strip.apply(action) else { return }
            drawControls(state.strip, width: state.layout.controls.width, height: state.layout.controls.height)
            XSync(display, 0)
        }
    }

    /// Shows the watch-together group's state in the strip, after the time (`nil`: none).
    public func showGroupState(_ text: String?) {
        state.withLock { state in
            guard !state.isClosed, state.strip.setGroupState(text) else { return }
            drawControls(state.strip, width: state.layout.controls.width, height: state.layout.controls.height)
            XSync(display, 0)
        }
    }

    /// What the controls strip shows now.
    public var strip: ControlsStrip { state.withLock { $0.strip } }

    /// Feeds the presentation machine at host time `now` and carries out its actions: a
    /// transition the user asked for by a button (or one the machine starts by itself) completes
    /// at once, the windows rearranged for it; one driven by an interactive gesture waits for
    /// ``PresentationStateMachine/Input/transitionFinished(id:cancelled:)``. A request to restore
    /// the interface from picture in picture is answered by restoring it.
    public func handle(_ input: PresentationStateMachine.Input, at now: Duration) {
        var pending = [input]
        while !pending.isEmpty {
            let input = pending.removeFirst()
            let actions = state.withLock { $0.presentation.handle(input, at: now) }
            for action in actions {
                switch action {
                case .willBeginFullScreenPresentation(let transition), .willEndFullScreenPresentation(let transition),
                     .willStartPictureInPicture(let transition):
                    if transition.trigger != .interactiveGesture {
                        pending.append(.transitionFinished(id: transition.id, cancelled: false))
                    }
                case .restoreUserInterface(let request):
                    pending.append(.restoreCompleted(id: request.id, restored: true))
                case .transitionEnded, .pictureInPictureStopped, .restoreTimedOut:
                    applyPresentation()
                case .pause:
                    // Pausing the player is the delegate's: it gets the action below.
                    break
                case .scheduleWake:
                    // Only restore deadlines ask for wakes, and restores are answered at once.
                    continue
                }
                onPresentation(action)
            }
        }
    }

    /// The keys pressed in the window since the last call, as X11 keysyms (the unshifted symbol:
    /// `0x20` space, `0xFF51` ←, `0xFF53` →, a letter's ASCII code), in order; never waits.
    public func pressedKeys() -> [UInt] {
        state.withLock { state in
            guard !state.isClosed else { return [] }
            var keys: [UInt] = []
            while XPending(display) > 0 {
                var event = XEvent()
                XNextEvent(display, &event)
                // KeyPress
                guard event.type == 2 else { continue }
                keys.append(UInt(XLookupKeysym(&event.xkey, 0)))
            }
            return keys
        }
    }

    /// Destroys the windows and closes the display. Idempotent. Close the pipelines drawing into
    /// it first: their sinks would go on drawing into windows that are gone.
    public func close() {
        state.withLock { state in
            guard !state.isClosed else { return }
            state.isClosed = true
            state.pipelines = []
            XFreeGC(display, graphics)
            XDestroyWindow(display, pictureInPictureWindow)
            XDestroyWindow(display, window)
            XSync(display, 0)
            XCloseDisplay(display)
        }
    }

    /// Moves the windows to the machine's settled mode, and the video to its window.
    private func applyPresentation() {
        let (retarget, pipelines, target) = state.withLock { state -> (Bool, [GStreamerPipeline], UInt) in
            let mode = state.presentation.mode
            guard !state.isClosed, mode != state.applied else { return (false, [], 0) }
            let layout = WindowLayout(mode: mode, screenWidth: screenWidth, screenHeight: screenHeight,
                                      videoWidth: configuration.videoWidth, videoHeight: configuration.videoHeight,
                                      controlsHeight: configuration.controlsHeight)
            let wasInPictureInPicture = state.applied == .pictureInPicture
            state.applied = mode
            state.layout = layout
            Self.move(display, window, to: layout.window)
            Self.move(display, videoWindow, to: layout.video)
            Self.move(display, controlsWindow, to: layout.controls)
            XRaiseWindow(display, controlsWindow)
            if let pip = layout.pictureInPicture {
                Self.move(display, pictureInPictureWindow, to: pip)
                XMapRaised(display, pictureInPictureWindow)
            } else {
                XUnmapWindow(display, pictureInPictureWindow)
            }
            drawControls(state.strip, width: layout.controls.width, height: layout.controls.height)
            XSync(display, 0)
            let retarget = wasInPictureInPicture != (mode == .pictureInPicture)
            return (retarget, state.pipelines, mode == .pictureInPicture ? pictureInPictureWindow : videoWindow)
        }
        for pipeline in pipelines {
            if retarget { pipeline.setWindowHandle(target) }
            pipeline.expose()
        }
        // Once the sinks draw elsewhere: a frame they were drawing when re-targeted would land
        // over a placeholder drawn before.
        state.withLock { state in
            guard !state.isClosed, state.applied == .pictureInPicture else { return }
            drawPlaceholder(width: state.layout.video.width, height: state.layout.video.height)
            XSync(display, 0)
        }
    }

    private static func move(_ display: OpaquePointer, _ window: UInt, to rect: PixelRect) {
        XMoveResizeWindow(display, window, Int32(rect.x), Int32(rect.y), UInt32(rect.width), UInt32(rect.height))
    }

    /// What the video window shows while the video plays in picture in picture.
    private func drawPlaceholder(width: Int, height: Int) {
        XSetForeground(display, graphics, 0x000000)
        XFillRectangle(display, videoWindow, graphics, 0, 0, UInt32(width), UInt32(height))
        XSetForeground(display, graphics, UInt(TransportBarDrawing.Color.text.rawValue))
        let text = "This video is playing in picture in picture."
        XDrawString(display, videoWindow, graphics, 16, Int32(height / 2), text, Int32(text.utf8.count))
    }

    private func drawControls(_ strip: ControlsStrip, width: Int, height: Int) {
        for shape in TransportBarDrawing(strip: strip, width: width, height: height).shapes {
            switch shape {
            case .rectangle(let rect, let color):
                XSetForeground(display, graphics, UInt(color.rawValue))
                XFillRectangle(display, controlsWindow, graphics, Int32(rect.x), Int32(rect.y), UInt32(rect.width), UInt32(rect.height))
            case .dot(let rect, let color):
                XSetForeground(display, graphics, UInt(color.rawValue))
                XFillArc(display, controlsWindow, graphics, Int32(rect.x), Int32(rect.y), UInt32(rect.width), UInt32(rect.height), 0, 360 * 64)
            case .text(let text, let x, let y, let color):
                XSetForeground(display, graphics, UInt(color.rawValue))
                XDrawString(display, controlsWindow, graphics, Int32(x), Int32(y), text, Int32(text.utf8.count))
            }
        }
    }
}
