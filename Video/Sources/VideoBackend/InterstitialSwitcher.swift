import MediaTime
import Synchronization

/// Plays one break: primary content in one pipeline, the interstitial asset in another, switched
/// on time by an ``InterstitialSwitchStateMachine``. The asset is prerolled (PAUSED at its start)
/// the machine's preload lead ahead of the switch, the switch is a state change on each pipeline (primary to PAUSED,
/// the asset to PLAYING: about a millisecond), and while the asset plays primary is sought
/// exactly to the resumption point, so that the way back is a state change too.
///
///     let switcher = InterstitialSwitcher(primary: primary, asset: ad, scheduledBreak: break)
///     try primary.play()
///     let phase = try await switcher.run()    // returns once primary plays again
///
/// A break of several assets (an asset list's pod) is one asset to the machine: every asset is
/// prerolled together, and each one's end of stream plays the next (a state change, as the
/// switch is); the last one's ends the break.
///
/// The assets' pipelines are the switcher's: they are closed when ``run(clock:pollInterval:)``
/// returns. Primary stays the caller's.
public final class InterstitialSwitcher: Sendable {
    private struct Driver {
        var machine: InterstitialSwitchStateMachine
        var wake: Duration?
        /// The asset's error, thrown once primary plays on.
        var failure: GStreamerError?
        /// The asset of the pod playing (or next to).
        var current = 0
        /// Whether the entry's asset was sought to the entry's offset.
        var isEntrySought = false
        /// The shell clock's time now, from ``run(clock:pollInterval:)``'s origin; `nil` before it runs.
        var host: (@Sendable () -> Duration)?
    }

    public let primary: GStreamerPipeline
    /// The break's assets, in the order they play.
    public let assets: [GStreamerPipeline]
    /// Where the break is entered: the asset that plays first, and how far into it.
    public let entry: (asset: Int, offset: MediaTime)
    private let driver: Mutex<Driver>

    /// The first asset.
    public var asset: GStreamerPipeline { assets[0] }

    /// A switcher for `scheduledBreak`, prerolling `asset` `preloadLead` ahead of it.
    public convenience init(primary: GStreamerPipeline, asset: GStreamerPipeline, scheduledBreak: InterstitialSwitchStateMachine.Break,
                            preloadLead: Duration = .seconds(5)) {
        self.init(primary: primary, assets: [asset], scheduledBreak: scheduledBreak, preloadLead: preloadLead)
    }

    /// A switcher for `scheduledBreak` playing `assets` (at least one) one after the other,
    /// prerolling them all `preloadLead` ahead of it.
    ///
    /// With an `entryOffset`, the break is entered that far into the pod (a seek into it, or a
    /// viewer catching up with a group in it): `assetDurations` (as `assets`; `nil` for one of
    /// unknown length, which the offset then does not pass) find the asset playing there, which
    /// is prerolled at its offset and plays first; the assets before it do not play.
    /// `scheduledBreak` is then what is left of the break from where it is entered.
    public init(primary: GStreamerPipeline, assets: [GStreamerPipeline], scheduledBreak: InterstitialSwitchStateMachine.Break,
                entryOffset: MediaTime = .zero, assetDurations: [MediaTime?] = [], preloadLead: Duration = .seconds(5)) {
        precondition(!assets.isEmpty, "a break plays at least one asset")
        self.primary = primary
        self.assets = assets
        entry = Self.entry(at: entryOffset, assetDurations: Array(assetDurations.prefix(assets.count)))
        var driver = Driver(machine: InterstitialSwitchStateMachine(scheduledBreak: scheduledBreak, preloadLead: preloadLead))
        driver.current = entry.asset
        self.driver = Mutex(driver)
    }

    /// The asset playing `offset` into a pod of assets of `assetDurations`, and the offset into it.
    package static func entry(at offset: MediaTime, assetDurations: [MediaTime?]) -> (asset: Int, offset: MediaTime) {
        var rest = offset
        for (index, duration) in assetDurations.enumerated() {
            guard let duration, !(rest < duration), index + 1 < assetDurations.count else { return (index, rest) }
            rest -= duration
        }
        return (0, offset)
    }

    /// The index of the pod's asset playing now (or next to).
    public var currentAsset: Int { driver.withLock { $0.current } }

    /// Ends the break now, as if its last asset had ended (a skip): primary plays from the
    /// resumption point. Nothing happens unless an asset plays.
    public func endBreak() throws(GStreamerPipelineError) {
        guard let host = driver.withLock({ $0.host }) else { return }
        try feed(.assetEnded(at: host()))
    }

    /// The break's phase now.
    public var phase: InterstitialSwitchStateMachine.Phase { driver.withLock { $0.machine.phase } }

    /// Runs the break, from primary playing (or about to) until primary plays again after it, or
    /// at once when primary is already past the break's start: returns the phase it ended in.
    /// Primary's position is read every `pollInterval` to re-anchor the deadlines; the switch
    /// itself waits on `clock` for exactly its deadline. If the asset's pipeline fails, primary
    /// plays on (from the resumption point, when the asset was playing) and the asset's error is
    /// thrown then; cancelling ends the break where it is.
    public func run<C: Clock<Duration>>(clock: C = ContinuousClock(), pollInterval: Duration = .milliseconds(100)) async throws -> InterstitialSwitchStateMachine.Phase {
        let origin = clock.now
        let host: @Sendable () -> Duration = { origin.duration(to: clock.now) }
        driver.withLock { $0.host = host }
        let streams = assets.map { $0.messages() }
        defer { for asset in assets { asset.close() } }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, messages) in streams.enumerated() {
                group.addTask {
                    for await message in messages {
                        switch message {
                        case .asyncDone(seek: nil) where index == self.entry.asset:
                            // Prerolled at its start: then at the entry's offset, if any.
                            if self.entry.offset > .zero, !self.isEntrySought {
                                self.driver.withLock { $0.isEntrySought = true }
                                _ = try self.assets[index].seek(to: self.entry.offset)
                            } else {
                                try self.prerolled(at: host())
                            }
                        case .asyncDone(seek: .some) where index == self.entry.asset: try self.prerolled(at: host())
                        case .endOfStream: try self.assetEnded(index, at: host())
                        case .error(let error):
                            self.driver.withLock { $0.failure = error }
                            try self.feed(.assetFailed(at: host()))
                        default: break
                        }
                        if self.isFinished { return }
                    }
                }
            }
            group.addTask {
                while !self.isFinished {
                    if let position = self.primary.position, self.awaitsSwitch {
                        try self.feed(.primaryPosition(position, at: host()))
                    }
                    let now = host()
                    let wake = self.driver.withLock { $0.wake }
                    let next = min(wake ?? now + pollInterval, now + pollInterval)
                    try await clock.sleep(until: origin.advanced(by: next), tolerance: .zero)
                    if let wake, wake <= host() { try self.feed(.wake(at: host())) }
                }
            }
            // Whichever task sees the break end first ends the other.
            while try await group.next() != nil {
                if isFinished {
                    group.cancelAll()
                    break
                }
            }
        }
        if let error = driver.withLock({ $0.failure }) { throw error }
        return phase
    }

    /// The entry's asset is prerolled (at the entry's offset): a switch waiting for it is due now.
    private func prerolled(at now: Duration) throws(GStreamerPipelineError) {
        try feed(.assetPrerolled)
        try feed(.wake(at: now))
    }

    /// Asset `index` ended: the next one of the pod plays, or after the last the break ends.
    private func assetEnded(_ index: Int, at now: Duration) throws(GStreamerPipelineError) {
        let next = driver.withLock { driver -> Int? in
            guard case .asset = driver.machine.phase, index == driver.current, index + 1 < assets.count else { return nil }
            driver.current = index + 1
            return index + 1
        }
        guard let next else {
            if index == assets.count - 1 { try feed(.assetEnded(at: now)) }
            return
        }
        try assets[index].pause()
        try assets[next].play()
    }

    private var isFinished: Bool { driver.withLock { $0.machine.isFinished } }

    private var isEntrySought: Bool { driver.withLock { $0.isEntrySought } }

    private var isAbandoned: Bool {
        if case .abandoned = driver.withLock({ $0.machine.phase }) { return true }
        return false
    }

    private var awaitsSwitch: Bool {
        switch driver.withLock({ $0.machine.phase }) {
        case .awaitingPrimary, .primary: true
        case .asset, .resumed, .missed, .abandoned: false
        }
    }

    /// Feeds the machine under the lock, then performs its actions with the lock let go.
    private func feed(_ input: InterstitialSwitchStateMachine.Input) throws(GStreamerPipelineError) {
        let actions = driver.withLock { driver in
            let actions = driver.machine.handle(input)
            for case .scheduleWake(let time) in actions { driver.wake = time }
            return actions
        }
        for action in actions {
            switch action {
            case .prerollAsset:
                for asset in assets[entry.asset...] { try asset.pause() }
            case .switchToAsset:
                try primary.pause()
                try assets[driver.withLock { $0.current }].play()
            case .seekPrimary(let time):
                try primary.seek(to: time)
            case .switchToPrimary:
                // Primary comes back even when the asset (failed) refuses to pause.
                let playing = assets[driver.withLock { $0.current }]
                let pausedAsset = Result { () throws(GStreamerPipelineError) in try playing.pause() }
                try primary.play()
                if case .failure(let error) = pausedAsset, !isAbandoned { throw error }
            case .scheduleWake:
                break
            }
        }
    }
}
