import GroupCoordination
import GroupPlayback
import InterludeCommandLine
import Testing

/// What `interlude watch --join` makes of its participant's events, on virtual host time.
@Suite("WatchGroupStateMachine")
struct WatchGroupStateMachineTests {
    typealias Machine = WatchGroupStateMachine

    static func welcome(role: SessionRole = .viewer) -> SessionWelcome {
        SessionWelcome(
            session: "s-42", participant: "p2", role: role, secret: "secret", stream: "http://127.0.0.1:8080/live/news/{viewer}/main.m3u8",
            keepAlive: .seconds(10), version: 3, snapshot: [],
            participants: [.init(participant: "p1", name: "alice", role: .owner), .init(participant: "p2", name: "bob", role: role)])
    }

    static let forbidden = SessionError(code: .forbidden, message: "viewers cannot pause", id: "c1")

    @Test("the first welcome plays the group's item, titled by the stream as this participant plays it ({viewer} its name), or --title")
    func firstWelcomePlays() {
        var machine = Machine(name: "bob")
        #expect(machine.handle(.welcomed(Self.welcome(), isFirst: true), at: .seconds(1)) == [.play(title: "http://127.0.0.1:8080/live/news/bob/main.m3u8")])
        #expect(machine.notice(at: .seconds(1)) == nil)
        var titled = Machine(name: "bob", title: "Movie night")
        #expect(titled.handle(.welcomed(Self.welcome(), isFirst: true), at: .seconds(1)) == [.play(title: "Movie night")])
    }

    @Test("a welcome after a reconnection plays nothing again and says the participant is back; a drop says it reconnects")
    func reconnection() {
        var machine = Machine(name: "bob")
        _ = machine.handle(.welcomed(Self.welcome(), isFirst: true), at: .seconds(1))
        #expect(machine.handle(.disconnected("closed by the server"), at: .seconds(5)) == [])
        #expect(machine.notice(at: .seconds(5)) == .disconnected(reason: "closed by the server"))
        #expect(machine.handle(.welcomed(Self.welcome(), isFirst: false), at: .seconds(6)) == [])
        #expect(machine.notice(at: .seconds(6)) == .reconnected)
        #expect(machine.notice(at: .seconds(6) + WatchControlStateMachine.noticeDuration) == nil, "a notice goes after a few seconds")
    }

    @Test("a command the server refused by role rules becomes a notice, and the session goes on; a refusal for good ends it")
    func refusals() {
        var machine = Machine(name: "bob")
        _ = machine.handle(.welcomed(Self.welcome(), isFirst: true), at: .seconds(1))
        #expect(machine.handle(.refused(Self.forbidden), at: .seconds(2)) == [])
        #expect(machine.notice(at: .seconds(3)) == .refused(Self.forbidden))
        let ended = SessionError(code: .sessionEnded, message: "the session was ended")
        #expect(machine.handle(.stopped(ended), at: .seconds(4)) == [.end(ended)])
    }

    @Test("the group line names the blockers by the names the welcome and presence gave, and says how the link stands")
    func groupLine() {
        var machine = Machine(name: "bob")
        let before = machine.groupLine(phase: .connecting, status: nil, skew: nil, others: 0, at: .zero)
        #expect(before.connection == .connecting && before.session == nil && before.role == nil)

        _ = machine.handle(.welcomed(Self.welcome(role: .controller), isFirst: true), at: .seconds(1))
        _ = machine.handle(.presence(.init(participant: "p3", name: "charlie", role: .viewer, state: .joined)), at: .seconds(2))
        #expect(machine.notice(at: .seconds(2)) == .presence(name: "charlie", role: .viewer, .joined))
        let waiting = PlaybackCoordinatorStateMachine.GroupPlaybackStatus(status: .waiting, blockers: [
            .init(participant: "p3", cause: .suspension(.playingInterstitial), expectedEnd: nil),
            .init(participant: "p9", cause: .notReady, expectedEnd: nil),
        ])
        let line = machine.groupLine(phase: .joined, status: waiting, skew: .milliseconds(12), others: 2, at: .seconds(10))
        #expect(line == WatchScreen.Group(
            session: "s-42", name: "bob", role: .controller, connection: .inSession,
            status: .waiting(for: [.init(name: "charlie", cause: .suspension(.playingInterstitial)), .init(name: "p9", cause: .notReady)]),
            skew: .milliseconds(12), others: 2, notice: nil))
        #expect(machine.groupLine(phase: .disconnected, status: nil, skew: nil, others: 2, at: .seconds(10)).connection == .reconnecting)
        #expect(machine.groupLine(phase: .connecting, status: nil, skew: nil, others: 2, at: .seconds(10)).connection == .reconnecting)
    }
}
