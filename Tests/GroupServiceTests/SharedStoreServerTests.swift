import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GroupCoordination
import GroupService
import GroupWire
import NetworkIO
import Synchronization
import Testing
import TestSupport

/// Two real `GroupServer`s in this process sharing one private redis-server, each with its own
/// store connection and its own port: a session's participants spread over both see one order.
@Suite("Group servers sharing a Redis store", .serialized)
struct SharedStoreServerTests {
    @Test("participants on two servers that command at once see every event, in one order, each version once")
    func oneOrder() async throws {
        try await withSharedServers { rig in
            let (alice, _) = try await rig.join(server: 0, role: .owner, name: "alice")
            let (bob, bobWelcome) = try await rig.join(server: 1, role: .owner, name: "bob")
            let start = bobWelcome.version
            // Both send 30 commands without waiting for each other: their commits meet.
            async let aliceAcks = rig.command(alice, prefix: "a", by: "p1", count: 30)
            async let bobAcks = rig.command(bob, prefix: "b", by: bobWelcome.participant.rawValue, count: 30)
            let acks = try await aliceAcks + bobAcks
            #expect(Set(acks).count == 60, "every command got its own version")
            let last = start + 60
            let seenByAlice = try await alice.events(through: last)
            let seenByBob = try await bob.events(through: last)
            let expected = Array((start + 1)...last)
            #expect(seenByAlice.filter { $0.version > start }.map(\.version) == expected)
            #expect(seenByBob.filter { $0.version > start }.map(\.version) == expected)
            #expect(seenByAlice.filter { $0.version > start } == seenByBob.filter { $0.version > start })
            #expect(try await rig.metric("interlude_group_remote_changes_total", server: 0) > 0)
        }
    }

    @Test("a participant that resumes on the other server is moved there, and its retried command is acknowledged with its first version")
    func resumeElsewhere() async throws {
        try await withSharedServers { rig in
            let (alice, welcome) = try await rig.join(server: 0, role: .owner, name: "alice")
            try await alice.send(HostileClient.playbackCommand(id: "c1", by: welcome.participant.rawValue, counter: 1, seconds: 10))
            let version = try await alice.expectAck("c1")

            let moved = try await rig.connect(server: 1)
            try await moved.send(.hello(SessionHello(
                token: rig.token(role: .owner), name: "alice",
                resume: .init(participant: welcome.participant, secret: welcome.secret, version: version))))
            let resumed = try await moved.expect { if case .welcome(let welcome) = $0 { welcome } else { nil } }
            #expect(resumed.participant == welcome.participant)
            // The first server hears of it and closes its stale connection.
            let (_, _, close) = try await alice.readUntilClosed()
            #expect(close.code.rawValue == 1001, "\(close)")
            try await moved.send(HostileClient.playbackCommand(id: "c1", by: welcome.participant.rawValue, counter: 1, seconds: 10))
            #expect(try await moved.expectAck("c1") == version)
        }
    }

    @Test("a 300 ms break in one server's Redis connection: its participant still gets every event, in order, exactly once")
    func redisBreak() async throws {
        try await withSharedServers(relayingSecond: true) { rig in
            let (alice, welcome) = try await rig.join(server: 0, role: .owner, name: "alice")
            let (bob, bobWelcome) = try await rig.join(server: 1, role: .viewer, name: "bob")
            let start = bobWelcome.version
            var acks: [UInt64] = []
            for index in 0..<60 {
                if index == 20 { rig.relay?.cut(for: .milliseconds(300)) }
                try await alice.send(HostileClient.playbackCommand(id: "c\(index)", by: welcome.participant.rawValue, counter: UInt64(index + 1), seconds: Int64(index)))
                acks.append(try await alice.expectAck("c\(index)"))
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(rig.relay?.cuts == 1)
            let seen = try await bob.events(through: acks.last!).filter { $0.version > start }
            #expect(seen.map(\.version) == Array((start + 1)...acks.last!), "every version once, in order")
            #expect(Set(acks).isSubset(of: Set(seen.map(\.version))))
            #expect(try await rig.metric("interlude_group_store_failures_total", server: 0) == 0)
        }
    }

    @Test("a session created on one server is joined on the other, and an end on one closes the members of both")
    func createdElsewhere() async throws {
        try await withSharedServers { rig in
            try await rig.createSession("s-other", server: 1)
            let (carol, _) = try await rig.join(server: 0, role: .owner, name: "carol", session: "s-other")
            let (dave, _) = try await rig.join(server: 1, role: .viewer, name: "dave", session: "s-other")
            let joined = try await carol.expect { message -> String? in
                if case .event(let event) = message, case .presence(let presence) = event.body, presence.state == .joined { presence.name } else { nil }
            }
            #expect(joined == "dave")
            _ = dave
        }
    }
}

// MARK: - Rig

private struct SharedRig: Sendable {
    let ports: [Int]
    let ring: TokenKeyRing
    /// The relay between the second server and Redis, when asked for.
    var relay: TCPRelay?
    let session = "s-shared"
    let stream = "http://127.0.0.1/vod/main.m3u8"

    func token(role: GroupRole, session: String? = nil) -> String {
        ring.sign(InvitationClaims(sessionID: session ?? self.session, role: role, issuedAt: Int64(Date().timeIntervalSince1970), lifetimeSeconds: 600, stream: stream))
    }

    func createSession(_ id: String, server: Int) async throws {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(ports[server])/sessions")!)
        request.httpMethod = "POST"
        request.setValue("Bearer \(token(role: .owner, session: id))", forHTTPHeaderField: "Authorization")
        request.httpBody = Data(#"{"stream":"\#(stream)"}"#.utf8)
        request.timeoutInterval = 30
        let (data, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 201, "\(String(decoding: data, as: UTF8.self))")
    }

    func metric(_ name: String, server: Int) async throws -> Double {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(ports[server])/metrics")!)
        request.timeoutInterval = 30
        let (data, _) = try await URLSession.shared.data(for: request)
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") } ?? -1
    }

    func connect(server: Int) async throws -> HostileClient {
        HostileClient(connection: try await WebSocketClient.connect(url: "ws://127.0.0.1:\(ports[server])/group"))
    }

    func join(server: Int, role: GroupRole, name: String, session: String? = nil) async throws -> (HostileClient, SessionWelcome) {
        let client = try await connect(server: server)
        try await client.send(SessionClientMessage.hello(SessionHello(token: token(role: role, session: session), name: name)))
        let welcome = try await client.expect { if case .welcome(let welcome) = $0 { welcome } else { nil } }
        return (client, welcome)
    }

    /// Sends `count` commands one after another (each waits for its ack); their versions.
    func command(_ client: HostileClient, prefix: String, by participant: String, count: Int) async throws -> [UInt64] {
        var versions: [UInt64] = []
        for index in 0..<count {
            try await client.send(HostileClient.playbackCommand(id: "\(prefix)\(index)", by: participant, counter: UInt64(index + 1), seconds: Int64(index)))
            versions.append(try await client.expectAck("\(prefix)\(index)"))
        }
        return versions
    }
}

extension HostileClient {
    /// The events received so far and until one with version `last` arrives.
    func events(through last: UInt64) async throws -> [SessionEvent] {
        var events = received.compactMap { if case .event(let event) = $0 { event } else { nil } }
        while events.last.map({ $0.version < last }) ?? true {
            guard case .message(let message) = try await next() else { break }
            if case .event(let event) = message { events.append(event) }
        }
        return events
    }
}

/// Runs `body` against two servers on one fresh redis-server, then stops both and Redis.
private func withSharedServers(relayingSecond: Bool = false, _ body: (SharedRig) async throws -> Void) async throws {
    let redis = try RedisServer()
    let relay = relayingSecond ? try TCPRelay(to: redis.port) : nil
    defer { relay?.stop() }
    let key = TokenKey.random()
    let ring = try TokenKeyRing(keys: [key], signingKeyID: key.id)
    var servers: [GroupServer] = []
    for index in 0..<2 {
        var configuration = GroupServer.Configuration(
            http: HTTPServer.Configuration(host: "127.0.0.1", port: 0), keyRing: ring,
            store: try RedisSessionStore(url: index == 1 && relay != nil ? "redis://127.0.0.1:\(relay!.port)" : redis.url),
            log: { _ in })
        configuration.core.keepAliveInterval = .seconds(60)
        configuration.core.node = "node-\(index)"
        servers.append(try GroupServer(configuration: configuration))
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
        for server in servers { group.addTask { try await server.run() } }
        do {
            var ports: [Int] = []
            for server in servers { ports.append(try await server.listeningPort()) }
            let rig = SharedRig(ports: ports, ring: ring, relay: relay)
            try await rig.createSession(rig.session, server: 0)
            try await body(rig)
            for server in servers { server.shutdown() }
            try await group.waitForAll()
        } catch {
            for server in servers { server.shutdown() }
            try? await group.waitForAll()
            throw error
        }
    }
    redis.stop()
}
