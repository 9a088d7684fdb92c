import GroupCoordination
import GroupPlayback
import GroupWire
import MediaTime
import Testing

/// The participant's side of the session protocol, on its own clock: admission, order, resumption
/// and keep-alive.
@Suite("Group session link")
struct NetworkGroupSessionLinkTests {
    static let me: CoordinatedPlaybackParticipant.ID = "p2"

    static func welcome(version: UInt64, snapshot: [SessionEvent] = [], secret: String = "s3cret") -> SessionServerMessage {
        .welcome(SessionWelcome(
            session: "s1", participant: me, role: .controller, secret: secret, stream: "http://origin/vod.m3u8",
            keepAlive: .seconds(2), version: version, snapshot: snapshot, participants: []))
    }

    static func state(_ seconds: Int64, by participant: CoordinatedPlaybackParticipant.ID = "p1") -> CoordinationMessage {
        .playbackState(CoordinatedPlaybackState(
            itemIdentifier: "film", rate: 1, anchorTime: MediaTime(seconds: seconds), anchorGroupTime: .seconds(1),
            timestamp: CoordinationTimestamp(counter: UInt64(seconds), participant: participant, issuedAt: .seconds(1))))
    }

    static func event(_ version: UInt64, _ message: CoordinationMessage, from sender: CoordinatedPlaybackParticipant.ID = "p1") -> SessionServerMessage {
        .event(SessionEvent(version: version, sender: sender, body: .message(message)))
    }

    /// A link that has connected and been welcomed at version `version`.
    static func joined(at version: UInt64 = 3) -> GroupSessionLink {
        var link = GroupSessionLink(configuration: .init(token: "token", name: "bob"))
        _ = link.tick(at: .zero)
        _ = link.handle(.connected, at: .zero)
        _ = link.handle(.received(welcome(version: version)), at: .zero)
        return link
    }

    static func transmitted(_ outputs: [GroupSessionLink.Output]) -> [SessionClientMessage] {
        outputs.compactMap { if case .transmit(let message) = $0 { message } else { nil } }
    }

    static func delivered(_ outputs: [GroupSessionLink.Output]) -> [CoordinationMessage] {
        outputs.compactMap { if case .message(let message, _) = $0 { message } else { nil } }
    }

    @Test("it connects at once, says hello with the invitation, and delivers the welcome's snapshot but not its own events")
    func helloAndSnapshot() {
        var link = GroupSessionLink(configuration: .init(token: "token", name: "bob"))
        #expect(link.tick(at: .zero) == [.connect])
        let hello = Self.transmitted(link.handle(.connected, at: .zero))
        #expect(hello == [.hello(SessionHello(token: "token", name: "bob"))])
        let snapshot = [
            SessionEvent(version: 2, sender: "p1", body: .message(Self.state(5))),
            SessionEvent(version: 3, sender: Self.me, body: .message(Self.state(6, by: Self.me))),
        ]
        let outputs = link.handle(.received(Self.welcome(version: 3, snapshot: snapshot)), at: .zero)
        #expect(Self.delivered(outputs) == [Self.state(5)])
        #expect(link.phase == .joined)
        #expect(link.version == 3)
    }

    @Test("events are applied strictly in version order: a gap asks for a resync and the later event waits for the missing one")
    func gapRepair() {
        var link = Self.joined(at: 3)
        let early = link.handle(.received(Self.event(5, Self.state(50))), at: .seconds(1))
        #expect(Self.delivered(early).isEmpty)
        #expect(Self.transmitted(early) == [.resync(from: 4)])
        let filled = link.handle(.received(Self.event(4, Self.state(40))), at: .seconds(1))
        #expect(Self.delivered(filled) == [Self.state(40), Self.state(50)])
        #expect(link.version == 5)
        #expect(Self.delivered(link.handle(.received(Self.event(5, Self.state(50))), at: .seconds(1))).isEmpty, "a duplicate is ignored")
    }

    @Test("after a drop it reconnects within a second, resumes with its secret and version, and sends unacknowledged commands again with their ids")
    func resumeResendsPending() {
        var link = Self.joined(at: 3)
        let sent = Self.transmitted(link.send(Self.state(9, by: Self.me), at: .seconds(1)))
        guard case .command(let id, _)? = sent.first else {
            Issue.record("no command: \(sent)")
            return
        }
        _ = link.handle(.disconnected(reason: "reset"), at: .seconds(2))
        #expect(link.phase == .disconnected)
        let deadline = link.nextDeadline ?? .seconds(99)
        #expect(deadline <= .seconds(3))
        #expect(link.tick(at: deadline) == [.connect])
        let hello = Self.transmitted(link.handle(.connected, at: deadline))
        #expect(hello == [.hello(SessionHello(token: "token", name: "bob", resume: .init(participant: Self.me, secret: "s3cret", version: 3)))])
        // The resumed welcome carries no secret; the link keeps the one it has.
        let resumed = link.handle(.received(Self.welcome(version: 4, snapshot: [SessionEvent(version: 4, sender: "p1", body: .message(Self.state(12)))], secret: "")), at: deadline)
        #expect(Self.delivered(resumed) == [Self.state(12)])
        #expect(Self.transmitted(resumed) == [.command(id: id, message: Self.state(9, by: Self.me))])
        _ = link.handle(.received(.ack(id: id, version: 5)), at: deadline)
        #expect(link.unacknowledgedCount == 0)
        #expect(link.welcome?.secret == "s3cret")
    }

    @Test("it pings at half the keep-alive, and a server silent for two intervals is dropped and replaced")
    func keepAlive() {
        var link = Self.joined(at: 3)
        #expect(Self.transmitted(link.tick(at: .seconds(1))) == [.ping])
        _ = link.handle(.received(.pong), at: .milliseconds(1_100))
        #expect(link.tick(at: .milliseconds(2_000)) == [.transmit(.ping)])
        let dropped = link.tick(at: .milliseconds(5_200))
        #expect(dropped.contains { if case .disconnect = $0 { true } else { false } })
        #expect(link.phase == .disconnected)
    }

    @Test("a refused invitation stops the link for good; a refused command does not")
    func refusals() {
        var link = Self.joined(at: 3)
        let forbidden = link.handle(.received(.error(SessionError(code: .forbidden, message: "a viewer may not seek", id: "c1"))), at: .seconds(1))
        #expect(forbidden == [.refused(SessionError(code: .forbidden, message: "a viewer may not seek", id: "c1"))])
        #expect(link.phase == .joined)
        let refused = link.handle(.received(.error(SessionError(code: .unauthorized, message: "expired"))), at: .seconds(1))
        #expect(refused == [.stopped(SessionError(code: .unauthorized, message: "expired"))])
        #expect(link.nextDeadline == nil)
    }
}
