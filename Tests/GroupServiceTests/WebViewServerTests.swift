import Foundation
import GroupCoordination
import GroupService
import GroupWire
import MediaTime
import NetworkIO
import Testing

/// The web view against a real `GroupServer` over loopback: the page, and a feed that follows a
/// session while participants join, command and report.
@Suite("Group server's web view", .serialized)
struct WebViewServerTests {
    @Test("GET /view serves the page, which opens the feed with the invitation in its fragment")
    func servesThePage() async throws {
        try await withHostileServer { rig in
            let page = try await rig.get("/view")
            #expect(page.status == 200)
            #expect(page.body.contains("/view/feed") && page.body.contains("location.hash") && page.body.contains("<svg"))
        }
    }

    @Test("a feed sees the session as it stands, then each event and report as it happens, and no participant sees the feed")
    func feedFollowsTheSession() async throws {
        try await withHostileServer { rig in
            let (owner, welcome) = try await rig.joinWithWelcome(role: .owner, name: "alice")
            let feed = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(rig.port)/view/feed")
            try await feed.send(.text(#"{"type":"watch","token":\#(rig.token(role: .viewer).quotedJSON)}"#))
            let view = try await Self.next(feed)
            #expect(try view.string("type") == "view")
            let names = try view.array("participants", maximumCount: 10) { value throws(WireDecodingError) in try WireFields(value).string("name") }
            #expect(names == ["alice"])

            let viewer = try await rig.join(role: .viewer, name: "bob")
            let joined = try await Self.next(feed, type: "event")
            #expect(try SessionEvent(wire: .object(joined.object)).body == .presence(.init(participant: "p2", name: "bob", role: .viewer, state: .joined)))

            try await owner.send(HostileClient.playbackCommand(id: "c1", by: welcome.participant.rawValue, counter: 1, seconds: 30))
            _ = try await owner.expectAck("c1")
            let command = try SessionEvent(wire: .object(try await Self.next(feed, type: "event").object))
            guard case .message(.playbackState(let state)) = command.body else {
                Issue.record("not the owner's playback state: \(command)")
                return
            }
            #expect(state.anchorTime.seconds == 30)

            let report = ParticipantReport(
                skew: .milliseconds(2), roundTrip: .milliseconds(1), groupTime: .seconds(3),
                position: .init(coordinated: .seconds(31), rate: 1), group: .playing)
            try await viewer.send(#"{"type":"custom","id":"r1","messageType":"interlude.report","body":\#(report.wire.jsonText)}"#)
            let forwarded = try await Self.next(feed, type: "report")
            #expect(try forwarded.string("participant") == "p2")
            #expect(try ParticipantReport(wire: forwarded.value("report")) == report)

            // The participants saw the presence and the command only: no feed, no report.
            try await owner.send(#"{"type":"ping"}"#)
            try await owner.expectPong()
            let seen = owner.received
            #expect(!seen.contains { if case .event(let event) = $0, case .custom = event.body { true } else { false } })
            await feed.close()
        }
    }

    @Test("a feed with a forged invitation is refused and closed with 1008")
    func forgedInvitation() async throws {
        try await withHostileServer { rig in
            let feed = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(rig.port)/view/feed")
            try await feed.send(.text(#"{"type":"watch","token":\#(try rig.elevated(rig.token(role: .viewer)).quotedJSON)}"#))
            let error = try await Self.next(feed)
            #expect(try error.string("code") == "unauthorized")
            do {
                let message = try await feed.receive()
                Issue.record("still open after the refusal: \(String(describing: message))")
            } catch WebSocketError.closed(let close) {
                #expect(close.code.rawValue == 1008)
            }
        }
    }

    /// The next message on `feed` (of `type`, skipping others such as the clock), as fields.
    static func next(_ feed: WebSocketConnection, type: String? = nil) async throws -> WireFields {
        while true {
            guard case .text(let text)? = try await feed.receive() else { throw HostileClient.Timeout() }
            let fields = try WireFields(try WireJSONParser(limits: .standard).parse(Array(text.utf8)))
            let kind = try fields.string("type")
            if type == nil || kind == type { return fields }
        }
    }
}
