import Dispatch
import Foundation
import HLSInterstitials
import MediaTime
import PlayerEngine
import Synchronization
import Testing
import VirtualTime

private let origin = PlaybackScenarioTests.origin
private typealias S = PlaybackScenarioTests

/// The shell around the machine: getters that change nothing, handlers called with no lock held
/// and in order, and the published ``PlayerState``.
@Suite("Player shell")
struct PlayerShellTests {
    /// A 40 s VOD with a 10 s break at 8 s, playing.
    static func breakRig() -> PlaybackRig {
        let rig = PlaybackRig()
        S.serveMain(rig, count: 10, extra: S.interstitial("mid", at: 8, "X-ASSET-URI=\"ads/a10.m3u8\""))
        S.serveAd(rig, "a10", seconds: 10)
        rig.player.replaceCurrentItem(with: PlayerItem(url: origin + "main.m3u8", primaryID: "P1"))
        rig.player.play()
        return rig
    }

    /// Reads every getter of `player`.
    static func readEverything(_ player: Player) {
        _ = player.currentItem
        _ = player.currentItemStatus
        _ = player.rate
        _ = player.timeControlStatus
        _ = player.automaticallyWaitsToMinimizeStalls
        _ = player.currentTime
        _ = player.integratedCurrentTime
        _ = player.currentSnapshot
        _ = player.duration
        _ = player.loadedTimeRanges
        _ = player.seekableTimeRanges
        _ = player.accessLog
        _ = player.errorLog
        _ = player.machineState
        _ = player.position
        _ = player.interstitialEvents
        _ = player.currentEvent
        _ = player.currentEventOffset
        _ = player.assetListState(for: "mid")
        _ = player.isCurrentEventSkippable
        _ = player.state
    }

    @Test("reading the player past a deadline its timer has not reached yet reports the present but delivers nothing: the timer does")
    func gettersChangeNothing() {
        let rig = Self.breakRig()
        rig.run(for: .seconds(5))
        let before = rig.events.count
        // The break starts at 8 s; the player's timer for it has not run yet.
        rig.clock.advance(by: .seconds(5))
        Self.readEverything(rig.player)
        #expect(rig.events.count == before, "a getter delivered \(rig.events.count - before) events")
        // What the getters report is the present all the same: the break, entered on the way.
        let projected = rig.player.state
        #expect(projected.currentEvent?.identifier == "mid")
        #expect(projected.currentTime == MediaTime(seconds: 8))
        #expect(rig.player.currentEventOffset == projected.currentEventOffset)
        #expect(rig.events.count == before)
        // The timer delivers the break's start, stamped with its own time, and the player then
        // stands exactly as it was read.
        rig.executor.runUntilIdle()
        let started = rig.events.dropFirst(before).first { $0.kind == .currentEventChanged(id: "mid") }
        #expect(started.map { MediaTime($0.hostTime) + (projected.currentEventOffset ?? .zero) } == MediaTime(rig.clock.now.offset))
        #expect(rig.player.state == projected)
    }

    @Test("a player read at every event and between them plays the same trace as one nobody reads")
    func readingDoesNotChangeTheTrace() {
        let quiet = Self.breakRig()
        quiet.runToEnd(limit: .seconds(120))
        let read = Self.breakRig()
        read.player.addEventHandler { [player = read.player] _ in Self.readEverything(player) }
        // Reads at odd moments too, off the player's deadlines.
        for _ in 0..<200 {
            read.run(for: .milliseconds(237))
            Self.readEverything(read.player)
        }
        read.runToEnd(limit: .seconds(120))
        #expect(quiet.isOver)
        #expect(read.trace(includingLoads: true) == quiet.trace(includingLoads: true))
    }

    @Test("a handler waiting for another thread that reads the player and commands it does not deadlock; the command's events follow the one handled")
    func handlerCallsBackFromAnotherThread() {
        let rig = Self.breakRig()
        let readings = Mutex<[PlayerState]>([])
        let timedOut = Atomic(false)
        rig.player.addEventHandler { [player = rig.player] event in
            guard event.kind == .currentEventChanged(id: "mid") else { return }
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                readings.withLock { $0.append(player.state) }
                player.pause()
                done.signal()
            }
            if done.wait(timeout: .now() + 10) == .timedOut { timedOut.store(true, ordering: .relaxed) }
        }
        rig.run(for: .seconds(12))
        let didTimeOut = timedOut.load(ordering: .relaxed)
        #expect(!didTimeOut, "the other thread could not read the player while a handler ran")
        #expect(readings.withLock { $0.first?.currentEvent?.identifier } == "mid")
        let kinds = rig.events.map(\.kind)
        let started = kinds.firstIndex(of: .currentEventChanged(id: "mid"))
        let paused = kinds.firstIndex(of: .rateChanged(rate: 0, originator: .user))
        #expect(started != nil && paused != nil && started! < paused!)
        #expect(rig.player.rate == 0)
    }

    @Test("commands from two threads at once: handlers run one at a time and see the events in the order the machine made them")
    func eventsStayInOrder() {
        let rig = Self.breakRig()
        rig.run(for: .seconds(2))
        let inHandler = Atomic(false)
        let overlapped = Atomic(false)
        let rates = Mutex<[Double]>([])
        rig.player.addEventHandler { event in
            if inHandler.exchange(true, ordering: .acquiring) { overlapped.store(true, ordering: .relaxed) }
            if case .rateChanged(let rate, _) = event.kind { rates.withLock { $0.append(rate) } }
            inHandler.store(false, ordering: .releasing)
        }
        let group = DispatchGroup()
        for _ in 0..<2 {
            group.enter()
            Thread.detachNewThread { [player = rig.player] in
                for round in 0..<500 {
                    if round % 2 == 0 { player.pause() } else { player.play() }
                }
                group.leave()
            }
        }
        #expect(group.wait(timeout: .now() + 60) == .success)
        let didOverlap = overlapped.load(ordering: .relaxed)
        #expect(!didOverlap, "two handlers ran at once")
        // The machine reports a rate change only when the rate changes: in order, they alternate.
        let seen = rates.withLock { $0 }
        #expect(!seen.isEmpty)
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 != $1 }, "events delivered out of order")
        #expect(seen.last == rig.player.rate)
    }

    @Test("states() publishes the player's state as it changes, in step with its events, and player.state reads the same pieces as the getters")
    func publishedStates() {
        let rig = Self.breakRig()
        let states = rig.player.states()
        let published = Mutex<[PlayerState]>([])
        let task = Task(executorPreference: rig.executor) {
            for await state in states { published.withLock { $0.append(state) } }
        }
        rig.runToEnd(limit: .seconds(120))
        let values = published.withLock { $0 }
        #expect(values.first?.itemStatus == .unknown)
        #expect(values.contains { $0.currentEvent?.identifier == "mid" && $0.currentEventOffset == .zero })
        #expect(values.last?.hasPlayedToEnd == true)
        #expect(values.last?.currentTime == MediaTime(seconds: 40))
        // Host times never go back, and each change of status was an event at the same host time.
        #expect(zip(values, values.dropFirst()).allSatisfy { !($1.hostTime < $0.hostTime) })
        let statusEvents = rig.events.compactMap { event -> TimeControlStatus? in
            if case .timeControlStatusChanged(let status) = event.kind { return status }
            return nil
        }
        // The statuses published come in the order the events announced them (a value is
        // published once per input, so a status that lasted no time may be missing).
        var remaining = statusEvents[...]
        for value in values.dropFirst() where value.timeControlStatus != .paused {
            guard let index = remaining.firstIndex(of: value.timeControlStatus) else {
                Issue.record("\(value.timeControlStatus) published out of the events' order")
                break
            }
            remaining = remaining[index...]
        }
        let state = rig.player.state
        #expect(state.currentTime == rig.player.currentTime)
        #expect(state.timeControlStatus == rig.player.timeControlStatus)
        #expect(state.snapshot == rig.player.currentSnapshot)
        #expect(state.itemStatus == rig.player.currentItemStatus)
        task.cancel()
        rig.executor.runUntilIdle()
    }
}
