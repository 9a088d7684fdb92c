import HLSInterstitials
import MediaTime
import PlayerEngine
import PlayerInterface
import Synchronization
import VirtualTime

/// One run of `interlude play`: a ``Player`` with its item, the scripted actions, the stop time,
/// and where events go (the trace, the display, the report). It drives the player on a real or
/// scaled clock (``runRealTime(clock:tick:)``) or on virtual time
/// (``runVirtual(driver:)``), and says how the run ended.
final class PlaySession: Sendable {
    /// How a run ended.
    enum Ending: Sendable, Hashable {
        /// The item played to its end.
        case playedToEnd
        /// The item failed.
        case failed(PlayerError)
        /// `--duration` of host time passed.
        case durationReached
        /// Ctrl-C (or SIGTERM).
        case interrupted
        /// On virtual time, nothing is left to happen (paused, with no action to come).
        case idle
        /// A live stream on virtual time without `--duration` would never end.
        case liveNeedsDuration

        /// The words of the summary's first line.
        var summaryText: String {
            switch self {
            case .playedToEnd: return "played to end"
            case .failed: return "failed"
            case .durationReached: return "stopped at the end of --duration"
            case .interrupted: return "interrupted"
            case .idle: return "stopped with nothing left to happen"
            case .liveNeedsDuration: return "stopped"
            }
        }
    }

    /// What the event handler and the signal handler share with the session.
    private final class Shared: Sendable {
        let report = Mutex(PlayReport())
        let isInterrupted = Atomic(false)
        let isStopped = Atomic(false)
    }

    /// The player.
    let player: Player
    /// The actions, in the order they happen.
    let actions: [PlayAction]
    /// When to stop, in host time.
    let durationLimit: Duration?
    /// Where progress is shown.
    let display: PlayDisplay
    /// The trace, if one is written.
    let trace: PlayTrace?
    /// How host time runs, in words.
    let clockName: String
    private let isVirtual: Bool
    private let shared = Shared()
    private let performed = Atomic(0)

    /// A session for `player`; every event from now on goes to the trace, the display and the
    /// report. `actions` need not be sorted: equal times keep their order.
    init(player: Player, actions: [PlayAction], durationLimit: Duration?, display: PlayDisplay, trace: PlayTrace?, clockName: String, isVirtual: Bool) {
        self.player = player
        self.actions = actions.enumerated().sorted { ($0.element.hostTime, $0.offset) < ($1.element.hostTime, $1.offset) }.map(\.element)
        self.durationLimit = durationLimit
        self.display = display
        self.trace = trace
        self.clockName = clockName
        self.isVirtual = isVirtual
        player.addEventHandler { [shared] event in
            guard !shared.isStopped.load(ordering: .acquiring) else { return }
            shared.report.withLock { $0.record(event) }
            trace?.append(event.traceLine)
            if let line = event.logLine { display.log(line) }
        }
    }

    /// Asks the run to stop at the next chance (from a signal handler).
    func interrupt() { shared.isInterrupted.store(true, ordering: .releasing) }

    /// The report so far.
    var report: PlayReport { shared.report.withLock { $0 } }

    /// How the run has ended, if it has.
    private var ending: Ending? {
        if shared.isInterrupted.load(ordering: .acquiring) { return .interrupted }
        let (failure, atEnd, isLive) = shared.report.withLock { ($0.failure, $0.hasPlayedToEnd, $0.isLive) }
        if let failure { return .failed(failure) }
        if atEnd { return .playedToEnd }
        if isVirtual, durationLimit == nil, isLive { return .liveNeedsDuration }
        return nil
    }

    private var isReady: Bool { shared.report.withLock { $0.isReady } }

    // MARK: Real time

    /// Plays on `clock` (the player's): performs each action at its host time (once the item is
    /// ready), redraws the display every `tick` of host time, and returns when the item ends or
    /// fails, `--duration` passes, or the run is interrupted.
    func runRealTime<C: Clock>(clock: C, tick: Duration) async -> Ending where C.Duration == Duration {
        var next = 0
        while true {
            if let ending { return ending }
            if Task.isCancelled { return .interrupted }
            let now = player.hostTime
            if let durationLimit, !(now < durationLimit) { return .durationReached }
            while next < actions.count, !(now < actions[next].hostTime), isReady {
                perform(actions[next])
                next += 1
            }
            redraw()
            trace?.flush()
            var wake = now + tick
            if next < actions.count, now < actions[next].hostTime { wake = min(wake, actions[next].hostTime) }
            if let durationLimit { wake = min(wake, durationLimit) }
            let remaining = wake - player.hostTime
            if remaining > .zero { try? await clock.sleep(for: remaining) }
        }
    }

    // MARK: Virtual time

    /// Plays on the driver's virtual time, as fast as possible: runs to each action's host time
    /// exactly and performs it (waiting first, if need be, for the item to be ready), then to the
    /// end. Loads in flight over a real network are waited for in real time before virtual time
    /// moves on. Blocks the calling thread.
    func runVirtual(driver: VirtualTimeDriver) -> Ending {
        var redrawn = ContinuousClock.now
        let hook = { [self] in
            // On a terminal, a few redraws per real second are plenty.
            guard display.showsBar, redrawn.duration(to: .now) > .milliseconds(100) else { return }
            redrawn = .now
            redraw()
        }
        for action in actions {
            if let durationLimit, !(action.hostTime < durationLimit) { break }
            if let ending = advance(driver, to: action.hostTime, hook: hook) { return ending }
            if !isReady, let ending = waitUntilReady(driver, hook: hook) { return ending }
            perform(action)
        }
        if let ending = advance(driver, to: durationLimit, hook: hook) { return ending }
        return durationLimit == nil ? .idle : .durationReached
    }

    /// Runs virtual time to `limit` (or until nothing is left to happen); returns an ending if
    /// the run ended on the way.
    private func advance(_ driver: VirtualTimeDriver, to limit: Duration?, hook: () -> Void) -> Ending? {
        let instant = limit.map { ManualClock.Instant(offset: $0) }
        while true {
            driver.run(
                until: {
                    hook()
                    return ending != nil
                },
                limit: instant,
                isWaitingForOutsideWork: { player.pendingLoadCount > 0 },
                realWait: .milliseconds(100)
            )
            if let ending { return ending }
            // The real wait ran out with loads still in flight: their time-outs bound the wait.
            if player.pendingLoadCount > 0 { continue }
            if let instant {
                driver.clock.advance(to: instant)
                driver.executor.runUntilIdle()
            }
            return ending
        }
    }

    /// Runs until the item is ready (loads and their retries), however long that takes in
    /// virtual time; returns an ending if the run ended first.
    private func waitUntilReady(_ driver: VirtualTimeDriver, hook: () -> Void) -> Ending? {
        while true {
            let ready = driver.run(
                until: {
                    hook()
                    return ending != nil || isReady
                },
                isWaitingForOutsideWork: { player.pendingLoadCount > 0 },
                realWait: .milliseconds(100)
            )
            if let ending { return ending }
            if ready || player.pendingLoadCount == 0 { return nil }
        }
    }

    // MARK: Actions and display

    private func perform(_ action: PlayAction) {
        performed.add(1, ordering: .relaxed)
        display.log("\(TimeFormat.elapsed(MediaTime(player.hostTime), fractionDigits: 3))  > \(action)")
        if let note = action.perform(on: player) { display.log("\(TimeFormat.elapsed(MediaTime(player.hostTime), fractionDigits: 3))  note: \(note)") }
    }

    private func redraw() {
        guard display.showsBar else { return }
        display.draw(PlayTransportBar(player.state, clockName: clockName).lines(width: PlayDisplay.terminalColumns()))
    }

    // MARK: The end

    /// Ends the run: closes the report, writes the rest of the trace, leaves the last bar (if the
    /// item was ever ready), and stops the player (its later events are ignored). Returns the
    /// summary.
    func finish(_ ending: Ending) -> String {
        // The time the run really ended, not when the loop noticed.
        var hostTime = report.endTime ?? player.hostTime
        if ending == .durationReached, let durationLimit { hostTime = min(hostTime, durationLimit) }
        shared.report.withLock { $0.finish(at: hostTime) }
        let report = self.report
        let state = player.state
        let lastBar = display.showsBar && report.isReady ? PlayTransportBar(state, clockName: clockName).lines(width: PlayDisplay.terminalColumns()) : nil
        var summary = report.summary(
            ending: ending.summaryText,
            hostTime: hostTime,
            clockName: clockName,
            primary: state.currentTime,
            primaryDuration: state.duration.flatMap { $0.isNumeric ? $0 : nil },
            integrated: state.integratedCurrentTime,
            integratedDuration: state.snapshot.flatMap { $0.duration.isNumeric ? $0.duration : nil }
        )
        let count = performed.load(ordering: .relaxed)
        if !actions.isEmpty {
            summary += "  actions    \(count) of \(actions.count) performed"
            if count < actions.count {
                summary += "; not reached: " + actions[count...].map(\.text).joined(separator: ", ")
            }
            summary += "\n"
        }
        shared.isStopped.store(true, ordering: .releasing)
        trace?.flush()
        display.finish(lastBar: lastBar)
        player.replaceCurrentItem(with: nil)
        return summary
    }
}
