import BrowserParticipant
import GroupWire
import MediaTime
import NetworkIO
import Testing

private let server0: Duration = .seconds(1_796_000_000)

private let schedule = BrowserSchedule(breaks: [
    .init(id: "mid-1", start: MediaTime(seconds: 40), duration: MediaTime(seconds: 30), resumeTime: MediaTime(seconds: 40), assets: [
        .init(url: "http://127.0.0.1/ads/spot-10s/index.m3u8", duration: MediaTime(seconds: 10)),
        .init(url: "http://127.0.0.1/ads/spot-20s/index.m3u8", duration: MediaTime(seconds: 20)),
    ]),
])

/// A bridge driven at local time `now` (server time follows it one for one).
private struct Rig {
    var machine = BrowserBridgeStateMachine(openedAt: .zero)
    var now: Duration = .zero

    mutating func handle(_ input: BrowserBridgeStateMachine.Input) -> [BrowserBridgeStateMachine.Action] {
        machine.handle(input, now: now, serverTime: server0 + now)
    }

    mutating func text(_ text: String) -> [BrowserBridgeStateMachine.Action] { handle(.text(text)) }

    /// Hello, then the server's welcome in `role`.
    mutating func join(role: String = "viewer") {
        _ = text(#"{"type":"hello","protocol":1,"token":"tok","name":"charlie"}"#)
        _ = handle(.welcomed(.init(participant: "p3", role: role, session: "s1", streamURL: "http://127.0.0.1/vod/movie/charlie/main.m3u8")))
    }

    /// The player at primary `time` playing at `rate`, as read at this tick.
    func view(primary time: Double, rate: Double = 1, coordinating: Bool = true) -> BrowserBridgeStateMachine.PlayerView {
        .init(anchor: BrowserAnchor(at: server0 + now, rate: rate, position: .primary(MediaTime(seconds: time)!), nextBreak: "mid-1"),
              schedule: schedule, isCoordinating: coordinating, groupStatus: rate > 0 ? "playing" : "paused")
    }

    mutating func report(_ state: String, primary: Double) -> [BrowserBridgeStateMachine.Action] {
        text(#"{"type":"report","at":\#((server0 + now).seconds),"state":"\#(state)","primary":\#(primary)}"#)
    }
}

extension Duration {
    fileprivate var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// The `type`s of the messages among `actions`.
private func sent(_ actions: [BrowserBridgeStateMachine.Action]) -> [String] {
    actions.compactMap { action in
        guard case .send(.object(let object)) = action, case .string(let type)? = object["type"] else { return nil }
        return type
    }
}

private func message(_ actions: [BrowserBridgeStateMachine.Action], _ type: String) -> WireObject? {
    for case .send(.object(let object)) in actions where object["type"] == .string(type) { return object }
    return nil
}

@Suite("The bridge's logic: what the page is sent for a player state, and what it may do")
struct BrowserBridgeStateMachineTests {
    @Test("the first message must be a hello; anything else is refused with a located error and the socket closed")
    func helloFirst() {
        var rig = Rig()
        let actions = rig.text(#"{"type":"report","at":1,"state":"playing","primary":1}"#)
        #expect(message(actions, "error")?["message"] == .string("$.type: the first message must be a hello"))
        #expect(actions.last == .close(.policyViolation, reason: "bad-message"))
        #expect(!actions.contains(.dropParticipant))
        #expect(rig.machine.isClosed)

        var garbage = Rig()
        let refused = garbage.text("{not json")
        guard case .string(let text)? = message(refused, "error")?["message"] else { Issue.record("no error"); return }
        #expect(text.hasPrefix("malformed JSON: byte 1"))
        #expect(refused.last == .close(.policyViolation, reason: "bad-message"))
    }

    @Test("a page that says nothing within the hello timeout is closed")
    func helloTimeout() {
        var rig = Rig()
        rig.now = .seconds(9)
        #expect(rig.handle(.tick(nil)).isEmpty)
        rig.now = .seconds(10)
        #expect(rig.handle(.tick(nil)).last == .close(.policyViolation, reason: "timeout"))
    }

    @Test("a hello starts the participant; the welcome tells the page its role and stream")
    func welcome() {
        var rig = Rig()
        #expect(rig.text(#"{"type":"hello","protocol":1,"token":"tok","name":"charlie"}"#) == [.join(.init(token: "tok", name: "charlie"))])
        let actions = rig.handle(.welcomed(.init(participant: "p3", role: "viewer", session: "s1", streamURL: "http://o/vod/movie/charlie/main.m3u8")))
        let welcome = message(actions, "welcome")
        #expect(welcome?["role"] == .string("viewer"))
        #expect(welcome?["primary"] == .string("http://o/vod/movie/charlie/main.m3u8"))
    }

    @Test("a tick sends the schedule, then an anchor; the next only when the page could not work it out, or a second later")
    func anchors() {
        var rig = Rig()
        rig.join()
        rig.now = .milliseconds(100)
        #expect(sent(rig.handle(.tick(rig.view(primary: 10)))) == ["schedule", "anchor", "group"])
        rig.now = .milliseconds(200)
        #expect(sent(rig.handle(.tick(rig.view(primary: 10.1)))).isEmpty)
        rig.now = .milliseconds(300)
        #expect(sent(rig.handle(.tick(rig.view(primary: 10.215)))).isEmpty)  // 15 ms off: within the tolerance
        rig.now = .milliseconds(400)
        #expect(sent(rig.handle(.tick(rig.view(primary: 10.325)))) == ["anchor"])  // 25 ms off
        rig.now = .milliseconds(450)
        #expect(sent(rig.handle(.tick(rig.view(primary: 10.375)))).isEmpty)
        rig.now = .milliseconds(500)
        let paused = rig.handle(.tick(rig.view(primary: 10.4, rate: 0)))
        #expect(sent(paused) == ["anchor", "group"])
        #expect(message(paused, "anchor")?["rate"] == .double(0))
        rig.now = .milliseconds(1_400)
        #expect(sent(rig.handle(.tick(rig.view(primary: 10.4, rate: 0)))).isEmpty)
        rig.now = .milliseconds(1_500)
        #expect(sent(rig.handle(.tick(rig.view(primary: 10.4, rate: 0)))) == ["anchor"])
    }

    @Test("a probe is answered at once with the server time, its id and the page's own time echoed")
    func probes() {
        var rig = Rig()
        rig.join()
        rig.now = .milliseconds(1_250)
        let reply = message(rig.text(#"{"type":"probe","id":3,"sent":123.5}"#), "probeReply")
        #expect(reply?["id"] == .integer(3))
        #expect(reply?["sent"] == .double(123.5))
        #expect(reply?["server"] == .double(1_796_000_001.25))
    }

    @Test("a viewer's buttons are refused and nothing is done; an owner's become the participant's actions once in step")
    func roles() {
        var viewer = Rig()
        viewer.join(role: "viewer")
        _ = viewer.handle(.tick(viewer.view(primary: 5)))
        let refused = viewer.text(#"{"type":"action","action":"seek","by":10}"#)
        #expect(message(refused, "refused")?["code"] == .string("forbidden"))
        #expect(message(refused, "refused")?["action"] == .string("seek"))
        #expect(!refused.contains { if case .perform = $0 { true } else { false } })

        var owner = Rig()
        owner.join(role: "owner")
        _ = owner.handle(.tick(owner.view(primary: 0, coordinating: false)))
        #expect(message(owner.text(#"{"type":"action","action":"pause"}"#), "refused")?["code"] == .string("not-ready"))
        _ = owner.handle(.tick(owner.view(primary: 0.1)))
        #expect(owner.text(#"{"type":"action","action":"pause"}"#) == [.perform(.pause)])
        #expect(owner.text(#"{"type":"action","action":"seek","by":-10}"#) == [.perform(.seek(by: MediaTime(seconds: -10)))])
    }

    @Test("a page that keeps waiting to play stalls its participant, and playing again ends the stall")
    func stalls() {
        var rig = Rig()
        rig.join()
        _ = rig.handle(.tick(rig.view(primary: 5)))
        rig.now = .milliseconds(100)
        #expect(rig.report("waiting", primary: 5).isEmpty)
        rig.now = .milliseconds(800)
        #expect(!rig.handle(.tick(rig.view(primary: 5.7))).contains(.beginStall))  // a switch or a seek takes this long
        rig.now = .milliseconds(900)
        #expect(rig.handle(.tick(rig.view(primary: 5.8))).contains(.beginStall))
        rig.now = .milliseconds(1_000)
        #expect(!rig.handle(.tick(rig.view(primary: 5.9))).contains(.beginStall))
        rig.now = .milliseconds(1_100)
        #expect(rig.report("playing", primary: 5.95) == [.endStall])
        // Waiting while the group is paused is no stall.
        _ = rig.handle(.tick(rig.view(primary: 6, rate: 0)))
        #expect(rig.report("waiting", primary: 6).isEmpty)
        rig.now = .seconds(3)
        #expect(!rig.handle(.tick(rig.view(primary: 6, rate: 0))).contains(.beginStall))
    }

    @Test("a page sending faster than its rate is closed; garbage after the hello is answered and the socket kept")
    func rateAndGarbage() {
        var rig = Rig()
        rig.join()
        let error = rig.text(#"{"type":"probe","id":"one","sent":1}"#)
        #expect(message(error, "error")?["message"] == .string("$.id: expected an integer, found a string"))
        #expect(!rig.machine.isClosed)
        #expect(message(rig.handle(.binary), "error") != nil)
        // Three messages so far; the burst allows 37 more at once.
        var last: [BrowserBridgeStateMachine.Action] = []
        var answered = 0
        while !rig.machine.isClosed, answered < 100 {
            last = rig.text(#"{"type":"probe","id":1,"sent":1}"#)
            if message(last, "probeReply") != nil { answered += 1 }
        }
        #expect(answered == 37)
        #expect(last == [.send(.typed("error", .object(["code": .string("rate"), "message": .string("more than 20 messages a second")]))),
                         .dropParticipant, .close(.policyViolation, reason: "rate")])
        // A page within the rate is never closed.
        var steady = Rig()
        steady.join()
        for step in 1...200 {
            steady.now = .milliseconds(50 * Int64(step))
            _ = steady.text(#"{"type":"probe","id":1,"sent":1}"#)
        }
        #expect(!steady.machine.isClosed)
    }

    @Test("a page silent past the limit, or whose socket closed, has its participant dropped without a leave")
    func silenceAndClose() {
        var rig = Rig()
        rig.join()
        rig.now = .milliseconds(2_900)
        #expect(!rig.handle(.tick(rig.view(primary: 3))).contains(.dropParticipant))
        rig.now = .seconds(3)
        #expect(rig.handle(.tick(rig.view(primary: 3.1))) == [.dropParticipant, .close(.goingAway, reason: "silent for 3.0 seconds")])

        var closing = Rig()
        closing.join()
        #expect(closing.handle(.closed) == [.dropParticipant])
        #expect(closing.handle(.tick(closing.view(primary: 1))).isEmpty)
    }

    @Test("the last report is measured against the last anchor")
    func reportedSkew() {
        var rig = Rig()
        rig.join()
        _ = rig.handle(.tick(rig.view(primary: 10)))
        rig.now = .milliseconds(500)
        _ = rig.report("playing", primary: 10.47)
        #expect(rig.machine.reportedSkew == MediaTime(value: -30, timescale: 1000))
    }
}
