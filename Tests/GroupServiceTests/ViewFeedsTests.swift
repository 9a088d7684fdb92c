import GroupCoordination
import GroupWire
import MediaTime
import Testing

@testable import GroupService

/// A core with one session and two participants, and feeds watching it.
private struct FeedRig {
    var core = GroupServiceCore()
    var feeds = ViewFeeds()
    var now: Duration = .seconds(1_800_000_000)
    var sent: [ServiceConnectionID: [String]] = [:]
    var closes: [ServiceConnectionID: UInt16] = [:]

    init() {
        _ = core.createSession(id: "s1", stream: "http://127.0.0.1/vod/movie/{viewer}/main.m3u8", at: now)
        _ = core.createSession(id: "s2", stream: "http://127.0.0.1/live/channel/{viewer}/main.m3u8", at: now)
        for (connection, name) in [(ServiceConnectionID(1), "alice"), (2, "bob")] {
            core.opened(connection, at: now)
            _ = core.hello(connection, ServiceHello(session: "s1", role: connection == 1 ? .owner : .viewer, name: name, resume: nil, newSecret: "s", newSecretHash: "h\(connection)"), at: now)
        }
    }

    mutating func take(_ outputs: [ViewFeeds.Output]) {
        for output in outputs {
            switch output {
            case .send(let connection, let text): sent[connection, default: []].append(text)
            case .close(let connection, let code, _): closes[connection] = code
            }
        }
    }

    /// Opens feed `connection` and sends `text` on it; tokens name sessions as "session:role".
    mutating func watch(_ connection: ServiceConnectionID, _ text: String) {
        take(feeds.opened(connection, at: now))
        send(connection, text)
    }

    mutating func send(_ connection: ServiceConnectionID, _ text: String) {
        let core = core
        take(feeds.received(text, on: connection, at: now, verify: Self.verify, session: { core.sessions[$0] }))
    }

    static func verify(_ token: String) throws -> InvitationClaims {
        guard token.hasPrefix("good-") else { throw InvitationTokenError.revoked }
        return InvitationClaims(sessionID: String(token.dropFirst(5)), role: .viewer, issuedAt: 0, lifetimeSeconds: 60)
    }

    func messages(_ connection: ServiceConnectionID) -> [WireFields] {
        (sent[connection] ?? []).compactMap { text in
            (try? WireJSONParser(limits: .standard).parse(Array(text.utf8))).flatMap { try? WireFields($0) }
        }
    }

    func types(_ connection: ServiceConnectionID) -> [String] { messages(connection).compactMap { try? $0.string("type") } }
}

@Suite("Web view feeds")
struct ViewFeedsTests {
    @Test("a feed that watches with an invitation gets the session as it stands: every participant and the snapshot")
    func watchGetsTheSession() throws {
        var rig = FeedRig()
        rig.watch(10, #"{"type":"watch","token":"good-s1"}"#)
        let view = try #require(rig.messages(10).first)
        #expect(try view.string("type") == "view")
        #expect(try view.string("session") == "s1")
        #expect(try view.duration("groupTime") == .zero)
        #expect(try view.counter("version") == 2)
        let names = try view.array("participants", maximumCount: 10) { value throws(WireDecodingError) in try WireFields(value).string("name") }
        #expect(names == ["alice", "bob"])
        let snapshot = try view.array("snapshot", maximumCount: 10) { value throws(WireDecodingError) in try SessionEvent(wire: value) }
        #expect(snapshot.map { $0.version } == [1, 2])
        #expect(rig.feeds.sessions == ["s1"])
    }

    @Test("after the view, every event reaches the feed once, in version order; a gap older than the log gets a fresh view")
    func eventsInOrder() throws {
        var rig = FeedRig()
        rig.watch(10, #"{"type":"watch","token":"good-s1"}"#)
        _ = rig.core.custom(1, id: "c1", messageType: "example.chat", body: .object(["text": .string("hi")]), at: rig.now)
        _ = rig.core.custom(1, id: "c2", messageType: "example.chat", body: .object(["text": .string("again")]), at: rig.now)
        rig.take(rig.feeds.catchUp(core: rig.core, at: rig.now))
        rig.take(rig.feeds.catchUp(core: rig.core, at: rig.now))
        let events = rig.messages(10).dropFirst().map { try? $0.counter("version") }
        #expect(events == [3, 4])

        var small = GroupServiceCore.Configuration()
        small.logLength = 2
        rig.core = GroupServiceCore(configuration: small)
        _ = rig.core.createSession(id: "s1", stream: "x", at: rig.now)
        rig.core.opened(1, at: rig.now)
        _ = rig.core.hello(1, ServiceHello(session: "s1", role: .owner, name: "alice", resume: nil, newSecret: "s", newSecretHash: "h"), at: rig.now)
        for index in 0..<8 { _ = rig.core.custom(1, id: "d\(index)", messageType: "example.chat", body: .null, at: rig.now) }
        rig.sent = [:]
        rig.take(rig.feeds.catchUp(core: rig.core, at: rig.now))
        #expect(rig.types(10) == ["view"])
    }

    @Test("a report reaches the feeds of its session only, re-encoded with the server's clock")
    func reportsReachTheirSession() throws {
        var rig = FeedRig()
        rig.watch(10, #"{"type":"watch","token":"good-s1"}"#)
        rig.watch(11, #"{"type":"watch","token":"good-s2"}"#)
        let report = ParticipantReport(
            skew: .milliseconds(3), roundTrip: .milliseconds(1), groupTime: .seconds(5),
            position: .init(coordinated: .seconds(60), rate: 1, breakEvent: "ad1", breakOffset: .seconds(2)), group: .waiting,
            waitingFor: [.init(participant: "p2", cause: "ad")])
        rig.take(rig.feeds.report(report, from: "p1", in: "s1", at: rig.now))
        let forwarded = try #require(rig.messages(10).last)
        #expect(try forwarded.string("type") == "report")
        #expect(try forwarded.string("participant") == "p1")
        #expect(try ParticipantReport(wire: forwarded.value("report")) == report)
        #expect(rig.types(11) == ["view"])
    }

    @Test("a feed that does not begin with watch, or names a bad invitation or no session, is told why and closed")
    func refusals() throws {
        var rig = FeedRig()
        rig.watch(10, #"{"type":"hello","protocol":1,"token":"good-s1","name":"x"}"#)
        rig.watch(11, #"{"type":"watch","token":"forged"}"#)
        rig.watch(12, #"{"type":"watch","token":"good-s9"}"#)
        rig.watch(13, #"{"type":"watch""#)
        rig.watch(14, #"{"type":"watch","token":7}"#)
        #expect(rig.closes == [10: 1008, 11: 1008, 12: 1008, 13: 1007, 14: 1007])
        for connection: ServiceConnectionID in 10...14 {
            let error = try #require(rig.messages(connection).first)
            #expect(try error.string("type") == "error")
        }
        #expect(rig.feeds.isEmpty)
    }

    @Test("after watch a feed may only keep alive, at most about once a second")
    func onlyPings() {
        var rig = FeedRig()
        rig.watch(10, #"{"type":"watch","token":"good-s1"}"#)
        rig.send(10, #"{"type":"ping"}"#)
        #expect(rig.closes[10] == nil)
        rig.send(10, #"{"type":"command","id":"x","message":{}}"#)
        #expect(rig.closes[10] == 1008)

        rig.watch(11, #"{"type":"watch","token":"good-s1"}"#)
        for _ in 0..<5 { rig.send(11, #"{"type":"ping"}"#) }
        #expect(rig.closes[11] == 1008)
    }

    @Test("a feed silent past the watch time-out is closed; one session takes at most its limit of feeds; one ended closes them")
    func limits() {
        var rig = FeedRig()
        rig.feeds.limits.feedsPerSession = 2
        rig.take(rig.feeds.opened(9, at: rig.now))
        rig.watch(10, #"{"type":"watch","token":"good-s1"}"#)
        rig.watch(11, #"{"type":"watch","token":"good-s1"}"#)
        rig.watch(12, #"{"type":"watch","token":"good-s1"}"#)
        #expect(rig.closes == [12: 1008])
        rig.now += .seconds(11)
        rig.take(rig.feeds.catchUp(core: rig.core, at: rig.now))
        #expect(rig.closes[9] == 1008)
        _ = rig.core.endSession("s1", at: rig.now)
        rig.take(rig.feeds.catchUp(core: rig.core, at: rig.now))
        #expect(rig.closes[10] == 4004 && rig.closes[11] == 4004)
        #expect(rig.feeds.isEmpty)
    }

    @Test("the server's clock goes to each feed once a period")
    func clock() {
        var rig = FeedRig()
        rig.watch(10, #"{"type":"watch","token":"good-s1"}"#)
        rig.take(rig.feeds.catchUp(core: rig.core, at: rig.now + .milliseconds(500)))
        rig.take(rig.feeds.catchUp(core: rig.core, at: rig.now + .milliseconds(1_000)))
        rig.take(rig.feeds.catchUp(core: rig.core, at: rig.now + .milliseconds(1_200)))
        #expect(rig.types(10) == ["view", "clock"])
    }
}
