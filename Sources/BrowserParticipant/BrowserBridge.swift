import Foundation
import GroupCoordination
import GroupPlayback
import GroupWire
import MediaTime
import NetworkIO
import PlayerEngine
import Synchronization

/// One browser's bridge: the shell around a ``BrowserBridgeStateMachine``. It runs the real
/// participant stack that `interlude join` runs (a ``Player`` on the viewer's stream, bound to
/// the group's coordinator, connected to this server's `/group` over loopback with the
/// browser's invitation), and the page's `<video>` follows that player through anchors.
///
/// The player fetches the playlists and asset lists (the schedule comes from them) and no
/// segment: the browser fetches and shows the media (``PlayerConfiguration/fetchesSegments``).
/// When the page's socket closes or goes silent, the participant is dropped without a `leave`,
/// so the server counts it lost at once.
///
/// Locking: the machine sits under one lock; its actions are carried out after the lock is
/// let go.
final class BrowserBridge: Sendable {
    /// What the bridge needs of the service.
    struct Context: Sendable {
        /// This server's `/group` URL on loopback.
        var groupURL: String
        var tls: WebSocketClient.TLS?
        var machine: BrowserBridgeStateMachine.Configuration
        var tickInterval: Duration
        var log: @Sendable (_ event: String, _ fields: [String: String]) -> Void
    }

    private struct Stack: Sendable {
        var participant: GroupSessionParticipant
        var player: Player
        var hello: BrowserPageMessage.Hello
        var stall: CoordinatedPlaybackSuspension?
        var names: [String: String] = [:]
    }

    private let connection: WebSocketConnection
    private let context: Context
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private let machine: Mutex<BrowserBridgeStateMachine>
    private let stack = Mutex<Stack?>(nil)
    private let joins: AsyncStream<GroupSessionParticipant>
    private let joinInput: AsyncStream<GroupSessionParticipant>.Continuation

    init(connection: WebSocketConnection, context: Context) {
        self.connection = connection
        self.context = context
        started = clock.now
        machine = Mutex(BrowserBridgeStateMachine(configuration: context.machine, openedAt: .zero))
        (joins, joinInput) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    private var now: Duration { started.duration(to: clock.now) }

    /// The server's clock: CLOCK_REALTIME since the Unix epoch, as the group server reads it.
    static func serverTime() -> Duration {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
    }

    /// Serves the page until its socket closes or the bridge closes it.
    func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    for try await message in self.connection.messages {
                        switch message {
                        case .text(let text): self.feed(.text(text))
                        case .binary: self.feed(.binary)
                        }
                    }
                } catch {}
                self.feed(.closed)
            }
            group.addTask {
                while !Task.isCancelled, !self.machine.withLock({ $0.isClosed }) {
                    try? await Task.sleep(for: self.context.tickInterval)
                    self.feed(.tick(self.playerView()))
                }
            }
            group.addTask {
                await withDiscardingTaskGroup { participants in
                    for await participant in self.joins {
                        participants.addTask { await participant.run() }
                        participants.addTask { await self.follow(participant) }
                    }
                }
            }
            _ = await group.next()
            joinInput.finish()
            group.cancelAll()
        }
        if let participant = stack.withLock({ $0?.participant }) { participant.drop() }
        connection.closeSoon(code: .goingAway, reason: "bridge stopped")
    }

    private func feed(_ input: BrowserBridgeStateMachine.Input) {
        let actions = machine.withLock { $0.handle(input, now: now, serverTime: Self.serverTime()) }
        for action in actions { perform(action) }
    }

    private func perform(_ action: BrowserBridgeStateMachine.Action) {
        switch action {
        case .send(let message):
            if connection.trySend(.text(message.jsonText)) == .full {
                connection.closeSoon(code: .policyViolation, reason: "the page does not keep up")
            }
        case .join(let hello):
            join(hello)
        case .perform(let action):
            guard let player = stack.withLock({ $0?.player }) else { return }
            switch action {
            case .play: player.play()
            case .pause: player.pause()
            case .seek(let by): player.startSeek(to: MediaTime.max(.zero, player.currentTime + by))
            }
            context.log("browser.action", ["action": "\(action)", "name": stack.withLock { $0?.hello.name ?? "" }])
        case .beginStall:
            guard let participant = stack.withLock({ $0?.participant }), let suspension = participant.beginSuspension(for: .stallRecovery) else { return }
            stack.withLock { $0?.stall = suspension }
        case .endStall:
            let (participant, suspension) = stack.withLock { stack -> (GroupSessionParticipant?, CoordinatedPlaybackSuspension?) in
                defer { stack?.stall = nil }
                return (stack?.participant, stack?.stall)
            }
            if let participant, let suspension { participant.endSuspension(suspension) }
        case .dropParticipant:
            guard let participant = stack.withLock({ $0?.participant }) else { return }
            participant.drop()
            context.log("browser.dropped", ["name": stack.withLock { $0?.hello.name ?? "" }, "participant": participant.welcome?.participant.rawValue ?? ""])
        case .close(let code, let reason):
            connection.closeSoon(code: code, reason: reason)
        }
    }

    private func join(_ hello: BrowserPageMessage.Hello) {
        var playerConfiguration = PlayerConfiguration()
        playerConfiguration.fetchesSegments = false
        playerConfiguration.checksSegmentDurations = false
        let player = Player(clock: clock, loader: HTTPResourceLoader(), configuration: playerConfiguration)
        let name = hello.name
        var configuration = GroupSessionParticipant.Configuration(server: context.groupURL, token: hello.token, name: name) { welcome in
            // As `interlude join`: the viewer's own URL, the session's stream as the item's identity.
            PlayerItem(url: welcome.stream.replacingOccurrences(of: "{viewer}", with: name), contentIdentifier: welcome.stream)
        }
        if hello.waits {
            configuration.suspensionReasonsThatTriggerWaiting = [.userIsChangingCurrentTime, .playingInterstitial, .stallRecovery]
        }
        configuration.tls = context.tls
        let participant = GroupSessionParticipant(player: player, clock: clock, configuration: configuration)
        stack.withLock { $0 = Stack(participant: participant, player: player, hello: hello) }
        joinInput.yield(participant)
    }

    /// Turns the participant's events into the machine's inputs.
    private func follow(_ participant: GroupSessionParticipant) async {
        for await event in participant.events() {
            switch event {
            case .welcomed(let welcome, let isFirst):
                let name = stack.withLock { stack -> String in
                    for other in welcome.participants { stack?.names[other.participant.rawValue] = other.name }
                    return stack?.hello.name ?? ""
                }
                let url = welcome.stream.replacingOccurrences(of: "{viewer}", with: name)
                if isFirst {
                    participant.player.play()
                    context.log("browser.joined", ["name": name, "participant": welcome.participant.rawValue, "role": welcome.role.rawValue, "session": welcome.session])
                }
                feed(.welcomed(.init(participant: welcome.participant.rawValue, role: welcome.role.rawValue, session: welcome.session, streamURL: url)))
            case .refused(let error):
                feed(.refused(code: error.code.rawValue, message: error.message))
            case .stopped(let error):
                feed(.stopped(code: error.code.rawValue, message: error.message))
            case .presence(let presence):
                stack.withLock { $0?.names[presence.participant.rawValue] = presence.name }
                feed(.presence(name: presence.name, role: presence.role.rawValue, state: presence.state.rawValue))
            default:
                break
            }
        }
    }

    /// The player as it stands, for a tick; `nil` before the participant is admitted.
    private func playerView() -> BrowserBridgeStateMachine.PlayerView? {
        guard let (participant, player, names) = stack.withLock({ stack in stack.map { ($0.participant, $0.player, $0.names) } }),
            participant.welcome != nil
        else { return nil }
        let host = player.hostTime
        let serverTime = Self.serverTime()
        let state = player.machineState
        let schedule = BrowserSchedule(machine: state)
        let anchor = BrowserAnchor(machine: state, atHost: host, serverTime: serverTime, schedule: schedule)
        var view = BrowserBridgeStateMachine.PlayerView(anchor: anchor, schedule: schedule, isCoordinating: participant.isCoordinatingItem)
        if let status = participant.groupStatus {
            view.groupStatus = "\(status.status)"
            view.waitingFor = status.blockers.map { blocker in
                let why: String = switch blocker.cause {
                case .notReady: "not ready"
                case .suspension(let reason): reason == .playingInterstitial ? "ad" : reason.rawValue
                }
                return "\(names[blocker.participant.rawValue] ?? blocker.participant.rawValue) (\(why))"
            }
        }
        return view
    }
}
