import Foundation
import HLSInterstitials
import HLSPlaylist
import MediaTime
import PlayerInterface
import Synchronization
import Testing
import VideoBackend
import VideoTestSupport
import VideoWindow

/// The player window on a private Xvfb screen, with real playback into it (ximagesink through
/// GstVideoOverlay): screenshots compared with the frames ffmpeg decodes from the same fixture at
/// the same time tell which asset is on screen. Real time, a few seconds each.
@Suite("PlayerWindow", .enabled(if: XvfbDisplay.isAvailable, Comment(rawValue: XvfbDisplay.skipReason)), .serialized)
struct PlayerWindowTests {
    static let content = "\(FixtureServer.media)/content/index.m3u8"
    static let ad = "\(FixtureServer.media)/ads/ad-10s/index.m3u8"
    /// Below this mean difference (of 255, over 32 × 18 grayscale) a screenshot shows the frame.
    static let sameFrame = 12.0

    /// A pipeline on `uri` rendering into `window` (its video sink; no sound card).
    static func pipeline(_ uri: String, in window: PlayerWindow) throws -> GStreamerPipeline {
        let pipeline = try GStreamerPipeline(uri: uri, configuration: GStreamerPipeline.Configuration(videoSink: window.videoSink, audioSink: .fake))
        window.attach(pipeline)
        return pipeline
    }

    /// A screenshot of `window` now (and a PNG of it with `VIDEO_SCREENSHOTS=DIR`).
    static func screenshot(_ name: String, display: String, window: UInt) throws -> GrayFrame {
        let shot = try GrayFrame.screenshot(display: display, window: window)
        try GrayFrame.keepScreenshot(name, display: display, window: window)
        return shot
    }

    /// How far `shot` is from each candidate, a playlist and a time: its best frame from 80 ms
    /// before that time to 160 ms after (the capture takes some 50 to 100 ms). Decoding takes a
    /// while: done once playback is over.
    static func differences(_ shot: GrayFrame, from candidates: [(String, playlist: String, seconds: Double)], ignoredBottomRows: Int = 0) throws -> [String: Double] {
        var differences: [String: Double] = [:]
        for (label, playlist, seconds) in candidates {
            let frames = try GrayFrame.decoded(playlist, from: max(0, seconds - 0.08), duration: 0.24)
            differences[label] = frames.map { shot.difference(from: $0, ignoredBottomRows: ignoredBottomRows) }.min() ?? 255
        }
        return differences
    }

    static func expectShows(_ expected: String, _ differences: [String: Double], _ moment: String) {
        let best = differences.min { $0.value < $1.value }?.key
        #expect(best == expected && differences[expected, default: 255] < sameFrame, "\(moment): differences \(differences)")
    }

    struct Timeout: Error, CustomStringConvertible {
        var description: String
    }

    /// Waits until `condition` holds, checking every 10 ms, for at most `limit`.
    static func wait(_ what: String, within limit: Duration = .seconds(10), until condition: () -> Bool) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while !condition() {
            guard clock.now < deadline else { throw Timeout(description: "timed out waiting for \(what)") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test("primary before a break, the ad during it, primary after it at the resumption point; the bar's dot and range where the snapshot puts them")
    func breakOnScreen() async throws {
        let schedule = try ContentSchedule.make()
        try await XvfbDisplay.with { display in
            let window = try PlayerWindow(displayName: display)
            defer { window.close() }
            var bar = TransportBarStateMachine()
            for action in bar.handle(.snapshot(IntegratedTimeline.Snapshot(schedule: schedule, position: .primary(MediaTime(seconds: 20))))) {
                window.perform(action)
            }
            try await FixtureServer.with { base in
                let primary = try Self.pipeline("\(base)/content/index.m3u8", in: window)
                defer { primary.close() }
                let messages = primary.messages()
                try primary.pause()
                try await messages.asyncDone(nil)
                try await messages.asyncDone(try primary.seek(to: MediaTime(seconds: 20)))
                let asset = try Self.pipeline("\(base)/ads/ad-10s/index.m3u8", in: window)
                let scheduledBreak = InterstitialSwitchStateMachine.Break(start: try #require(MediaTime(decimal: "21.3")), duration: try #require(MediaTime(decimal: "2.5")))
                let switcher = InterstitialSwitcher(primary: primary, asset: asset, scheduledBreak: scheduledBreak)
                try primary.play()
                let running = Task { try await switcher.run() }
                defer { running.cancel() }

                // Before the break, 20.8 s into primary.
                try await Self.wait("primary at 20.8 s") { (primary.position?.seconds ?? 0) >= 20.8 }
                let before = try #require(primary.position).seconds
                let beforeShot = try Self.screenshot("before-break", display: display, window: window.videoWindow)
                for action in bar.handle(.snapshot(IntegratedTimeline.Snapshot(schedule: schedule, position: .primary(MediaTime(seconds: 21))))) {
                    window.perform(action)
                }
                try GrayFrame.keepScreenshot("window-before-break", display: display, window: window.window)
                let controls = try GrayFrame.rgbScreenshot(display: display, window: window.controlsWindow)

                // During the break, a second into the ad.
                try await Self.wait("the ad") {
                    if case .asset = switcher.phase { return true }
                    return false
                }
                let clock = ContinuousClock()
                let adStart = clock.now
                try await Task.sleep(for: .seconds(1))
                let inAd = Double((clock.now - adStart) / .milliseconds(1)) / 1000
                let adShot = try Self.screenshot("in-break", display: display, window: window.videoWindow)
                // The strip counts the break down, as the snapshot puts it.
                let offset = try #require(MediaTime(seconds: inAd, preferredTimescale: 1000))
                for action in bar.handle(.snapshot(IntegratedTimeline.Snapshot(schedule: schedule, position: .interstitial(eventID: "ad", offset: offset)))) {
                    window.perform(action)
                }
                #expect(window.strip.label == "Ad \(TimeFormat.remaining(scheduledBreak.duration - offset))")
                #expect(window.strip.label?.hasPrefix("Ad -0:0") == true, "the strip reads \(window.strip.label ?? "nothing")")
                try GrayFrame.keepScreenshot("window-in-break", display: display, window: window.window)

                // After the break, half a second into primary again.
                _ = try await running.value
                try await Task.sleep(for: .milliseconds(500))
                let after = try #require(primary.position).seconds
                let afterShot = try Self.screenshot("after-break", display: display, window: window.videoWindow)
                primary.close()
                let beforeBreak = try Self.differences(beforeShot, from: [("primary", Self.content, before), ("ad", Self.ad, 0.5)])
                let inBreak = try Self.differences(adShot, from: [("primary", Self.content, 21.3), ("ad", Self.ad, inAd)])
                let afterBreak = try Self.differences(afterShot, from: [("primary", Self.content, after), ("ad", Self.ad, 2.5)])
                print("before the break (\(before) s): \(beforeBreak); in the ad (\(inAd) s): \(inBreak); after (\(after) s): \(afterBreak)")
                Self.expectShows("primary", beforeBreak, "before the break")
                Self.expectShows("ad", inBreak, "in the ad")
                Self.expectShows("primary", afterBreak, "after the break")
                // Resumed where it left (X-RESUME-OFFSET=0), not 2.5 s on at 23.8 s: half a second
                // later, give or take the scheduling of a loaded machine.
                #expect(after > 21.3 + 0.4 && after < 21.3 + 1.5, "primary at \(after) s half a second after resuming at 21.3 s")

                // The bar: the point break's dot at 21.3 s, the range break's span from 40 to 50 s.
                let layout = window.layout.controls
                let drawn = try #require(bar.bar)
                let drawing = TransportBarDrawing(bar: drawn, width: layout.width, height: layout.height)
                func pixel(x: Int, y: Int) -> UInt32 {
                    let offset = (y * layout.width + x) * 3
                    guard offset + 2 < controls.count else { return 0 }
                    return UInt32(controls[offset]) << 16 | UInt32(controls[offset + 1]) << 8 | UInt32(controls[offset + 2])
                }
                let track = drawing.track
                let row = track.y + 1
                let dot = track.x + drawn.column(for: scheduledBreak.start, columns: track.width)
                #expect(pixel(x: dot, y: row - 3) == TransportBarDrawing.Color.pointBreak.rawValue, "the dot at x \(dot)")
                let rangeStart = track.x + drawn.column(for: MediaTime(seconds: 40), columns: track.width)
                let rangeEnd = track.x + drawn.column(for: MediaTime(seconds: 50), columns: track.width)
                #expect(pixel(x: rangeStart + 2, y: row) == TransportBarDrawing.Color.rangeBreak.rawValue)
                #expect(pixel(x: rangeEnd - 2, y: row) == TransportBarDrawing.Color.rangeBreak.rawValue)
                #expect(pixel(x: rangeEnd + 2, y: row) == TransportBarDrawing.Color.primary.rawValue)
                #expect(pixel(x: rangeStart - 2, y: row) == TransportBarDrawing.Color.primary.rawValue)
            }
        }
    }

    /// A presentation callback by its name, with the transition's end points and outcome.
    static func name(_ action: PresentationStateMachine.Action) -> String {
        switch action {
        case .willBeginFullScreenPresentation(let transition): "willBeginFullScreen \(transition.from)→\(transition.to)"
        case .willEndFullScreenPresentation(let transition): "willEndFullScreen \(transition.from)→\(transition.to)"
        case .willStartPictureInPicture(let transition): "willStartPictureInPicture \(transition.from)→\(transition.to)"
        case .transitionEnded(let transition, let outcome): "transitionEnded \(transition.from)→\(transition.to) \(outcome)"
        case .restoreUserInterface(let request): "restoreUserInterface →\(request.returnTo)"
        case .restoreTimedOut: "restoreTimedOut"
        case .pictureInPictureStopped(let restored): "pictureInPictureStopped restored \(restored)"
        case .pause(let reason): "pause \(reason)"
        case .scheduleWake: "scheduleWake"
        }
    }

    @Test("full screen, a cancelled exit that stays full screen, picture in picture and back to full screen, then inline: the callbacks in order and the video on screen where each mode puts it")
    func presentation() async throws {
        try await XvfbDisplay.with { display in
            let callbacks = Mutex<[PresentationStateMachine.Action]>([])
            let window = try PlayerWindow(displayName: display) { action in callbacks.withLock { $0.append(action) } }
            defer { window.close() }
            try await FixtureServer.with { base in
                let primary = try Self.pipeline("\(base)/content/index.m3u8", in: window)
                defer { primary.close() }
                let messages = primary.messages()
                try primary.play()
                try await messages.reach(.playing)
                let clock = ContinuousClock()
                let origin = clock.now
                func now() -> Duration { origin.duration(to: clock.now) }
                // Each state: a few frames at the new size, then a screenshot of where the video is.
                // In full screen the controls cover the video's bottom 40 of 720 rows: one row of 18.
                var shots: [(name: String, shot: GrayFrame, position: Double, covered: Int)] = []
                func capture(_ name: String, _ target: UInt) async throws {
                    try await Task.sleep(for: .milliseconds(300))
                    let position = try #require(primary.position).seconds
                    let covered = window.mode == .fullScreen ? 1 : 0
                    shots.append((name, try Self.screenshot(name, display: display, window: target), position, covered))
                }
                let full = PixelRect(x: 0, y: 0, width: window.screenWidth, height: window.screenHeight)

                window.handle(.playbackBegan, at: now())
                window.handle(.enterFullScreen, at: now())
                #expect(window.mode == .fullScreen)
                #expect(window.layout.video == full)
                try await capture("full-screen", window.videoWindow)

                // A dismissal gesture the user abandons: still full screen.
                window.handle(.beginInteractiveDismissal, at: now())
                guard case .willEndFullScreenPresentation(let dismissal)? = callbacks.withLock({ $0.last }) else {
                    Issue.record("no will-end callback: \(callbacks.withLock { $0 })")
                    return
                }
                window.handle(.transitionFinished(id: dismissal.id, cancelled: true), at: now())
                #expect(window.mode == .fullScreen)
                #expect(window.layout.video == full)
                try await capture("full-screen-after-cancelled-exit", window.videoWindow)

                // To the background: picture in picture by itself, the video re-targeted there.
                window.handle(.appDidEnterBackground, at: now())
                #expect(window.mode == .pictureInPicture)
                #expect(window.videoTarget == window.pictureInPictureWindow)
                try await capture("picture-in-picture", window.pictureInPictureWindow)
                let placeholder = try Self.screenshot("picture-in-picture-placeholder", display: display, window: window.videoWindow)

                // Back: the interface restored to full screen, then the user leaves it.
                window.handle(.appWillEnterForeground, at: now())
                #expect(window.mode == .fullScreen)
                #expect(window.videoTarget == window.videoWindow)
                window.handle(.exitFullScreen, at: now())
                #expect(window.mode == .inline)
                #expect(window.layout.video == PixelRect(x: 0, y: 0, width: 640, height: 360))
                try await capture("inline", window.videoWindow)
                primary.close()

                #expect(callbacks.withLock { $0 }.map(Self.name) == [
                    "willBeginFullScreen inline→fullScreen", "transitionEnded inline→fullScreen completed",
                    "willEndFullScreen fullScreen→inline", "transitionEnded fullScreen→inline cancelled",
                    "willStartPictureInPicture fullScreen→pictureInPicture", "transitionEnded fullScreen→pictureInPicture completed",
                    "restoreUserInterface →fullScreen", "pictureInPictureStopped restored true",
                    "willEndFullScreen fullScreen→inline", "transitionEnded fullScreen→inline completed",
                ])
                var figures: [String] = []
                for (name, shot, position, covered) in shots {
                    let differences = try Self.differences(shot, from: [("primary", Self.content, position), ("ad", Self.ad, 1)], ignoredBottomRows: covered)
                    figures.append("\(name) (\(position) s): \(differences)")
                    Self.expectShows("primary", differences, name)
                }
                let fromPrimary = try Self.differences(placeholder, from: [("primary", Self.content, shots[2].position)])["primary", default: 0]
                figures.append("placeholder: \(fromPrimary) from primary")
                print(figures.joined(separator: "; "))
                #expect(fromPrimary > 30, "the video window while in picture in picture is \(fromPrimary) from primary")
            }
        }
    }
}
