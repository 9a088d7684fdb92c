import HLSInterstitials
import MediaTime
import PlayerInterface
import Synchronization
public import VideoBackend
import VideoWindow

/// `interlude-video`'s player: primary in one playbin3, each break of the ``SwitchPlan`` through an
/// ``InterstitialSwitcher`` (its assets in pipelines of their own), the ``PlayerWindow`` with the
/// transport bar fed from the schedule's ``IntegratedTimeline``, and the window's keys. The loop
/// ticks every 40 ms: keys, the break to arm next, the bar.
public final class VideoPlayer: Sendable {
    /// A break played, for the measuring mode's figures.
    struct PlayedBreak: Sendable {
        var item: SwitchPlan.Item
        var scheduledBreak: InterstitialSwitchStateMachine.Break
        var logs: [(video: RenderLog, audio: RenderLog)]
    }

    /// A break armed or playing.
    final class ActiveBreak: Sendable {
        let item: SwitchPlan.Item
        let scheduledBreak: InterstitialSwitchStateMachine.Break
        let switcher: InterstitialSwitcher
        let logs: [(video: RenderLog, audio: RenderLog)]
        /// How far into the pod the break was entered (a seek into it, or following the group).
        let podOffset: MediaTime
        /// Whether it was armed to catch up with the group in it.
        let isFollowEntry: Bool
        let task: Task<InterstitialSwitchStateMachine.Phase, any Error>
        let switchedAt = Mutex<ContinuousClock.Instant?>(nil)
        private final class Completion: Sendable {
            let isDone = Mutex(false)
        }
        private let completion = Completion()

        init(item: SwitchPlan.Item, scheduledBreak: InterstitialSwitchStateMachine.Break, switcher: InterstitialSwitcher,
             logs: [(video: RenderLog, audio: RenderLog)], podOffset: MediaTime, isFollowEntry: Bool) {
            self.item = item
            self.scheduledBreak = scheduledBreak
            self.switcher = switcher
            self.logs = logs
            self.podOffset = podOffset
            self.isFollowEntry = isFollowEntry
            let completion = completion
            task = Task {
                defer { completion.isDone.withLock { $0 = true } }
                return try await switcher.run()
            }
        }

        var isFinished: Bool { completion.isDone.withLock { $0 } }
    }

    struct Flags {
        var ended = false
        var failure: GStreamerError?
    }

    public let stream: LoadedStream
    public let options: VideoPlayerOptions
    /// The group's player this one follows (`--join`).
    public let reference: GroupReference?
    private let say: @Sendable (String) -> Void
    private let flags = Mutex(Flags())
    /// When the process started, on the render logs' clock (for the start-up time).
    private let launchedAt: Duration

    /// How far ahead of primary's position a break entered to catch up with the group is armed:
    /// time for its asset to preroll (and seek) before the switch.
    static let followEntryLead = MediaTime(value: 500, timescale: 1000)

    public init(stream: LoadedStream, options: VideoPlayerOptions, reference: GroupReference? = nil, launchedAt: Duration = RenderLog.now,
                say: @escaping @Sendable (String) -> Void) {
        self.stream = stream
        self.options = options
        self.reference = reference
        self.launchedAt = launchedAt
        self.say = say
    }

    private func configuration(window: PlayerWindow?, logs: (video: RenderLog, audio: RenderLog)) -> GStreamerPipeline.Configuration {
        switch options.output {
        case .window: GStreamerPipeline.Configuration(videoSink: window?.videoSink ?? .fake, audioSink: options.isMuted ? .fake : .automatic)
        case .headless: .headless
        case .measure: GStreamerPipeline.Configuration(videoSink: .recorded(logs.video), audioSink: .recorded(logs.audio))
        }
    }

    /// Plays until the stream ends, `q`, or `--stop-after`; throws a pipeline's error.
    public func run() async throws {
        let clock = ContinuousClock()
        let started = clock.now
        let host: @Sendable () -> Duration = { started.duration(to: clock.now) }
        var window: PlayerWindow?
        if case .window(let display) = options.output {
            guard let name = display ?? ProcessEnvironment.display else {
                throw StreamLoadError(description: "no X display: set DISPLAY or give --display (or play --headless)")
            }
            window = try PlayerWindow(displayName: name)
        }
        defer { window?.close() }
        let primaryLogs = (video: RenderLog(), audio: RenderLog())
        let primary = try GStreamerPipeline(uri: stream.uri, configuration: configuration(window: window, logs: primaryLogs))
        defer { primary.close() }
        window?.attach(primary)
        let messages = primary.messages()
        let reader = Task {
            for await message in messages {
                switch message {
                case .endOfStream: flags.withLock { $0.ended = true }
                case .error(let error): flags.withLock { $0.failure = error }
                default: break
                }
            }
        }
        defer { reader.cancel() }
        // A pre-roll plays first: primary waits (prerolled) for its switcher, as it does for the
        // group's play when following one.
        let startsWithPreRoll = stream.plan.items.first?.scheduledBreak.start == .zero
        if reference == nil, !startsWithPreRoll { try primary.play() } else { try primary.pause() }
        window?.handle(reference == nil ? .playbackBegan : .playbackPaused, at: host())

        var next = stream.plan.next(after: MediaTime(seconds: -1))
        var active: ActiveBreak?
        var played: [PlayedBreak] = []
        var isPaused = reference != nil
        var follower = GroupFollower(plan: stream.plan)
        var lastSample: ContinuousClock.Instant?
        var bar = TransportBarStateMachine()
        var lastBar: ContinuousClock.Instant?
        var reportedStart = false

        func arm(_ item: SwitchPlan.Item, _ scheduledBreak: InterstitialSwitchStateMachine.Break, podOffset: MediaTime = .zero,
                 isFollowEntry: Bool = false) throws -> ActiveBreak {
            var logs: [(video: RenderLog, audio: RenderLog)] = []
            var assets: [GStreamerPipeline] = []
            for uri in item.assetURIs {
                let assetLogs = (video: RenderLog(), audio: RenderLog())
                let asset = try GStreamerPipeline(uri: uri, configuration: configuration(window: window, logs: assetLogs))
                window?.attach(asset)
                logs.append(assetLogs)
                assets.append(asset)
            }
            let switcher = InterstitialSwitcher(primary: primary, assets: assets, scheduledBreak: scheduledBreak,
                                                entryOffset: podOffset, assetDurations: item.assetDurations)
            return ActiveBreak(item: item, scheduledBreak: scheduledBreak, switcher: switcher, logs: logs, podOffset: podOffset, isFollowEntry: isFollowEntry)
        }
        /// Arms `item` to be entered `podOffset` into it where primary reaches `entryAt`: what
        /// is left of it plays, and primary resumes at the item's own resumption point.
        func enter(_ item: SwitchPlan.Item, podOffset: MediaTime, at entryAt: MediaTime, isFollowEntry: Bool = false) throws -> ActiveBreak {
            let full = item.scheduledBreak
            let rest = InterstitialSwitchStateMachine.Break(start: entryAt, duration: full.duration - podOffset,
                                                            resumptionOffset: full.resumptionPoint - entryAt)
            return try arm(item, rest, podOffset: podOffset, isFollowEntry: isFollowEntry)
        }
        /// The pipeline playing now: the break's asset, or primary.
        func playing() -> GStreamerPipeline {
            if let active, case .asset = active.switcher.phase { return active.switcher.assets[active.switcher.currentAsset] }
            return primary
        }
        /// Reports the break `armed`, over, and lets it go.
        func conclude(_ armed: ActiveBreak) async {
            let phase: InterstitialSwitchStateMachine.Phase?
            do {
                phase = try await armed.task.value
            } catch {
                say("break \(armed.item.id) failed: \(error); primary plays on")
                phase = nil
            }
            switch phase {
            case .resumed: say("break \(armed.item.id) played; primary resumed at \(MediaTime.format(armed.scheduledBreak.resumptionPoint))")
            case .missed: say("break \(armed.item.id) missed (primary was past it)")
            case .some: say("break \(armed.item.id) abandoned")
            case nil: break
            }
            if case .resumed = phase { played.append(PlayedBreak(item: armed.item, scheduledBreak: armed.scheduledBreak, logs: armed.logs)) }
            for asset in armed.switcher.assets { window?.detach(asset) }
            active = nil
        }
        /// Lets the armed break go: reported if it is over (ended a moment ago), cancelled if not.
        func disarm() async {
            guard let armed = active else { return }
            if armed.switcher.phase.isOver { return await conclude(armed) }
            armed.task.cancel()
            _ = try? await armed.task.value
            for asset in armed.switcher.assets { window?.detach(asset) }
            active = nil
        }
        func position() -> IntegratedTimeline.Position {
            if let active, case .asset = active.switcher.phase, let switchedAt = active.switchedAt.withLock({ $0 }) {
                let (eventID, offset) = active.item.event(atPodOffset: active.podOffset + MediaTime(switchedAt.duration(to: clock.now)))
                return .interstitial(eventID: eventID, offset: offset)
            }
            return .primary(primary.position ?? .zero)
        }

        while true {
            if let failure = flags.withLock({ $0.failure }) { throw failure }
            if flags.withLock({ $0.ended }) {
                say("ended at \(MediaTime.format(primary.position))")
                break
            }
            if let stopAfter = options.stopAfter, clock.now - started >= stopAfter {
                say("stopped after \(stopAfter)")
                break
            }
            if !reportedStart, let first = primaryLogs.video.rendered.first {
                reportedStart = true
                say("startup\t\(Self.milliseconds(first.hostTime - launchedAt)) ms to primary's first frame")
            }

            // Keys.
            var quit = false
            for command in (window?.pressedKeys() ?? []).compactMap(PlayerCommand.init(keySymbol:)) {
                switch command {
                case .quit: quit = true
                case .playPause where reference != nil:
                    // The group's: the video follows when the group does.
                    if isPaused { reference?.play() } else { reference?.pause() }
                case .seek(let step) where reference != nil:
                    reference?.seek(by: step)
                case .skip where reference != nil:
                    say("refused: the group plays the break (a skip is not the group's)")
                case .playPause:
                    isPaused.toggle()
                    if isPaused { try playing().pause() } else { try playing().play() }
                    window?.handle(isPaused ? .playbackPaused : .playbackBegan, at: host())
                    say(isPaused ? "paused" : "playing")
                case .toggleFullScreen:
                    window?.handle(window?.mode == .fullScreen ? .exitFullScreen : .enterFullScreen, at: host())
                case .togglePictureInPicture:
                    if case .pictureInPicture = window?.mode { window?.handle(.appWillEnterForeground, at: host()) } else { window?.handle(.appDidEnterBackground, at: host()) }
                case .seek, .skip:
                    guard let decision = SeekDecision.resolve(command, at: position(), schedule: stream.schedule) else { continue }
                    switch decision {
                    case .refused(let reason):
                        say("refused: \(reason)")
                    case .skipBreak:
                        try active?.switcher.endBreak()
                        say("skipped \(active?.item.id ?? "the break")")
                    case .primary(let time):
                        await disarm()
                        _ = try primary.seek(to: time)
                        next = stream.plan.next(after: time)
                        say("seek to \(MediaTime.format(time))")
                    case .playBreak(let eventID, let offset, let then):
                        guard let item = stream.plan.item(containing: eventID), let eventStart = item.offset(ofEvent: eventID) else {
                            say("refused: break \"\(eventID)\" plays nothing")
                            continue
                        }
                        await disarm()
                        var entered = item
                        if let then { entered.scheduledBreak.resumptionOffset = then - item.scheduledBreak.start }
                        // Just before the break, so that the switcher switches on primary's
                        // position, into the break's asset at the offset sought.
                        _ = try primary.seek(to: MediaTime.max(.zero, item.scheduledBreak.start - MediaTime(seconds: 1)))
                        active = try enter(entered, podOffset: eventStart + offset, at: item.scheduledBreak.start)
                        next = nil
                        say((offset > .zero ? "seek plays break \(item.id) from \(MediaTime.format(eventStart + offset))" : "seek plays break \(item.id) first")
                            + (then.map { ", then \(MediaTime.format($0))" } ?? ""))
                    }
                }
            }
            if quit {
                say("quit")
                break
            }

            // Following the group: its reference player says where the video should be.
            if let reference {
                let now = reference.now.reference
                let videoNow: GroupFollower.Video
                if let active, case .asset = active.switcher.phase {
                    videoNow = .inBreak(active.item, isPlaying: !isPaused)
                } else if let time = primary.position {
                    videoNow = .primary(time, isPlaying: !isPaused, rate: primary.rate)
                } else {
                    videoNow = .loading
                }
                for action in follower.decide(reference: now, video: videoNow, at: host()) {
                    switch action {
                    case .play, .pause:
                        isPaused = action == .pause
                        if isPaused { try playing().pause() } else { try playing().play() }
                        window?.handle(isPaused ? .playbackPaused : .playbackBegan, at: host())
                        say("follow: \(isPaused ? "pause" : "play") (\(reference.groupLine ?? "the group"))")
                    case .seekPrimary(let time):
                        let from = Self.describe(position())
                        await disarm()
                        _ = try primary.seek(to: time)
                        next = stream.plan.next(after: time)
                        say("follow: seek to \(MediaTime.format(time)) (video at \(from), reference at \(Self.describe(now.position)), lead \(Self.milliseconds(Duration(rounding: follower.seekLead))) ms)")
                    case .setRate(let rate):
                        _ = try primary.setRate(rate)
                        say("follow: rate \(rate)")
                    case .playBreak(let eventID, let offset):
                        guard let item = stream.plan.item(containing: eventID), let eventStart = item.offset(ofEvent: eventID) else { continue }
                        if let active, active.item == item, active.isFollowEntry { continue }
                        await disarm()
                        // Armed a moment ahead, entered where the reference will be by then.
                        let lead = now.isPlaying ? Self.followEntryLead : .zero
                        let podOffset = MediaTime.min(eventStart + offset + lead, item.scheduledBreak.duration)
                        active = try enter(item, podOffset: podOffset, at: (primary.position ?? .zero) + Self.followEntryLead, isFollowEntry: true)
                        next = nil
                        say("follow: break \(item.id) from \(MediaTime.format(podOffset)) (the group is in it)")
                    case .endBreak:
                        guard let active else { continue }
                        try active.switcher.endBreak()
                        say("follow: ended break \(active.item.id) early (the group has left it)")
                    }
                }
                if case .measure = options.output, lastSample.map({ $0.duration(to: clock.now) >= .milliseconds(250) }) ?? true {
                    lastSample = clock.now
                    let time = ProcessEnvironment.realTime
                    let video = position()
                    let followed = reference.now.reference.position
                    say(["sample", "\(time)", Self.describe(video), Self.describe(followed), reference.groupLine ?? "-"].joined(separator: "\t"))
                }
            }

            // The break: armed once primary plays, reported as it goes.
            if active == nil, let item = next, primary.position != nil {
                active = try arm(item, item.scheduledBreak)
                next = nil
            }
            if let armed = active {
                if case .asset = armed.switcher.phase, armed.switchedAt.withLock({ $0 }) == nil {
                    armed.switchedAt.withLock { $0 = clock.now }
                    say("break \(armed.item.id) started at \(MediaTime.format(armed.scheduledBreak.start)) (\(armed.item.assetURIs.count) asset\(armed.item.assetURIs.count == 1 ? "" : "s"))")
                }
                if armed.isFinished {
                    await conclude(armed)
                    next = stream.plan.next(after: armed.scheduledBreak.start)
                }
            }

            // The bar, four times a second.
            if let window, lastBar.map({ $0.duration(to: clock.now) >= .milliseconds(250) }) ?? true {
                lastBar = clock.now
                for action in bar.handle(.snapshot(IntegratedTimeline.Snapshot(schedule: stream.schedule, position: position()))) {
                    window.perform(action)
                }
                if let reference { window.showGroupState(reference.groupLine) }
            }
            try await Task.sleep(for: .milliseconds(40))
        }
        await disarm()
        primary.close()
        if case .measure = options.output {
            for line in Self.timingLines(played, primaryLogs: primaryLogs) { say(line) }
        }
    }

    /// One `timing` line per break played: tab-separated id, start, first ad frame vs schedule,
    /// first frame after vs schedule, resumed at, A/V offset in the ad and after it; then the
    /// description.
    static func timingLines(_ played: [PlayedBreak], primaryLogs: (video: RenderLog, audio: RenderLog)) -> [String] {
        played.map { played in
            let assetVideo = played.logs.flatMap { $0.video.rendered }.sorted { $0.hostTime < $1.hostTime }
            let assetAudio = played.logs.flatMap { $0.audio.rendered }.sorted { $0.hostTime < $1.hostTime }
            guard let timing = InterstitialSwitchTiming(
                scheduledBreak: played.scheduledBreak,
                primaryVideo: primaryLogs.video.rendered, primaryAudio: primaryLogs.audio.rendered,
                assetVideo: assetVideo, assetAudio: assetAudio
            ) else { return "timing\t\(played.item.id)\tunmeasured (a log lacks frames)" }
            return ["timing", played.item.id, MediaTime.format(played.scheduledBreak.start),
                    milliseconds(timing.assetVideoLateness), milliseconds(timing.primaryVideoLateness),
                    MediaTime.format(timing.resumedAt), milliseconds(timing.assetAVOffset), milliseconds(timing.primaryAVOffset),
                    "\(timing)"].joined(separator: "\t")
        }
    }

    /// `primary 12.345 s`, `break mid-1 +1.234 s`: the samples' and the follow lines' positions.
    static func describe(_ position: IntegratedTimeline.Position) -> String {
        switch position {
        case .primary(let time): "primary \(MediaTime.format(time))"
        case .interstitial(let eventID, let offset): "break \(eventID) +\(MediaTime.format(offset))"
        }
    }

    static func milliseconds(_ duration: Duration) -> String {
        let tenths = Int((Double(duration / .microseconds(1)) / 100).rounded())
        return "\(tenths < 0 ? "-" : "+")\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }
}

extension MediaTime {
    /// Seconds to the millisecond, `?` when unknown.
    static func format(_ time: MediaTime?) -> String {
        guard let time else { return "?" }
        let milliseconds = Int((time.seconds * 1000).rounded())
        return "\(milliseconds / 1000).\(String(abs(milliseconds % 1000)).leftPadded(to: 3)) s"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
