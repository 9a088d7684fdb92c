import HLSInterstitials
import HLSPlaylist
import MediaTime

/// The whole player as a state machine: commands, load results and the passing of host time go
/// in; loads to start or cancel and events to report come out. It owns the queue of items, the
/// item's phase, the time-control status and the interstitial player; the event controller and
/// the integrated timeline are an ``InterstitialController``, and the media (streams, their loads,
/// buffers and playheads) a playback backend it drives through ``PlaybackCommand``s and hears
/// from through ``PlaybackReport``s: today the headless one. ``Player`` is the shell that performs
/// its actions on a real or virtual clock.
///
/// Host time is a `Duration` from the clock's zero. Every input is handled at a host time `now`
/// that never goes backwards; anything due earlier (the buffer running dry, a break's start, a
/// reload) is handled first, each at its own exact time, so the result does not depend on how
/// late a timer fires.
public struct PlaybackMachine: Sendable {
    /// What a seek aims at.
    public enum SeekTarget: Sendable, Hashable {
        /// A time on the primary timeline.
        case primary(MediaTime)
        /// A time on the integrated timeline (a time inside a break restarts the break).
        case integrated(MediaTime)
        /// A break at an offset into it (S2.5), even before its asset list is loaded: playback
        /// goes on from that offset.
        case interstitial(eventID: String, offset: MediaTime)
    }

    /// What can happen to the machine.
    public enum Input: Sendable {
        /// Replaces the whole queue; the first item becomes current.
        case setItems([PlayerItem])
        /// Appends an item to the queue.
        case append(PlayerItem)
        /// Ends the current item and starts the next.
        case advanceToNextItem
        /// Plays at `rate` (0 pauses).
        case setRate(Double, originator: ChangeOriginator)
        /// Plays at `rate` with the item at `time` at host time `hostTime` (in the past: as if it
        /// had started then; in the future: waits until then).
        case setRateAnchored(Double, time: MediaTime, hostTime: Duration, originator: ChangeOriginator)
        /// Plays at `rate` with playback at `position` (primary content or a break) at host time
        /// `hostTime`, like ``setRateAnchored(_:time:hostTime:originator:)``.
        case playAnchored(Double, position: IntegratedTimeline.Position, hostTime: Duration, originator: ChangeOriginator)
        /// Plays at `rate` now with whatever is buffered.
        case playImmediately(Double)
        /// Seeks; ``PlayerEvent/Kind/seekCompleted(id:finished:)`` reports the outcome.
        case seek(id: Int, to: SeekTarget, originator: ChangeOriginator)
        /// Moves playback to a position at once, without the seek rules (restrictions, JUMP): a
        /// coordinator placing the player where the group is. A break position plays that break
        /// from the offset.
        case jump(to: IntegratedTimeline.Position, originator: ChangeOriginator)
        /// Skips the current break, if it is skippable.
        case skipCurrentEvent
        /// A coordinated group holds (true) or releases the player.
        case setCoordinationHold(Bool)
        /// Turns automatic waiting to minimise stalls on or off.
        case setAutomaticallyWaits(Bool)
        /// Replaces the app's (client-side) interstitial events of the current item.
        case setClientEvents([InterstitialEvent])
        /// Reports `time` each `interval` of progress in `domain`.
        case addPeriodicObserver(id: Int, interval: MediaTime, domain: TimeDomain)
        /// Reports when playback crosses any of `times` in `domain`.
        case addBoundaryObserver(id: Int, times: [MediaTime], domain: TimeDomain)
        /// Removes an observer.
        case removeObserver(id: Int)
        /// A load finished.
        case loadFinished(id: UInt64, result: Result<LoadedResource, LoadError>)
        /// Host time passed (a timer fired).
        case wake
    }

    /// What the shell must do.
    public enum Action: Sendable, Hashable {
        /// Start loading `request`; answer with ``Input/loadFinished(id:result:)``.
        case load(id: UInt64, request: ResourceRequest)
        /// Stop a load that is no longer wanted (its answer, if any, is ignored).
        case cancelLoad(id: UInt64)
        /// Report an event.
        case event(PlayerEvent)
    }

    /// A break being played by the interstitial player.
    struct BreakPlayback: Sendable {
        var scheduled: InterstitialSchedule.Break
        /// The assets, once known.
        var assets: [AssetList.Asset]?
        var assetIndex = 0
        /// The break offset where the current asset started.
        var assetStartOffset = MediaTime.zero
        /// Where in the current asset playback starts (joining a live break in progress).
        var assetEntryOffset = MediaTime.zero
        /// The asset open in the backend, once one is: until then the break stands at the offset
        /// it was entered at.
        var stream: PlaybackStream?
        var timeControl = TimeControl()
        var skippable = false
        var lastStatus: TimeControlStatus?
        /// The offset into the break at which it was entered (joining in progress).
        var entryOffset = MediaTime.zero
        /// A seek to make once the break ends (a seek across a JUMP-restricted break).
        var thenPosition: IntegratedTimeline.Position?
    }

    struct Observer: Sendable {
        var id: Int
        var domain: TimeDomain
        var interval: MediaTime?
        var times: [MediaTime]
        var lastTime: MediaTime?
    }

    /// The configuration.
    public let configuration: PlayerConfiguration

    // The queue.
    var queue: [PlayerItem] = []
    var phase = Phase.idle
    var status: ItemStatus = .unknown
    var primaryID = ""

    /// The media pipeline: streams, their loads and playheads.
    var media: HeadlessBackend
    var timeControl = TimeControl()
    var startTime: MediaTime?
    var hasPlayedToEnd = false

    // Interstitials.
    /// The event controller: events, asset lists, the schedule and the breaks of this pass.
    var interstitials = InterstitialController()
    var current: BreakPlayback?
    /// Where to go after the break a seek across a JUMP-restricted break plays first.
    var pendingThen: IntegratedTimeline.Position?

    // Observers.
    var observers: [Observer] = []

    // Output.
    var actions: [Action] = []
    var now: Duration = .zero {
        didSet { media.now = now }
    }
    var lastStatus: TimeControlStatus = .paused
    var lastRate: Double = 0
    /// What falls due first, worked out at the end of the last input.
    var cachedNextDue: (at: Duration, due: Due)?

    /// A machine with no item.
    public init(configuration: PlayerConfiguration = PlayerConfiguration()) {
        self.configuration = configuration
        media = HeadlessBackend(configuration: configuration)
        timeControl.automaticallyWaitsToMinimizeStalls = configuration.automaticallyWaitsToMinimizeStalls
        timeControl.resumeThreshold = configuration.resumeThreshold
    }

    /// Handles `input` at host time `now` (never earlier than the last call's) and returns what to
    /// do.
    public mutating func handle(_ input: Input, now: Duration) -> [Action] {
        let advanced = advance(to: now)
        self.now = now
        if case .wake = input, case .settled(let next) = advanced {
            // A wake asks for nothing but the passing of time, and the machine settled at `now`.
            cachedNextDue = next
        } else {
            apply(input)
            settle()
            cachedNextDue = earliestDue()
        }
        takeMediaOutput()
        let result = actions
        actions = []
        return result
    }

    /// The machine as it will stand at host time `host` if no input comes first: a copy, with
    /// whatever falls due by then handled at its own time and the actions that makes left out
    /// (the shell performs them when its timer reaches them). A reader's view of the present
    /// between two inputs; `self` does not change. A `host` not after the last input's gives the
    /// machine as it is.
    public func projected(to host: Duration) -> PlaybackMachine {
        guard now < host else { return self }
        var copy = self
        _ = copy.handle(.wake, now: host)
        return copy
    }

    /// When the machine next needs ``Input/wake``, if ever (as of the last input).
    public var nextWake: Duration? { cachedNextDue?.at }

    mutating func emit(_ kind: PlayerEvent.Kind) {
        takeMediaOutput()
        actions.append(.event(PlayerEvent(hostTime: now, kind: kind)))
    }

    /// Moves what the backend asked of the shell so far into the actions, in order.
    mutating func takeMediaOutput() {
        guard !media.output.isEmpty else { return }
        actions += media.output
        media.output.removeAll()
    }

    /// Carries out `command` in the backend.
    mutating func perform(_ command: PlaybackCommand) {
        media.perform(command, at: now)
    }

    // MARK: Commands

    mutating func apply(_ input: Input) {
        switch input {
        case .setItems(let items):
            queue = Array(items.dropFirst())
            start(items.first)
        case .append(let item):
            if !hasItem { start(item) } else { queue.append(item) }
        case .advanceToNextItem:
            start(queue.isEmpty ? nil : queue.removeFirst())
        case .setRate(let rate, let originator):
            setRate(rate, originator: originator)
        case .setRateAnchored(let rate, let time, let hostTime, let originator):
            setRateAnchored(rate, position: .primary(time), hostTime: hostTime, originator: originator)
        case .playAnchored(let rate, let position, let hostTime, let originator):
            setRateAnchored(rate, position: position, hostTime: hostTime, originator: originator)
        case .playImmediately(let rate):
            dropScheduledStart()
            timeControl.playImmediately(atRate: rate)
            let interstitial = interstitialRate(rate)
            current?.timeControl.playImmediately(atRate: interstitial)
            noteRate(originator: .user)
        case .seek(let id, let target, let originator):
            seek(id: id, to: target, originator: originator)
        case .jump(let destination, let originator):
            jump(to: destination, originator: originator)
        case .skipCurrentEvent:
            if let playing = current, playing.skippable { endBreak(.skipped) }
        case .setCoordinationHold(let held):
            timeControl.isHeldByCoordination = held
        case .setAutomaticallyWaits(let waits):
            timeControl.automaticallyWaitsToMinimizeStalls = waits
        case .setClientEvents(let events):
            interstitials.clientEvents = events
            refreshSchedule()
        case .addPeriodicObserver(let id, let interval, let domain):
            guard interval > .zero else { return }
            observers.append(Observer(id: id, domain: domain, interval: interval, times: [], lastTime: time(in: domain)))
        case .addBoundaryObserver(let id, let times, let domain):
            observers.append(Observer(id: id, domain: domain, interval: nil, times: times.sorted(), lastTime: time(in: domain)))
        case .removeObserver(let id):
            observers.removeAll { $0.id == id }
        case .loadFinished(let id, let result):
            guard let request = media.pending.removeValue(forKey: id) else { return }
            switch result {
            case .success(let resource): loaded(request, resource, id: id)
            case .failure(let error): failed(request, error, id: id)
            }
        case .wake:
            break
        }
    }

    /// The rate the interstitial player uses: the player's, except that a break restricted with
    /// X-RESTRICT=SKIP plays at the default rate only.
    func interstitialRate(_ rate: Double) -> Double {
        guard rate != 0, let playing = current else { return rate }
        return InterstitialController.requiresPreferredRate(playing.scheduled) ? configuration.defaultRate : rate
    }

    mutating func setRate(_ rate: Double, originator: ChangeOriginator) {
        // A scheduled start keeps its time: a new non-zero rate only changes the rate it starts at.
        if isScheduled, rate != 0 {
            setScheduledRate(rate)
            timeControl.playImmediately(atRate: rate)
            noteRate(originator: originator)
            return
        }
        dropScheduledStart()
        // A coordinator trimming the rate keeps the anchor; anyone pausing or the user changing
        // the rate drops it.
        if rate == 0 || originator != .coordinator { dropAnchor() }
        timeControl.setRate(rate)
        let interstitial = interstitialRate(rate)
        current?.timeControl.setRate(interstitial)
        noteRate(originator: originator)
    }

    mutating func setRateAnchored(_ rate: Double, position: IntegratedTimeline.Position, hostTime: Duration, originator: ChangeOriginator) {
        guard hasItem else { return }
        var destination = position
        if !(now < hostTime) {
            // The anchor is past: playback should be this far along by now.
            let advance = MediaTime(advancing: now - hostTime, atRate: rate)
            switch position {
            case .primary(let time): destination = .primary(time + advance)
            case .interstitial(let eventID, let offset): destination = .interstitial(eventID: eventID, offset: offset + advance)
            }
        }
        jump(to: destination, originator: originator)
        timeControl.playImmediately(atRate: rate)
        let interstitial = interstitialRate(rate)
        current?.timeControl.playImmediately(atRate: interstitial)
        // In the future: hold still at the position until the host time comes, then go.
        var anchor: Anchor?
        if case .primary(let time) = position { anchor = Anchor(time: time, hostTime: hostTime, rate: rate) }
        schedule(rate: rate, at: hostTime, anchor: anchor)
        noteRate(originator: originator)
    }

    /// Reports a rate change after a command.
    mutating func noteRate(originator: ChangeOriginator) {
        let rate = timeControl.requestedRate
        if rate != lastRate {
            lastRate = rate
            emit(.rateChanged(rate: rate, originator: originator))
        }
    }

    // MARK: Items

    mutating func start(_ next: PlayerItem?) {
        // Closing primary closes every stream of the item, preloads with it.
        perform(.close(.primary))
        current = nil
        // A new item starts with a fresh event controller; the app's events stay until the next
        // item brings its own.
        interstitials = InterstitialController(clientEvents: interstitials.clientEvents)
        pendingThen = nil
        hasPlayedToEnd = false
        startTime = nil
        phase = next.map { .steady($0) } ?? .idle
        status = .unknown
        timeControl.hasItem = next != nil
        timeControl.isHeldByInterstitial = false
        emit(.currentItemChanged(url: next?.url))
        guard let next else { return }
        interstitials.clientEvents = next.clientEvents
        primaryID = next.primaryID ?? Self.randomPrimaryID()
        media.liveTimeOrigin = next.liveTimeOrigin
        perform(.open(.primary, url: next.url, at: .zero))
    }

    static func randomPrimaryID() -> String {
        var generator = SystemRandomNumberGenerator()
        let hex = Array("0123456789ABCDEF")
        return String((0..<32).map { _ in hex[Int(generator.next() % 16)] })
    }

    mutating func fail(_ error: PlayerError) {
        guard status != .failed(error) else { return }
        media.stopLoading()
        if current != nil {
            closeBreakAsset()
            current = nil
            perform(.present(.primary))
        }
        status = .failed(error)
        perform(.setRate(.primary, 0))
        emit(.itemStatusChanged(status))
    }

    var isFailed: Bool {
        if case .failed = status { return true }
        return false
    }
}
