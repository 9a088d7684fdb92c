import HLSInterstitials
import MediaTime
import Synchronization

/// A headless player (Apple's `AVQueuePlayer`, its items, its interstitial player and event
/// monitor, in one): loads HLS over a ``ResourceLoader``, moves a playhead on an injected clock,
/// buffers and stalls, plays interstitial breaks and resumes primary where the schedule says, and
/// reports it all as ``PlayerEvent``s.
///
///     let player = Player(clock: ContinuousClock(), loader: HTTPResourceLoader())
///     player.replaceCurrentItem(with: PlayerItem(url: "http://127.0.0.1:8080/vod/movie/alice/main.m3u8"))
///     player.play()
///     for await event in player.events() { print(event) }
///
/// The logic is ``PlaybackMachine``; this shell starts the loads it asks for, wakes it when host
/// time reaches its next deadline, and hands its events to subscribers. On a ``ManualClock``
/// with a ``ManualTaskExecutor`` (module `VirtualTime`) a two-hour stream plays in milliseconds.
public final class Player: Sendable {
    private struct State {
        var machine: PlaybackMachine
        var loads: [UInt64: Task<Void, Never>] = [:]
        var timer: Task<Void, Never>?
        var timerDeadline: Duration?
        var subscribers: [Int: AsyncStream<PlayerEvent>.Continuation] = [:] {
            didSet { subscriberList = Array(subscribers.values) }
        }
        var subscriberList: [AsyncStream<PlayerEvent>.Continuation] = []
        var observerStreams: [Int: AsyncStream<MediaTime>.Continuation] = [:]
        var seekWaiters: [Int: CheckedContinuation<Bool, Never>] = [:]
        var handlers: [@Sendable (PlayerEvent) -> Void] = []
        var stateStreams: [Int: AsyncStream<PlayerState>.Continuation] = [:]
        /// The last value published to ``stateStreams`` (kept only while there are any).
        var published: PlayerState?
        var nextID = 0
        /// What the machine asked for that calls out of the player: performed after the lock is
        /// let go, in order, by one thread at a time (``isPerforming``).
        var outbox: [Effect] = []
        var isPerforming = false
    }

    /// Work that leaves the player: cancelling a task runs its cancellation handlers (a loader's
    /// takes its own locks), handlers are the app's code, continuations resume other tasks. None
    /// of it happens with the lock held.
    private enum Effect {
        case cancel(Task<Void, Never>)
        case resume(CheckedContinuation<Bool, Never>, Bool)
        case yield(AsyncStream<MediaTime>.Continuation, MediaTime)
        case deliver(PlayerEvent, [@Sendable (PlayerEvent) -> Void], [AsyncStream<PlayerEvent>.Continuation])
        // Boxed: a state is large, and every effect in the outbox is as large as the largest case.
        indirect case publish(PlayerState, [AsyncStream<PlayerState>.Continuation])
    }

    private let locked: Mutex<State>
    private let loader: any ResourceLoader
    private let executor: (any TaskExecutor)?
    private let hostNow: @Sendable () -> Duration
    private let sleepUntil: @Sendable (Duration) async throws -> Void

    /// A player on `clock` loading through `loader`. Loads and timers run as tasks preferring
    /// `executor` (a ``ManualTaskExecutor`` for virtual time), or the global executor.
    public init<C: Clock>(clock: C, loader: any ResourceLoader, configuration: PlayerConfiguration = PlayerConfiguration(), executor: (any TaskExecutor)? = nil) where C.Duration == Duration {
        let origin = clock.now
        self.hostNow = { origin.duration(to: clock.now) }
        self.sleepUntil = { deadline in try await clock.sleep(until: origin.advanced(by: deadline), tolerance: nil) }
        self.loader = loader
        self.executor = executor
        self.locked = Mutex(State(machine: PlaybackMachine(configuration: configuration)))
    }

    deinit {
        let (tasks, subscribers, streams, states, waiters) = locked.withLock { state in
            (Array(state.loads.values) + (state.timer.map { [$0] } ?? []), Array(state.subscribers.values),
             Array(state.observerStreams.values), Array(state.stateStreams.values), Array(state.seekWaiters.values))
        }
        for task in tasks { task.cancel() }
        for subscriber in subscribers { subscriber.finish() }
        for stream in streams { stream.finish() }
        for stream in states { stream.finish() }
        for waiter in waiters { waiter.resume(returning: false) }
    }

    // MARK: Driving the machine

    private func send(_ input: PlaybackMachine.Input) {
        withState { state in run(input, in: &state) }
    }

    /// Runs `body` under the lock, then performs the effects it queued with the lock let go (the
    /// shell rule: nothing calls out of the player while it holds its lock). When another thread
    /// is already performing effects, that thread performs these too, after its own, so handlers
    /// see events in the order the machine made them; a handler that calls back into the player
    /// queues more work instead of deadlocking.
    private func withState<T>(_ body: (inout State) -> T) -> T {
        var (result, batch) = locked.withLock { state -> (T, [Effect]) in
            let result = body(&state)
            return (result, state.isPerforming ? [] : Self.takeOutbox(&state))
        }
        while !batch.isEmpty {
            for effect in batch { perform(effect) }
            batch = locked.withLock { Self.takeOutbox(&$0) }
        }
        return result
    }

    /// The queued effects, for this thread to perform (it becomes the one that does); when none
    /// are left, no thread is performing any more.
    private static func takeOutbox(_ state: inout State) -> [Effect] {
        state.isPerforming = !state.outbox.isEmpty
        defer { state.outbox.removeAll(keepingCapacity: true) }
        return state.outbox
    }

    private func perform(_ effect: Effect) {
        switch effect {
        case .cancel(let task):
            task.cancel()
        case .resume(let continuation, let finished):
            continuation.resume(returning: finished)
        case .yield(let stream, let time):
            stream.yield(time)
        case .deliver(let event, let handlers, let subscribers):
            for handler in handlers { handler(event) }
            for subscriber in subscribers { subscriber.yield(event) }
        case .publish(let value, let streams):
            for stream in streams { stream.yield(value) }
        }
    }

    /// Feeds the machine under the lock; what calls out goes to the outbox (starting a task does
    /// not block and stays here, so that its bookkeeping is in place before it can finish).
    private func run(_ input: PlaybackMachine.Input, in state: inout State) {
        let actions = state.machine.handle(input, now: hostNow())
        for action in actions {
            switch action {
            case .load(let id, let request):
                let loader = self.loader
                state.loads[id] = Task(executorPreference: executor) { [weak self] in
                    let result: Result<LoadedResource, LoadError>
                    do throws(LoadError) { result = .success(try await loader.load(request)) } catch { result = .failure(error) }
                    self?.finished(id, result)
                }
            case .cancelLoad(let id):
                if let task = state.loads.removeValue(forKey: id) { state.outbox.append(.cancel(task)) }
            case .event(let event):
                switch event.kind {
                case .periodicTime(let observer, let time), .boundaryTime(let observer, let time):
                    if let stream = state.observerStreams[observer] { state.outbox.append(.yield(stream, time)) }
                    continue
                case .seekCompleted(let id, let finished):
                    if let waiter = state.seekWaiters.removeValue(forKey: id) { state.outbox.append(.resume(waiter, finished)) }
                default:
                    break
                }
                state.outbox.append(.deliver(event, state.handlers, state.subscriberList))
            }
        }
        publish(in: &state)
        schedule(in: &state)
    }

    /// Queues the machine's state for the state streams when it differs from the last published
    /// (only while someone observes: the snapshot costs O(s)).
    private func publish(in state: inout State) {
        guard !state.stateStreams.isEmpty else { return }
        let value = state.machine.playerState
        guard value != state.published else { return }
        state.published = value
        state.outbox.append(.publish(value, Array(state.stateStreams.values)))
    }

    private func finished(_ id: UInt64, _ result: Result<LoadedResource, LoadError>) {
        withState { state in
            guard state.loads.removeValue(forKey: id) != nil else { return }
            run(.loadFinished(id: id, result: result), in: &state)
        }
    }

    /// Keeps one timer task for the machine's next deadline; a later deadline keeps the running
    /// timer (it wakes the machine early, which then asks again).
    private func schedule(in state: inout State) {
        guard let deadline = state.machine.nextWake else { return }
        if let current = state.timerDeadline, state.timer != nil, !(deadline < current) { return }
        if let timer = state.timer { state.outbox.append(.cancel(timer)) }
        state.timerDeadline = deadline
        let sleepUntil = self.sleepUntil
        state.timer = Task(executorPreference: executor) { [weak self] in
            do { try await sleepUntil(deadline) } catch { return }
            self?.timerFired(deadline)
        }
    }

    private func timerFired(_ deadline: Duration) {
        withState { state in
            guard state.timerDeadline == deadline else { return }
            state.timer = nil
            state.timerDeadline = nil
            run(.wake, in: &state)
        }
    }

    /// Reads the machine as it stands at the current host time, changing nothing: what fell due
    /// since its last input (its timer has not fired yet) is worked out on a copy, outside the
    /// lock; the player handles it, and reports it, when its timer fires.
    private func read<T>(_ body: (PlaybackMachine) -> T) -> T {
        let host = hostNow()
        let machine = locked.withLock { $0.machine }
        return body(machine.projected(to: host))
    }

    // MARK: Items

    /// Replaces the queue with `item` (nil: nothing to play).
    public func replaceCurrentItem(with item: PlayerItem?) { send(.setItems(item.map { [$0] } ?? [])) }

    /// Replaces the queue with `items`; the first plays, the rest follow.
    public func setItems(_ items: [PlayerItem]) { send(.setItems(items)) }

    /// Appends an item to the queue.
    public func append(_ item: PlayerItem) { send(.append(item)) }

    /// Ends the current item and plays the next.
    public func advanceToNextItem() { send(.advanceToNextItem) }

    /// The current item, if any.
    public var currentItem: PlayerItem? { read { $0.item } }

    /// The current item's status.
    public var currentItemStatus: ItemStatus { read { $0.status } }

    // MARK: Rate

    /// Plays at the default rate.
    public func play() { send(.setRate(locked.withLock { $0.machine.configuration.defaultRate }, originator: .user)) }

    /// Pauses.
    public func pause() { send(.setRate(0, originator: .user)) }

    /// The rate asked for (0 when paused).
    public var rate: Double { read { $0.timeControl.requestedRate } }

    /// Asks for `rate`, from `originator` (a coordinator passes `.coordinator`).
    public func setRate(_ rate: Double, originator: ChangeOriginator = .user) { send(.setRate(rate, originator: originator)) }

    /// Plays at `rate` with the item at `time` at host time `hostTime` (Apple's
    /// `setRate(_:time:atHostTime:)`): a future host time holds the player until then.
    public func setRate(_ rate: Double, time: MediaTime, atHostTime hostTime: Duration, originator: ChangeOriginator = .user) {
        send(.setRateAnchored(rate, time: time, hostTime: hostTime, originator: originator))
    }

    /// Plays at `rate` with playback at `position` (primary content or a break) at host time
    /// `hostTime`: the general form a coordinator uses.
    public func play(atRate rate: Double, from position: IntegratedTimeline.Position, atHostTime hostTime: Duration, originator: ChangeOriginator = .coordinator) {
        send(.playAnchored(rate, position: position, hostTime: hostTime, originator: originator))
    }

    /// Plays at `rate` at once with whatever is buffered.
    public func playImmediately(atRate rate: Double) { send(.playImmediately(rate)) }

    /// Whether playback waits for enough buffer before starting or resuming.
    public var automaticallyWaitsToMinimizeStalls: Bool {
        get { read { $0.timeControl.automaticallyWaitsToMinimizeStalls } }
        set { send(.setAutomaticallyWaits(newValue)) }
    }

    /// Holds the player still for a coordinated group (`true`) or lets it go.
    public func setCoordinationHold(_ held: Bool) { send(.setCoordinationHold(held)) }

    /// Whether the playhead moves, and if not why.
    public var timeControlStatus: TimeControlStatus { read { $0.lastStatus } }

    /// The host time now, on the player's clock.
    public var hostTime: Duration { hostNow() }

    // MARK: Time

    /// The primary item's current time (it stands still while a break plays).
    public var currentTime: MediaTime { read { $0.primaryPosition } }

    /// The integrated timeline's current time.
    public var integratedCurrentTime: MediaTime { read { $0.integratedTime } }

    /// A snapshot of the current item's integrated timeline.
    public var currentSnapshot: IntegratedTimeline.Snapshot? { read { $0.snapshot() } }

    /// The primary item's duration: `indefinite` for live, `nil` until known.
    public var duration: MediaTime? {
        read { machine in machine.duration }
    }

    /// What of the primary item is loaded.
    public var loadedTimeRanges: [MediaTimeRange] { read { $0.media.primary?.buffer.loadedRanges ?? [] } }

    /// Where the primary item can be sought to (the playlist's window).
    public var seekableTimeRanges: [MediaTimeRange] {
        read { machine in machine.media.primary?.timeline.map { [MediaTimeRange(start: $0.start, end: $0.end)] } ?? [] }
    }

    /// The access log: one entry per stretch of loading from one variant.
    public var accessLog: [AccessLogEntry] { read { $0.media.primary?.access ?? [] } }

    /// The error log.
    public var errorLog: [ErrorLogEntry] { read { $0.media.errorLog } }

    /// Seeks on the primary timeline; `true` once media there is ready, `false` if another seek
    /// superseded this one or it was refused (a seek past a SKIP-restricted break playing).
    @discardableResult
    public func seek(to time: MediaTime, originator: ChangeOriginator = .user) async -> Bool {
        await seek(.primary(time), originator: originator)
    }

    /// Seeks on the integrated timeline (Apple's integrated time domain, where a break's own
    /// time counts): a time inside a break lands at that offset into it, loaded or not; a seek
    /// across a JUMP-restricted break plays that break first. (A primary time inside a break's
    /// range, ``seek(to:originator:)``, restarts the break instead.)
    @discardableResult
    public func seek(toIntegratedTime time: MediaTime, originator: ChangeOriginator = .user) async -> Bool {
        await seek(.integrated(time), originator: originator)
    }

    /// Seeks into the break `eventID` at `offset` into it (S2.5), even before its asset list is
    /// loaded; the seek rules (X-RESTRICT) apply.
    @discardableResult
    public func seek(toInterstitial eventID: String, offset: MediaTime, originator: ChangeOriginator = .user) async -> Bool {
        await seek(.interstitial(eventID: eventID, offset: offset), originator: originator)
    }

    private func seek(_ target: PlaybackMachine.SeekTarget, originator: ChangeOriginator) async -> Bool {
        await withCheckedContinuation { continuation in
            withState { state in
                state.nextID += 1
                let id = state.nextID
                state.seekWaiters[id] = continuation
                run(.seek(id: id, to: target, originator: originator), in: &state)
            }
        }
    }

    /// Starts a seek without waiting for it (for scripts and coordinators).
    public func startSeek(to time: MediaTime, integrated: Bool = false, originator: ChangeOriginator = .user) {
        startSeek(to: integrated ? .integrated(time) : .primary(time), originator: originator)
    }

    /// Starts a seek to any target (a primary or integrated time, a break at an offset) without
    /// waiting for it.
    public func startSeek(to target: PlaybackMachine.SeekTarget, originator: ChangeOriginator = .user) {
        withState { state in
            state.nextID += 1
            run(.seek(id: state.nextID, to: target, originator: originator), in: &state)
        }
    }

    /// Places playback at `position` at once (a coordinator moving the player to the group):
    /// primary content, or a break at an offset. No seek rules apply.
    public func jump(to position: IntegratedTimeline.Position, originator: ChangeOriginator = .coordinator) {
        send(.jump(to: position, originator: originator))
    }

    /// The whole player state as of now (a copy): for a coordinator binding that reads the item's
    /// mapping, position and status in one consistent piece.
    public var machineState: PlaybackMachine { read { $0 } }

    /// What an observer shows of the player now, in one consistent piece.
    ///
    /// - Complexity: O(s) in the number of schedule items (the snapshot).
    public var state: PlayerState { read { $0.playerState } }

    /// Where playback is: in primary content, or in a break at an offset.
    public var position: IntegratedTimeline.Position { read { $0.position } }

    // MARK: Interstitials (the event controller and monitor)

    /// Every interstitial event of the current item: the playlist's and the app's.
    public var interstitialEvents: [InterstitialEvent] { read { $0.interstitials.mergedEvents } }

    /// Replaces the app's interstitial events (Apple's event controller `events`).
    public func setClientEvents(_ events: [InterstitialEvent]) { send(.setClientEvents(events)) }

    /// The event whose break plays now.
    public var currentEvent: InterstitialEvent? { read { $0.current?.scheduled.event } }

    /// How far into the current break playback is.
    public var currentEventOffset: MediaTime? { read { machine in machine.current.map { machine.breakOffset($0) } } }

    /// An event's asset-list state.
    public func assetListState(for eventID: String) -> InterstitialSchedule.AssetListState? { read { $0.interstitials.assetLists[eventID] } }

    /// Whether the current break can be skipped now.
    public var isCurrentEventSkippable: Bool { read { $0.current?.skippable ?? false } }

    /// Skips the current break if it is skippable; primary resumes where the schedule says.
    public func skipCurrentEvent() { send(.skipCurrentEvent) }

    // MARK: Observation

    /// Every event from now on (not periodic or boundary times: those have their own streams).
    public func events() -> AsyncStream<PlayerEvent> {
        let (stream, continuation) = AsyncStream<PlayerEvent>.makeStream(bufferingPolicy: .unbounded)
        let id = locked.withLock { state -> Int in
            state.nextID += 1
            state.subscribers[state.nextID] = continuation
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.locked.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Calls `handler` with every event as it happens, in order (for traces and tests). It is
    /// called with no lock held, by one thread at a time: it may call back into the player, whose
    /// getters answer at once and whose commands report their events after the one being handled.
    public func addEventHandler(_ handler: @escaping @Sendable (PlayerEvent) -> Void) {
        locked.withLock { $0.handlers.append(handler) }
    }

    /// The time each `interval` of progress in `domain` while playing.
    public func periodicTimes(interval: MediaTime, domain: TimeDomain = .primary) -> AsyncStream<MediaTime> {
        observe { .addPeriodicObserver(id: $0, interval: interval, domain: domain) }
    }

    /// Each of `times` in `domain` as playback crosses it.
    public func boundaryTimes(_ times: [MediaTime], domain: TimeDomain = .primary) -> AsyncStream<MediaTime> {
        observe { .addBoundaryObserver(id: $0, times: times, domain: domain) }
    }

    /// The player's state now, then each time it changes as the player handles an input (a
    /// command, a load, the passing of a deadline), in order with its events. Between two values
    /// the playhead moves on at the rate of the last; ``state`` reads it at any moment.
    public func states() -> AsyncStream<PlayerState> {
        let (stream, continuation) = AsyncStream<PlayerState>.makeStream(bufferingPolicy: .unbounded)
        let id = withState { state -> Int in
            state.nextID += 1
            let value = state.machine.playerState
            state.stateStreams[state.nextID] = continuation
            state.published = value
            state.outbox.append(.publish(value, [continuation]))
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            self?.locked.withLock { (state: inout State) in
                state.stateStreams[id] = nil
                if state.stateStreams.isEmpty { state.published = nil }
            }
        }
        return stream
    }

    private func observe(_ input: (Int) -> PlaybackMachine.Input) -> AsyncStream<MediaTime> {
        let (stream, continuation) = AsyncStream<MediaTime>.makeStream(bufferingPolicy: .unbounded)
        let id = withState { state -> Int in
            state.nextID += 1
            state.observerStreams[state.nextID] = continuation
            run(input(state.nextID), in: &state)
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            self?.withState { state in
                state.observerStreams[id] = nil
                self?.run(.removeObserver(id: id), in: &state)
            }
        }
        return stream
    }

    /// Loads in flight (a virtual-time driver waits for these before moving the clock on).
    public var pendingLoadCount: Int { locked.withLock { $0.loads.count } }
}
