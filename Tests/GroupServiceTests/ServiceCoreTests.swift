import GroupCoordination
import GroupService
import GroupWire
import MediaTime
import Testing

/// A server core with one session and helpers to join, command and read what each connection
/// was sent.
private struct CoreRig {
    var core = GroupServiceCore()
    var now: Duration = .seconds(1_800_000_000)
    var sent: [ServiceConnectionID: [SessionServerMessage]] = [:]
    var closes: [ServiceConnectionID: UInt16] = [:]
    var logs: [ServiceLogEntry] = []
    let session = "s1"

    init(configure: (inout GroupServiceCore.Configuration) -> Void = { _ in }) {
        var configuration = GroupServiceCore.Configuration()
        configure(&configuration)
        core = GroupServiceCore(configuration: configuration)
        take(core.createSession(id: session, stream: "http://127.0.0.1/vod.m3u8", at: now))
    }

    mutating func take(_ outputs: [GroupServiceCore.Output]) {
        for output in outputs {
            switch output {
            case .send(let connection, let message): sent[connection, default: []].append(message)
            case .close(let connection, let code, _): closes[connection] = code
            case .log(let entry): logs.append(entry)
            case .participantReport: break
            }
        }
    }

    /// Joins on `connection` and returns the welcome.
    @discardableResult
    mutating func join(_ connection: ServiceConnectionID, role: GroupRole, name: String = "n") -> SessionWelcome {
        core.opened(connection, at: now)
        take(core.hello(connection, ServiceHello(session: session, role: role, name: name, resume: nil, newSecret: "secret\(connection)", newSecretHash: "hash\(connection)"), at: now))
        guard case .welcome(let welcome)? = sent[connection]?.last(where: { if case .welcome = $0 { true } else { false } }) else {
            Issue.record("no welcome for \(connection): \(sent[connection] ?? [])")
            return SessionWelcome(session: "", participant: "none", role: .viewer, secret: "", stream: "", keepAlive: .zero, version: 0, snapshot: [], participants: [])
        }
        return welcome
    }

    func events(_ connection: ServiceConnectionID) -> [SessionEvent] {
        (sent[connection] ?? []).compactMap { if case .event(let event) = $0 { event } else { nil } }
    }

    func errors(_ connection: ServiceConnectionID) -> [SessionError.Code] {
        (sent[connection] ?? []).compactMap { if case .error(let error) = $0 { error.code } else { nil } }
    }

    func acks(_ connection: ServiceConnectionID) -> [UInt64] {
        (sent[connection] ?? []).compactMap { if case .ack(_, let version) = $0 { version } else { nil } }
    }

    static func seek(by participant: String, counter: UInt64, to seconds: Int64, rate: Double = 1) -> CoordinationMessage {
        .playbackState(CoordinatedPlaybackState(
            itemIdentifier: "film", rate: rate, anchorTime: MediaTime(seconds: seconds), anchorGroupTime: .seconds(10),
            timestamp: CoordinationTimestamp(counter: counter, participant: .init(rawValue: participant), issuedAt: .seconds(9))))
    }
}

@Suite("Group service core")
struct ServiceCoreTests {
    @Test("a joiner is welcomed with the group's state, and the others learn that it joined")
    func joinerGetsSnapshotAndOthersLearn() {
        var rig = CoreRig()
        let owner = rig.join(1, role: .owner)
        rig.take(rig.core.command(1, id: "c1", CoreRig.seek(by: owner.participant.rawValue, counter: 1, to: 30), at: rig.now))
        let viewer = rig.join(2, role: .viewer, name: "bob")
        #expect(viewer.participant.rawValue == "p2")
        #expect(viewer.snapshot.contains { if case .message(.playbackState(let state)) = $0.body { state.anchorTime == MediaTime(seconds: 30) } else { false } })
        #expect(viewer.version == 3)
        #expect(rig.events(1).last?.body == .presence(SessionEvent.Presence(participant: "p2", name: "bob", role: .viewer, state: .joined)))
    }

    @Test("a viewer's seek is refused with a reason and reaches nobody; a controller's is sequenced, acknowledged and fanned out")
    func viewerSeekRefused() {
        var rig = CoreRig()
        let owner = rig.join(1, role: .owner)
        rig.take(rig.core.command(1, id: "c1", CoreRig.seek(by: owner.participant.rawValue, counter: 1, to: 30), at: rig.now))
        let viewer = rig.join(2, role: .viewer)
        let controller = rig.join(3, role: .controller)
        let before = rig.events(1).count
        rig.take(rig.core.command(2, id: "v1", CoreRig.seek(by: viewer.participant.rawValue, counter: 2, to: 90), at: rig.now))
        #expect(rig.errors(2) == [.forbidden])
        #expect(rig.events(1).count == before)
        rig.take(rig.core.command(3, id: "k1", CoreRig.seek(by: controller.participant.rawValue, counter: 2, to: 90), at: rig.now))
        #expect(rig.acks(3).last == rig.core.sessions["s1"]?.version)
        for connection: ServiceConnectionID in [1, 2, 3] {
            #expect(rig.events(connection).last?.sender == controller.participant)
        }
    }

    @Test("a viewer may restate the group's state and propose the first state of an item nobody started")
    func viewerRestatementsAccepted() {
        var rig = CoreRig()
        let viewer = rig.join(1, role: .viewer)
        rig.take(rig.core.command(1, id: "v1", CoreRig.seek(by: viewer.participant.rawValue, counter: 0, to: 0), at: rig.now))
        #expect(rig.errors(1).isEmpty)
        rig.join(2, role: .viewer)
        rig.take(rig.core.command(2, id: "w1", CoreRig.seek(by: viewer.participant.rawValue, counter: 0, to: 0), at: rig.now))
        #expect(rig.errors(2).isEmpty)
        #expect(rig.core.refusals.isEmpty)
    }

    @Test("after a departure a viewer may re-anchor the group where it stands, but not seek elsewhere")
    func viewerReanchorOnlyWhereTheGroupStands() {
        var rig = CoreRig()
        let owner = rig.join(1, role: .owner)
        rig.take(rig.core.command(1, id: "c1", CoreRig.seek(by: owner.participant.rawValue, counter: 1, to: 30), at: rig.now))
        let viewer = rig.join(2, role: .viewer)
        rig.join(3, role: .viewer)
        rig.take(rig.core.leave(3, at: rig.now))
        // The group's state anchors 30 s at group time 10 s; 5 s later it stands at 35 s at most.
        func state(_ seconds: Int64, counter: UInt64) -> CoordinationMessage {
            .playbackState(CoordinatedPlaybackState(
                itemIdentifier: "film", rate: 1, anchorTime: MediaTime(seconds: seconds), anchorGroupTime: .seconds(15),
                timestamp: CoordinationTimestamp(counter: counter, participant: viewer.participant, issuedAt: .seconds(15))))
        }
        rig.take(rig.core.command(2, id: "r1", state(33, counter: 2), at: rig.now))
        #expect(rig.errors(2).isEmpty)
        rig.take(rig.core.command(2, id: "r2", state(90, counter: 3), at: rig.now))
        #expect(rig.errors(2) == [.forbidden])
    }

    @Test("a command sent twice with the same id is applied once and acknowledged twice with its version")
    func idempotentCommands() {
        var rig = CoreRig()
        let owner = rig.join(1, role: .owner)
        let seek = CoreRig.seek(by: owner.participant.rawValue, counter: 1, to: 30)
        rig.take(rig.core.command(1, id: "c1", seek, at: rig.now))
        let version = rig.core.sessions["s1"]!.version
        rig.take(rig.core.command(1, id: "c1", seek, at: rig.now))
        #expect(rig.core.sessions["s1"]!.version == version)
        #expect(rig.acks(1) == [version, version])
    }

    @Test("a participant cannot speak for another: a state naming someone else is refused")
    func spoofingRefused() {
        var rig = CoreRig()
        rig.join(1, role: .owner)
        rig.join(2, role: .controller)
        let update = ParticipantStateUpdate(participant: "p1", sequence: 9, itemIdentifier: "film", isReadyToPlay: false,
            suspensionReasons: [], waitIntervals: [], contentDuration: nil, sharedBreakDurations: [:])
        rig.take(rig.core.command(2, id: "x", .participantState(update), at: rig.now))
        #expect(rig.errors(2) == [.forbidden])
        rig.take(rig.core.command(2, id: "y", CoreRig.seek(by: "p1", counter: 5, to: 100), at: rig.now))
        #expect(rig.errors(2) == [.forbidden, .forbidden])
    }

    @Test("a silent participant is lost after two keep-alive intervals, and resumes without moving anyone")
    func lostAndResumed() {
        var rig = CoreRig()
        let owner = rig.join(1, role: .owner)
        let viewer = rig.join(2, role: .viewer)
        rig.now += .milliseconds(3_900)
        rig.take(rig.core.ping(1, at: rig.now))
        rig.take(rig.core.tick(at: rig.now))
        #expect(rig.closes[2] == nil)
        rig.now += .milliseconds(200)
        rig.take(rig.core.tick(at: rig.now))
        #expect(rig.closes[2] == 1001)
        #expect(rig.events(1).last?.body == .presence(SessionEvent.Presence(participant: viewer.participant, name: "n", role: .viewer, state: .lost)))
        // The group goes on while it is away.
        rig.take(rig.core.command(1, id: "c9", CoreRig.seek(by: owner.participant.rawValue, counter: 3, to: 50), at: rig.now))
        let ownerEvents = rig.events(1).count
        rig.core.opened(4, at: rig.now)
        rig.take(rig.core.hello(4, ServiceHello(session: "s1", role: .viewer, name: "n",
            resume: .init(participant: viewer.participant.rawValue, secretHash: "hash2", version: viewer.version),
            newSecret: "unused", newSecretHash: "unused"), at: rig.now))
        guard case .welcome(let welcome)? = rig.sent[4]?.first else { Issue.record("no welcome"); return }
        #expect(welcome.participant == viewer.participant)
        #expect(welcome.snapshot.map(\.version) == Array((viewer.version + 1)...welcome.version))
        // The owner only hears that it came back.
        #expect(rig.events(1).count == ownerEvents + 1)
        #expect(rig.events(1).last?.body == .presence(SessionEvent.Presence(participant: viewer.participant, name: "n", role: .viewer, state: .returned)))
    }

    @Test("a resume with the wrong secret is refused and closed with 1008")
    func wrongResumeSecret() {
        var rig = CoreRig()
        let viewer = rig.join(1, role: .viewer)
        rig.core.opened(2, at: rig.now)
        rig.take(rig.core.hello(2, ServiceHello(session: "s1", role: .viewer, name: "n",
            resume: .init(participant: viewer.participant.rawValue, secretHash: "forged", version: 0), newSecret: "s", newSecretHash: "h"), at: rig.now))
        #expect(rig.errors(2) == [.unauthorized])
        #expect(rig.closes[2] == 1008)
    }

    @Test("a flood over the message rate is refused and closed with 1008; others are not disturbed")
    func floodClosed() {
        var rig = CoreRig()
        rig.join(1, role: .owner)
        rig.join(2, role: .viewer)
        for _ in 0..<150 { rig.take(rig.core.ping(2, at: rig.now)) }
        #expect(rig.closes[2] == 1008)
        #expect(rig.errors(2).contains(.rateLimited))
        #expect(rig.logs.contains { $0.event == "connection.refused" && $0.fields["code"] == "rate-limited" && $0.fields["participant"] == "p2" })
        #expect(rig.closes[1] == nil)
        rig.take(rig.core.ping(1, at: rig.now))
        #expect(rig.sent[1]?.last == .pong)
    }

    @Test("three malformed messages in a row close the connection with 1007")
    func malformedClosed() {
        var rig = CoreRig()
        rig.join(1, role: .viewer)
        for _ in 0..<2 { rig.take(rig.core.malformed(1, code: .badMessage, "not JSON", at: rig.now)) }
        #expect(rig.closes[1] == nil)
        rig.take(rig.core.malformed(1, code: .badMessage, "not JSON", at: rig.now))
        #expect(rig.closes[1] == 1007)
        #expect(rig.logs.filter { $0.event == "message.refused" }.map { $0.fields["code"] } == Array(repeating: "bad-message", count: 3))
        #expect(rig.logs.last?.event == "connection.refused")
    }

    @Test("unknown types and out-of-range values are refused and logged however often they come, and end a row of malformed messages")
    func unknownTypesStayOpen() {
        var rig = CoreRig()
        rig.join(1, role: .viewer)
        for _ in 0..<2 { rig.take(rig.core.malformed(1, code: .badMessage, "not JSON", at: rig.now)) }
        for _ in 0..<10 {
            rig.take(rig.core.malformed(1, code: .unknownType, "teleport", at: rig.now))
            rig.take(rig.core.malformed(1, code: .outOfRange, "rate 65", at: rig.now))
        }
        rig.take(rig.core.malformed(1, code: .badMessage, "not JSON", at: rig.now))
        #expect(rig.closes[1] == nil)
        #expect(rig.errors(1).count { $0 == .unknownType } == 10)
        #expect(rig.logs.count { $0.event == "message.refused" && $0.fields["code"] == "out-of-range" && $0.fields["participant"] == "p1" } == 10)
    }

    @Test("a custom body nested so deep that its event could not be read inside a welcome is refused with out-of-range; one level less is relayed")
    func customBodyNesting() throws {
        var rig = CoreRig()
        rig.join(1, role: .owner)
        func nested(_ levels: Int) -> WireValue { (0..<levels).reduce(WireValue.integer(1)) { inner, _ in .array([inner]) } }
        let limit = GroupServiceCore.maximumCustomBodyNesting
        rig.take(rig.core.custom(1, id: "deep", messageType: "x", body: nested(limit + 1), at: rig.now))
        #expect(rig.errors(1) == [.outOfRange])
        rig.take(rig.core.custom(1, id: "fits", messageType: "x", body: nested(limit), at: rig.now))
        let event = try #require(rig.events(1).last)
        let welcome = SessionWelcome(session: rig.session, participant: "p1", role: .owner, secret: "s", stream: "m", keepAlive: .seconds(2), version: event.version, snapshot: [event], participants: [])
        #expect(try SessionServerMessage(jsonBytes: SessionServerMessage.welcome(welcome).jsonBytes) == .welcome(welcome))
        var deeper = welcome
        deeper.snapshot = [SessionEvent(version: event.version, sender: "p1", body: .custom(messageType: "x", body: nested(limit + 1)))]
        #expect(throws: WireDecodingError.self) { try SessionServerMessage(jsonBytes: SessionServerMessage.welcome(deeper).jsonBytes) }
    }

    @Test("a full session refuses the next participant with session-full")
    func sessionFull() {
        var rig = CoreRig { $0.maximumParticipants = 2 }
        rig.join(1, role: .owner)
        rig.join(2, role: .viewer)
        rig.core.opened(3, at: rig.now)
        rig.take(rig.core.hello(3, ServiceHello(session: "s1", role: .viewer, name: "n", resume: nil, newSecret: "s", newSecretHash: "h"), at: rig.now))
        #expect(rig.errors(3) == [.sessionFull])
        #expect(rig.closes[3] == 1008)
    }

    @Test("a connection that never says hello is closed after the hello timeout")
    func helloTimeout() {
        var rig = CoreRig()
        rig.core.opened(7, at: rig.now)
        rig.now += .seconds(11)
        rig.take(rig.core.tick(at: rig.now))
        #expect(rig.closes[7] == 1008)
    }

    @Test("a restored session goes on from its version; its participants resume with their secrets")
    func restoreContinuesVersions() {
        var rig = CoreRig()
        let owner = rig.join(1, role: .owner)
        rig.take(rig.core.command(1, id: "c1", CoreRig.seek(by: owner.participant.rawValue, counter: 1, to: 30), at: rig.now))
        let writes = rig.core.takeWrites()
        var restarted = GroupServiceCore()
        let session = writes.newSessions[0]
        let participants = writes.participants.map(\.participant)
        restarted.restore(session, events: writes.events.map(\.event), participants: participants, at: rig.now)
        #expect(restarted.sessions["s1"]?.version == 2)
        restarted.opened(9, at: rig.now)
        let outputs = restarted.hello(9, ServiceHello(session: "s1", role: .owner, name: "n",
            resume: .init(participant: owner.participant.rawValue, secretHash: "hash1", version: 2), newSecret: "s", newSecretHash: "h"), at: rig.now)
        #expect(outputs.contains { if case .send(9, .welcome(let welcome)) = $0 { welcome.snapshot.isEmpty && welcome.participant == owner.participant } else { false } })
        #expect(restarted.sessions["s1"]?.version == 2)
    }
}
