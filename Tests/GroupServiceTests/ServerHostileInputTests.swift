import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Glibc
import GroupCoordination
import GroupService
import GroupWire
import MediaTime
import NetworkIO
import Synchronization
import Testing
import TestSupport

/// Bad input against a real `GroupServer` over loopback: each refusal with the error code and the
/// close code `docs/group-protocol.md` promises, a JSON log line that names it, and a
/// well-behaved participant alongside that keeps being served (a ping answered, a command
/// acknowledged and fanned out) after every attack.
@Suite("Group server against hostile input", .serialized)
struct ServerHostileInputTests {
    // MARK: - Messages

    @Test("malformed JSON is answered with bad-message and the connection stays open; three in a row close it with 1007")
    func malformedJSON() async throws {
        try await withHostileServer { rig in
            let bystanders = try await rig.bystanders()
            let attacker = try await rig.join(role: .controller, name: "mallory")
            try await attacker.send(#"{"type":"ping""#)
            #expect(try await attacker.nextError().code == .badMessage)
            try await attacker.send(#"{"type":"ping"}"#)
            try await attacker.expectPong()
            for text in [#"{"type":"#, "[1,2", "not json at all"] { try await attacker.send(text) }
            let ending = try await attacker.readUntilClosed()
            #expect(ending.errors.map(\.code) == [.badMessage, .badMessage, .badMessage])
            #expect(ending.close.code.rawValue == 1007)
            try await rig.expectLog(event: "message.refused", code: "bad-message")
            try await rig.expectLog(event: "connection.refused", code: "bad-message", reasonContaining: "3 malformed")
            try await bystanders.stillServed()
        }
    }

    @Test("an unknown type is answered with unknown-type and the connection stays open, however many come")
    func unknownType() async throws {
        try await withHostileServer { rig in
            let bystanders = try await rig.bystanders()
            let attacker = try await rig.join(role: .controller, name: "mallory")
            for _ in 0..<4 {
                try await attacker.send(#"{"type":"teleport","to":"anywhere"}"#)
                #expect(try await attacker.nextError().code == .unknownType)
            }
            try await attacker.send(#"{"type":"ping"}"#)
            try await attacker.expectPong()
            try await rig.expectLog(event: "message.refused", code: "unknown-type")
            try await bystanders.stillServed()
        }
    }

    @Test("a hello of protocol 2 is refused with protocol-version and closed with 1002, whatever else it holds")
    func wrongProtocolVersion() async throws {
        try await withHostileServer { rig in
            let bystanders = try await rig.bystanders()
            let attacker = try await rig.connect()
            try await attacker.send(#"{"type":"hello","protocol":2,"token":"#, rig.token(role: .owner).quotedJSON, #","name":"m","resume":7}"#)
            let ending = try await attacker.readUntilClosed()
            #expect(ending.errors.map(\.code) == [.protocolVersion])
            #expect(ending.close.code.rawValue == 1002)
            try await rig.expectLog(event: "connection.refused", code: "protocol-version")
            try await bystanders.stillServed()
        }
    }

    @Test("a text frame that is not UTF-8 closes the connection with 1007")
    func invalidUTF8() async throws {
        try await withHostileServer { rig in
            let bystanders = try await rig.bystanders()
            let code = try await rig.raw { socket in
                #expect(try socket.upgrade(origin: nil).hasPrefix("HTTP/1.1 101"))
                try socket.sendText([UInt8](#"{"type":"ping","x":""#.utf8) + [0xC3, 0x28] + [UInt8](#""}"#.utf8))
                return try socket.closeCode()
            }
            #expect(code == 1007)
            try await bystanders.stillServed()
        }
    }

    @Test("a message over 64 KiB closes the connection with 1009")
    func oversizedMessage() async throws {
        try await withHostileServer { rig in
            let bystanders = try await rig.bystanders()
            let attacker = try await rig.join(role: .controller, name: "mallory")
            try await attacker.send(#"{"type":"ping","padding":""# + String(repeating: "x", count: 64 << 10) + #""}"#)
            let ending = try await attacker.readUntilClosed()
            #expect(ending.close.code.rawValue == 1009)
            try await rig.expectLog(event: "connection.refused", code: "too-big")
            try await bystanders.stillServed()
        }
    }

    @Test("a binary frame is refused and the connection closed with 1003")
    func binaryFrame() async throws {
        try await withHostileServer { rig in
            let bystanders = try await rig.bystanders()
            let attacker = try await rig.join(role: .controller, name: "mallory")
            try await attacker.connection.send(.binary(Array(#"{"type":"ping"}"#.utf8)))
            let ending = try await attacker.readUntilClosed()
            #expect(ending.errors.map(\.code) == [.badMessage])
            #expect(ending.close.code.rawValue == 1003)
            try await rig.expectLog(event: "connection.refused", code: "bad-message")
            try await bystanders.stillServed()
        }
    }

    @Test("a burst of 200 messages is served up to the burst allowance, then refused with rate-limited and closed with 1008")
    func flood() async throws {
        try await withHostileServer { rig in
            let bystanders = try await rig.bystanders()
            let attacker = try await rig.join(role: .controller, name: "mallory")
            for _ in 0..<200 { try? await attacker.send(#"{"type":"ping"}"#) }
            let ending = try await attacker.readUntilClosed()
            #expect(ending.errors.map(\.code) == [.rateLimited])
            // The burst allowance (100), and what the bucket refills while the burst is read.
            #expect((95...150).contains(ending.messages.count { $0 == .pong }))
            #expect(ending.close.code.rawValue == 1008)
            try await rig.expectLog(event: "connection.refused", code: "rate-limited")
            #expect(rig.log.lines(event: "connection.refused").count == 1, "one refusal logged, not one per message after it")
            try await bystanders.stillServed()
        }
    }

    // MARK: - Invitations and resumption

    @Test("expired, forged, unknown-key, revoked and malformed invitations are refused with unauthorized and closed with 1008")
    func badInvitations() async throws {
        try await withHostileServer { rig in
            let bystanders = try await rig.bystanders()
            let now = Int64(Date().timeIntervalSince1970)
            let expired = rig.ring.sign(InvitationClaims(sessionID: rig.session, role: .owner, issuedAt: now - 7_200, lifetimeSeconds: 600))
            var forged = Array(rig.token(role: .owner).utf8)
            let tagStart = forged.lastIndex(of: UInt8(ascii: "."))! + 1
            forged[tagStart] = forged[tagStart] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            let strangerKey = TokenKey.random()
            let stranger = try TokenKeyRing(keys: [strangerKey], signingKeyID: strangerKey.id).sign(
                InvitationClaims(sessionID: rig.session, role: .owner, issuedAt: now, lifetimeSeconds: 600))
            let elevated = try rig.elevated(rig.token(role: .viewer))
            let revoked = rig.token(role: .controller)
            try await rig.revoke(revoked)
            let cases: [(name: String, token: String, reason: String)] = [
                ("expired", expired, "expired"),
                ("forged", String(decoding: forged, as: UTF8.self), "bad signature"),
                ("unknown key", stranger, "unknown key"),
                ("a viewer's claims re-signed as owner by a stranger", elevated, "bad signature"),
                ("revoked", revoked, "revoked"),
                ("not a token", "eyJhbGciOiJub25lIn0.e30.", "malformed"),
            ]
            for (name, token, reason) in cases {
                let attacker = try await rig.connect()
                try await attacker.send(SessionClientMessage.hello(SessionHello(token: token, name: "mallory")))
                let ending = try await attacker.readUntilClosed()
                #expect(ending.errors.map(\.code) == [.unauthorized], "\(name)")
                #expect(ending.close.code.rawValue == 1008, "\(name)")
                try await rig.expectLog(event: "connection.refused", code: "unauthorized", reasonContaining: reason)
            }
            try await bystanders.stillServed()
        }
    }

    @Test("an invitation to a session this server does not have is refused with session-ended and closed with 4004")
    func invitationForAnotherSession() async throws {
        try await withHostileServer { rig in
            let bystanders = try await rig.bystanders()
            let attacker = try await rig.connect()
            try await attacker.send(SessionClientMessage.hello(SessionHello(token: rig.token(role: .owner, session: "s-elsewhere"), name: "m")))
            let ending = try await attacker.readUntilClosed()
            #expect(ending.errors.map(\.code) == [.sessionEnded])
            #expect(ending.close.code.rawValue == 4004)
            try await rig.expectLog(event: "connection.refused", code: "session-ended")
            try await bystanders.stillServed()
        }
    }

    @Test("a resume with a wrong secret, or with an invitation of another role, is refused with unauthorized and 1008; the right one resumes")
    func badResume() async throws {
        try await withHostileServer { rig in
            let bystanders = try await rig.bystanders()
            let (victim, welcome) = try await rig.joinWithWelcome(role: .controller, name: "victim")
            _ = await victim.connection.close()
            let wrongSecret = SessionHello.Resume(participant: welcome.participant, secret: "guessed", version: welcome.version)
            let rightSecret = SessionHello.Resume(participant: welcome.participant, secret: welcome.secret, version: welcome.version)
            for (token, resume) in [(rig.token(role: .controller), wrongSecret), (rig.token(role: .viewer), rightSecret)] {
                let attacker = try await rig.connect()
                try await attacker.send(SessionClientMessage.hello(SessionHello(token: token, name: "mallory", resume: resume)))
                let ending = try await attacker.readUntilClosed()
                #expect(ending.errors.map(\.code) == [.unauthorized])
                #expect(ending.close.code.rawValue == 1008)
            }
            try await rig.expectLog(event: "connection.refused", code: "unauthorized", reasonContaining: "resume")
            let returning = try await rig.connect()
            try await returning.send(SessionClientMessage.hello(SessionHello(token: rig.token(role: .controller), name: "victim", resume: rightSecret)))
            let resumed = try await returning.expect { if case .welcome(let welcome) = $0 { welcome } else { nil } }
            #expect(resumed.participant == welcome.participant)
            try await bystanders.stillServed()
        }
    }

    @Test("a replayed command id is acknowledged with its first version and not sequenced again")
    func replayedCommand() async throws {
        try await withHostileServer { rig in
            let bystanders = try await rig.bystanders()
            let (sender, welcome) = try await rig.joinWithWelcome(role: .controller, name: "repeater")
            let command = HostileClient.playbackCommand(id: "again", by: welcome.participant.rawValue, counter: 1, seconds: 40)
            try await sender.send(command)
            let first = try await sender.expectAck("again")
            try await sender.send(command)
            #expect(try await sender.expectAck("again") == first)
            let seen = try await bystanders.watcher.expect { if case .event(let event) = $0, event.version >= first { event } else { nil } }
            #expect(seen.version == first)
            try await bystanders.stillServed()
            #expect(bystanders.watcher.received.count { if case .event(let event) = $0 { event.version == first } else { false } } == 1)
        }
    }

    // MARK: - Roles and sessions

    @Test("a viewer's seek and pause are refused with forbidden and reach nobody")
    func viewerSeek() async throws {
        try await withHostileServer { rig in
            let bystanders = try await rig.bystanders()
            let (viewer, welcome) = try await rig.joinWithWelcome(role: .viewer, name: "viewer")
            let me = welcome.participant.rawValue
            for (id, rate) in [("seek", 1.0), ("pause", 0.0)] {
                try await viewer.send(HostileClient.playbackCommand(id: id, by: me, counter: 9, seconds: 500, rate: rate))
                let error = try await viewer.nextError()
                #expect(error.code == .forbidden)
                #expect(error.id == id)
            }
            try await rig.expectLog(event: "command.refused", code: "forbidden")
            try await bystanders.stillServed()
            #expect(!bystanders.received.contains { if case .event(let event) = $0 { event.sender == welcome.participant && event.isCoordination } else { false } })
        }
    }

    @Test("a participant cannot act for another session or another participant: its commands stay in its own session")
    func commandForAnotherSession() async throws {
        try await withHostileServer { rig in
            let bystanders = try await rig.bystanders()
            let other = "s-other"
            try await rig.createSession(other)
            let attacker = try await rig.join(role: .owner, name: "mallory", session: other)
            // The bystanders' owner is p1 of its session; the attacker is p1 of the other one.
            try await attacker.send(HostileClient.playbackCommand(id: "x1", by: "p1", counter: 1, seconds: 99))
            _ = try await attacker.expectAck("x1")
            try await attacker.send(#"{"type":"command","id":"x2","message":{"type":"participant-state","participant":"p2","sequence":1,"isReadyToPlay":false,"suspensionReasons":[],"waitIntervals":[],"sharedBreakDurations":{}}}"#)
            #expect(try await attacker.nextError().code == .forbidden)
            // Revoking the bystanders' invitations needs their session's owner.
            let response = try await rig.post("/sessions/\(rig.session)/revocations", bearer: rig.token(role: .owner, session: other), body: #"{"token":\#(rig.token(role: .viewer).quotedJSON)}"#)
            #expect(response.status == 403)
            let wrongBody = try await rig.post("/sessions/\(other)/revocations", bearer: rig.token(role: .owner, session: other), body: #"{"token":\#(rig.token(role: .viewer).quotedJSON)}"#)
            #expect(wrongBody.status == 400)
            try await bystanders.stillServed()
            #expect(!bystanders.received.contains { if case .event(let event) = $0 { event.isCoordination && event.sender != bystanders.ownerID } else { false } })
        }
    }

    // MARK: - Bounds

    @Test("times and numbers at their bounds are accepted; beyond them, out-of-range, the connection open and the server unharmed")
    func timesAtAndOverBounds() async throws {
        try await withHostileServer { rig in
            let bystanders = try await rig.bystanders()
            let (attacker, welcome) = try await rig.joinWithWelcome(role: .controller, name: "edge")
            let me = welcome.participant.rawValue
            let maximum = WireBounds.maximumInteger
            func state(anchor: String = #"{"value":1,"timescale":1}"#, groupTime: String = "1000", issuedAt: String = "1000", rate: String = "1") -> String {
                #"{"type":"playback-state","itemIdentifier":"movie","rate":\#(rate),"anchorTime":\#(anchor),"anchorGroupTime":\#(groupTime),"timestamp":{"counter":1,"participant":"\#(me)","issuedAt":\#(issuedAt)}}"#
            }
            let accepted = [
                state(groupTime: "\(maximum)"), state(groupTime: "-\(maximum)"), state(issuedAt: "\(maximum)"),
                state(anchor: #"{"value":\#(maximum),"timescale":1000000000}"#), state(anchor: #"{"value":-9007199,"timescale":1}"#),
                state(rate: "64"), state(rate: "-64"),
            ]
            for (index, message) in accepted.enumerated() {
                try await attacker.send(#"{"type":"command","id":"ok\#(index)","message":\#(message)}"#)
                _ = try await attacker.expectAck("ok\(index)")
            }
            try await attacker.send(#"{"type":"clock.probe","id":\#(maximum),"sent":\#(maximum)}"#)
            _ = try await attacker.expect { if case .clockReply(let reply) = $0 { reply } else { nil } }
            let refused = [
                state(groupTime: "\(maximum + 1)"), state(groupTime: "-\(maximum + 1)"), state(issuedAt: "9223372036854775807"),
                state(groupTime: "99999999999999999999"), state(anchor: #"{"value":9223372036854775807,"timescale":1}"#),
                state(anchor: #"{"value":9007200,"timescale":1}"#), state(anchor: #"{"value":1,"timescale":0}"#),
                state(anchor: #"{"value":1,"timescale":1000000001}"#), state(anchor: #"{"value":1,"timescale":-1}"#),
                state(rate: "64.5"), state(rate: "1e308"), state(rate: "-1e400"),
            ]
            for (index, message) in refused.enumerated() {
                try await attacker.send(#"{"type":"command","id":"no\#(index)","message":\#(message)}"#)
                #expect(try await attacker.nextError().code == .outOfRange, "\(message)")
            }
            for message in [
                #"{"type":"clock.probe","id":1,"sent":9007199254740992}"#, #"{"type":"clock.probe","id":-1,"sent":0}"#,
                #"{"type":"resync","from":-1}"#, #"{"type":"resync","from":18446744073709551615}"#,
            ] {
                try await attacker.send(message)
                #expect(try await attacker.nextError().code == .outOfRange, "\(message)")
            }
            try await attacker.send(#"{"type":"resync","from":\#(maximum)}"#)
            try await attacker.send(#"{"type":"custom","id":"r","messageType":"interlude.report","body":{"skew":\#(maximum),"roundTrip":\#(maximum)}}"#)
            try await attacker.send(#"{"type":"ping"}"#)
            try await attacker.expectPong()
            try await rig.expectLog(event: "message.refused", code: "out-of-range")
            try await bystanders.stillServed()
            let metrics = try await rig.get("/metrics")
            #expect(metrics.status == 200)
        }
    }

    // MARK: - Connections

    @Test("a connection that never says hello is refused with unauthorized and closed with 1008 after the hello timeout")
    func helloNeverComes() async throws {
        try await withHostileServer(configure: { $0.core.helloTimeout = .milliseconds(400) }) { rig in
            let bystanders = try await rig.bystanders()
            let silent = try await rig.connect()
            let started = ContinuousClock.now
            let ending = try await silent.readUntilClosed()
            #expect(ContinuousClock.now - started >= .milliseconds(300))
            #expect(ending.errors.map(\.code) == [.unauthorized])
            #expect(ending.close.code.rawValue == 1008)
            try await rig.expectLog(event: "connection.refused", code: "unauthorized", reasonContaining: "no hello")
            try await bystanders.stillServed()
        }
    }

    @Test("a browser Origin that is not allowed is refused at the handshake with 403; an allowed one is upgraded")
    func originNotAllowed() async throws {
        try await withHostileServer(configure: { $0.allowedOrigins = ["https://watch.example"] }) { rig in
            let bystanders = try await rig.bystanders()
            let refused = try await rig.rawUpgrade(origin: "https://evil.example")
            #expect(refused.hasPrefix("HTTP/1.1 403"), "\(refused)")
            try await rig.expectLog(event: "connection.refused", code: "forbidden-origin")
            let allowed = try await rig.rawUpgrade(origin: "https://watch.example")
            #expect(allowed.hasPrefix("HTTP/1.1 101"), "\(allowed)")
            try await bystanders.stillServed()
        }
    }

    @Test("2,000 randomly mutated messages from one client crash nothing, and the server keeps serving the others")
    func randomMutations() async throws {
        try await withHostileServer(configure: {
            $0.core.messagesPerSecond = 100_000
            $0.core.messageBurst = 100_000
            $0.core.maximumParticipants = 10_000
        }) { rig in
            let bystanders = try await rig.bystanders()
            var random = SeededGenerator(seed: 0x1A7E_2D0C)
            let corpus = rig.mutationCorpus(participant: "p3")
            var attacker = try await rig.join(role: .controller, name: "fuzz")
            var connections = 1
            for index in 0..<2_000 {
                let text = HostileMutator.mutate(random.pick(corpus), using: &random)
                // A ping after each message: its pong says the server read the mutation and is
                // still answering; a close says the mutation ended the connection.
                var isOpen = (try? await attacker.send(text)) != nil
                if isOpen { isOpen = (try? await attacker.send(#"{"type":"ping"}"#)) != nil }
                while isOpen {
                    guard case .message(let message) = try await attacker.next() else { break }
                    if message == .pong { break }
                }
                if attacker.connection.closeStatus != nil || !isOpen {
                    _ = await attacker.connection.close()
                    attacker = try await rig.join(role: .controller, name: "fuzz\(index)")
                    connections += 1
                }
                if index % 200 == 199 { try await bystanders.stillServed() }
            }
            try await bystanders.stillServed()
            let newcomer = try await rig.join(role: .viewer, name: "late")
            try await newcomer.send(#"{"type":"ping"}"#)
            try await newcomer.expectPong()
            #expect(rig.log.lines(event: "store.failed").isEmpty)
            // The mutations reached the refusals, and some of them ended a connection.
            let codes = Set((rig.log.lines(event: "message.refused") + rig.log.lines(event: "connection.refused")).compactMap { $0["code"] })
            #expect(codes.isSuperset(of: ["bad-message", "out-of-range", "unknown-type", "unauthorized"]), "\(codes)")
            #expect(connections > 1)
        }
    }
}

// MARK: - The server under test

/// One real server for one test: 127.0.0.1 on a free port, a memory store, a key ring made here,
/// every log line kept, and a session created over `POST /sessions`.
struct HostileRig: Sendable {
    let port: Int
    let ring: TokenKeyRing
    let log: HostileLog
    let session = "s-hostile"
    let stream = "http://127.0.0.1/vod/main.m3u8"

    /// An invitation signed by the server's own ring.
    func token(role: GroupRole, session: String? = nil, lifetimeSeconds: Int64 = 600) -> String {
        ring.sign(InvitationClaims(sessionID: session ?? self.session, role: role, issuedAt: Int64(Date().timeIntervalSince1970), lifetimeSeconds: lifetimeSeconds, stream: stream))
    }

    /// `token`'s claims with the role raised to owner, signed by a key the server does not hold.
    func elevated(_ token: String) throws -> String {
        let claims = try ring.verify(token, now: Int64(Date().timeIntervalSince1970))
        var raised = claims
        raised.role = .owner
        return try TokenKeyRing(keys: [TokenKey(id: ring.signingKeyID, secret: Array(repeating: 7, count: 32))], signingKeyID: ring.signingKeyID).sign(raised)
    }

    func createSession(_ id: String) async throws {
        let response = try await post("/sessions", bearer: token(role: .owner, session: id), body: #"{"stream":"\#(stream)"}"#)
        #expect(response.status == 201, "POST /sessions: \(response.status) \(response.body)")
    }

    func revoke(_ invitation: String) async throws {
        let response = try await post("/sessions/\(session)/revocations", bearer: token(role: .owner), body: #"{"token":\#(invitation.quotedJSON)}"#)
        #expect(response.status == 200, "revocation: \(response.status) \(response.body)")
    }

    func post(_ path: String, bearer: String, body: String) async throws -> (status: Int, body: String) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = "POST"
        request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body.utf8)
        return try await fetch(request)
    }

    func get(_ path: String) async throws -> (status: Int, body: String) {
        try await fetch(URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!))
    }

    private func fetch(_ request: URLRequest) async throws -> (status: Int, body: String) {
        var request = request
        request.timeoutInterval = 30
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    /// A WebSocket on `/group` that has said nothing yet.
    func connect() async throws -> HostileClient {
        HostileClient(connection: try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/group"))
    }

    /// A participant that said hello and was welcomed.
    func joinWithWelcome(role: GroupRole, name: String, session: String? = nil) async throws -> (HostileClient, SessionWelcome) {
        let client = try await connect()
        try await client.send(SessionClientMessage.hello(SessionHello(token: token(role: role, session: session), name: name)))
        let welcome = try await client.expect { if case .welcome(let welcome) = $0 { welcome } else { nil } }
        return (client, welcome)
    }

    func join(role: GroupRole, name: String, session: String? = nil) async throws -> HostileClient {
        try await joinWithWelcome(role: role, name: name, session: session).0
    }

    /// The well-behaved pair every test keeps an eye on: an owner who commands, a viewer who
    /// watches.
    func bystanders() async throws -> Bystanders {
        let (owner, welcome) = try await joinWithWelcome(role: .owner, name: "alice")
        let watcher = try await join(role: .viewer, name: "bob")
        return Bystanders(owner: owner, ownerID: welcome.participant, watcher: watcher)
    }

    /// Waits for a log line with `event` and `code` (and a reason containing `reasonContaining`).
    func expectLog(event: String, code: String, reasonContaining: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        func matches() -> Bool {
            log.lines(event: event).contains { line in
                line["code"] == code && (reasonContaining.map { line["reason"]?.contains($0) ?? false } ?? true)
            }
        }
        while !matches(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(matches(), "no \(event) log line with code \(code)\(reasonContaining.map { " and reason ~ \($0)" } ?? ""); lines: \(log.all.suffix(8))", sourceLocation: sourceLocation)
    }

    /// A hand-made WebSocket handshake on `/group` with an `Origin`, returning the response head.
    func rawUpgrade(origin: String) async throws -> String {
        try await raw { try $0.upgrade(origin: origin) }
    }

    /// Runs `work` on its own thread with a raw TCP connection to the server.
    func raw<T: Sendable>(_ work: @escaping @Sendable (HostileRawSocket) throws -> T) async throws -> T {
        let port = self.port
        return try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try work(try HostileRawSocket(port: port)) }) }
            thread.start()
        }
    }

    /// Valid messages of every type, for ``HostileMutator`` to spoil.
    func mutationCorpus(participant: String) -> [String] {
        [
            String(decoding: SessionClientMessage.hello(SessionHello(token: token(role: .controller), name: "fuzz")).jsonBytes, as: UTF8.self),
            String(decoding: SessionClientMessage.hello(SessionHello(token: token(role: .controller), name: "fuzz", resume: .init(participant: "p1", secret: "s", version: 3))).jsonBytes, as: UTF8.self),
            HostileClient.playbackCommand(id: "f1", by: participant, counter: 4, seconds: 12),
            #"{"type":"command","id":"f2","message":{"type":"participant-state","participant":"\#(participant)","sequence":7,"itemIdentifier":"movie","isReadyToPlay":false,"suspensionReasons":["playingInterstitial"],"waitIntervals":[{"cause":"suspension","reason":"playingInterstitial","start":61000000000,"holdTime":{"value":60,"timescale":1},"expectedDuration":30000000000},{"cause":"not-ready","start":2000000000,"end":2500000000,"waitLimit":60000000000}],"contentDuration":{"value":600,"timescale":1},"sharedBreakDurations":{"legal":{"value":15,"timescale":2}}}}"#,
            #"{"type":"command","id":"f3","message":{"type":"ad-schedule","participant":"\#(participant)","itemIdentifier":"movie","entries":[{"coordinatedTime":{"value":0,"timescale":1},"duration":{"value":3003,"timescale":250},"source":"stitched"},{"coordinatedTime":{"value":60,"timescale":1},"duration":{"value":15,"timescale":1},"source":"interstitial","eventIdentifier":"ad1"}]}}"#,
            #"{"type":"command","id":"f4","message":{"type":"hello","participant":"\#(participant)"}}"#,
            #"{"type":"custom","id":"f5","messageType":"example.chat","body":{"text":"popcorn? 🍿","mentions":["p-alice"],"n":[1,2.5,-3e2,true,null]}}"#,
            #"{"type":"custom","id":"f6","messageType":"interlude.report","body":{"skew":1000000,"roundTrip":2000000}}"#,
            #"{"type":"clock.probe","id":42,"sent":1500000123}"#,
            #"{"type":"resync","from":1}"#,
            #"{"type":"ping"}"#,
        ]
    }
}

/// The owner and viewer who behave, and everything they were sent.
final class Bystanders: Sendable {
    let owner: HostileClient
    let ownerID: CoordinatedPlaybackParticipant.ID
    let watcher: HostileClient
    private let counter = Atomic<UInt64>(100)

    init(owner: HostileClient, ownerID: CoordinatedPlaybackParticipant.ID, watcher: HostileClient) {
        self.owner = owner
        self.ownerID = ownerID
        self.watcher = watcher
    }

    var received: [SessionServerMessage] { owner.received + watcher.received }

    /// Both are still served: each ping gets its pong, and the owner's command is acknowledged and
    /// reaches both of them as the same event.
    func stillServed(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for client in [owner, watcher] {
            try await client.send(#"{"type":"ping"}"#)
            try await client.expectPong(sourceLocation: sourceLocation)
        }
        let counter = counter.add(1, ordering: .relaxed).newValue
        let id = "alice-\(counter)"
        try await owner.send(HostileClient.playbackCommand(id: id, by: ownerID.rawValue, counter: counter, seconds: Int64(counter)))
        let version = try await owner.expectAck(id, sourceLocation: sourceLocation)
        for client in [owner, watcher] {
            let event = try await client.expect(sourceLocation: sourceLocation) { if case .event(let event) = $0, event.version == version { event } else { nil } }
            #expect(event.sender == ownerID, sourceLocation: sourceLocation)
        }
    }
}


extension SessionEvent {
    /// Whether it carries a coordination message (not presence, not a custom message).
    fileprivate var isCoordination: Bool {
        if case .message = body { true } else { false }
    }
}

extension String {
    /// The string as a JSON literal.
    var quotedJSON: String { String(decoding: WireValue.string(self).jsonBytes, as: UTF8.self) }
}

/// Runs `body` against a fresh server on a free port, then shuts the server down and waits for it.
func withHostileServer(
    configure: (inout GroupServer.Configuration) -> Void = { _ in },
    _ body: (HostileRig) async throws -> Void
) async throws {
    let key = TokenKey.random()
    let ring = try TokenKeyRing(keys: [key], signingKeyID: key.id)
    let log = HostileLog()
    var configuration = GroupServer.Configuration(
        http: HTTPServer.Configuration(host: "127.0.0.1", port: 0), keyRing: ring, store: MemorySessionStore(),
        log: { log.append($0) })
    // Bystanders stay quiet between checks: no keep-alive verdict in the middle of a test.
    configuration.core.keepAliveInterval = .seconds(60)
    configure(&configuration)
    let server = try GroupServer(configuration: configuration)
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await server.run() }
        do {
            let rig = HostileRig(port: try await server.listeningPort(), ring: ring, log: log)
            try await rig.createSession(rig.session)
            try await body(rig)
            server.shutdown()
            try await group.waitForAll()
        } catch {
            server.shutdown()
            try? await group.waitForAll()
            throw error
        }
    }
}

/// Spoils a valid message the ways a broken or hostile client would: bytes flipped, dropped or
/// repeated, the text cut short, numbers swapped for extreme ones, strings swapped for long or
/// odd ones, values of the wrong type, structure nested deep.
private enum HostileMutator {
    static let numbers = [
        "0", "-0", "-1", "9007199254740991", "9007199254740992", "-9007199254740992", "9223372036854775807",
        "9223372036854775808", "-9223372036854775809", "18446744073709551616", "1e308", "1e309", "-1e400", "1.5", "0.0000001",
        "2e-400", "NaN", "Infinity", "00", "01", "1.", ".5", "-", "1e", "true", "null", "\"1\"", "[]", "{}",
    ]
    static let strings = [
        "\"\"", "\"\\u0000\"", "\"\\ud800\"", "\"\\udc00\\ud800\"", "\"" + String(repeating: "é", count: 9_000) + "\"",
        "\"" + String(repeating: "a", count: 300) + "\"", "\"interlude.report\"", "\"p1\"", "\"server\"", "\"\\\"\"", "1", "null", "[\"a\"]",
    ]

    static func mutate(_ text: String, using random: inout SeededGenerator) -> String {
        var bytes = Array(text.utf8)
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            guard !bytes.isEmpty else { break }
            let at = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<9, using: &random) {
            case 0: bytes[at] = UInt8.random(in: 0...255, using: &random)
            case 1: bytes.remove(at: at)
            case 2: bytes.insert(random.pick(Array(#"{}[]",:"\-.0123456789eE \#t"#.utf8)), at: at)
            case 3: bytes = Array(bytes[..<at])
            case 4: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + Int.random(in: 1...40, using: &random))], at: at)
            case 5: bytes = replace(in: bytes, matching: isNumberByte, with: random.pick(numbers), using: &random)
            case 6: bytes = replace(in: bytes, quoted: true, with: random.pick(strings + numbers), using: &random)
            case 7:
                let depth = Int.random(in: 20...80, using: &random)
                bytes = Array(#"{"type":"custom","id":"deep","messageType":"x","body":"#.utf8) + Array(repeating: UInt8(ascii: "["), count: depth)
                    + Array(repeating: UInt8(ascii: "]"), count: depth) + [UInt8(ascii: "}")]
            default:
                let field = random.pick([#","type":"leave""#, #","protocol":2"#, #","resume":{"participant":"p1","secret":"x","version":1}"#, #","id":"#, #","extra":{"nested":[1,{"a":null}]}"#])
                if let close = bytes.lastIndex(of: UInt8(ascii: "}")) { bytes.insert(contentsOf: field.utf8, at: close) }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    /// `bytes` with one run of number bytes replaced.
    private static func replace(in bytes: [UInt8], matching predicate: (UInt8) -> Bool, with replacement: String, using random: inout SeededGenerator) -> [UInt8] {
        let starts = bytes.indices.filter { predicate(bytes[$0]) && ($0 == 0 || !predicate(bytes[$0 - 1])) }
        guard !starts.isEmpty else { return bytes }
        let start = random.pick(starts)
        let end = bytes[start...].firstIndex { !predicate($0) } ?? bytes.endIndex
        return Array(bytes[..<start]) + Array(replacement.utf8) + Array(bytes[end...])
    }

    /// `bytes` with one quoted string (a key or a value) replaced.
    private static func replace(in bytes: [UInt8], quoted: Bool, with replacement: String, using random: inout SeededGenerator) -> [UInt8] {
        let quotes = bytes.indices.filter { bytes[$0] == UInt8(ascii: "\"") && ($0 == 0 || bytes[$0 - 1] != UInt8(ascii: "\\")) }
        guard quotes.count >= 2 else { return bytes }
        let pair = Int.random(in: 0..<(quotes.count / 2), using: &random) * 2
        return Array(bytes[..<quotes[pair]]) + Array(replacement.utf8) + Array(bytes[(quotes[pair + 1] + 1)...])
    }
}

/// A blocking TCP client for what `WebSocketClient` cannot send: a handshake with a foreign
/// `Origin`, a text frame that is not UTF-8. Used from its own thread.
final class HostileRawSocket: Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(errno)") }
        var timeout = timeval(tv_sec: 15, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw Failure(description: "connect: \(errno)")
        }
    }

    deinit { close(descriptor) }

    /// Sends an upgrade request for `/group` (with `Origin` when given) and returns the response head.
    func upgrade(origin: String?) throws -> String {
        try send(Array((
            "GET /group HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                + (origin.map { "Origin: \($0)\r\n" } ?? "") + "\r\n").utf8))
        var received: [UInt8] = []
        while !received.ends(with: Array("\r\n\r\n".utf8)) { received += try read(count: 1) }
        return String(decoding: received, as: UTF8.self)
    }

    /// Sends `payload` (under 126 bytes) as one masked text frame, whatever its bytes.
    func sendText(_ payload: [UInt8]) throws {
        precondition(payload.count < 126)
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        try send([0x81, 0x80 | UInt8(payload.count)] + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] })
    }

    /// Reads the server's frames until its close frame, and returns the close's code.
    func closeCode() throws -> UInt16? {
        while true {
            let head = try read(count: 2)
            var length = Int(head[1] & 0x7F)
            if length == 126 { length = try read(count: 2).reduce(0) { $0 << 8 | Int($1) } }
            if length == 127 { length = try read(count: 8).reduce(0) { $0 << 8 | Int($1) } }
            let payload = try read(count: length)
            guard head[0] & 0x0F == 0x8 else { continue }
            return payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil
        }
    }

    private func send(_ bytes: [UInt8]) throws {
        guard bytes.withUnsafeBytes({ Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count else {
            throw Failure(description: "send: \(errno)")
        }
    }

    private func read(count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let received = bytes[filled...].withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard received > 0 else { throw Failure(description: received == 0 ? "the server closed the connection" : "recv: \(errno)") }
            filled += received
        }
        return bytes
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix) }
}
