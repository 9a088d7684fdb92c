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

/// A store that fails while told to, in front of a memory store.
private final class FlakyStore: SessionStore {
    let inner = MemorySessionStore()
    private let failing = Mutex(false)

    func fail(_ isFailing: Bool) { failing.withLock { $0 = isFailing } }

    func commit(_ batch: StoreBatch) throws(SessionStoreError) {
        if failing.withLock({ $0 }) { throw .redis("the store is down (test)") }
        try inner.commit(batch)
    }
    func loadAll(logLength: Int) throws(SessionStoreError) -> [StoredSession] { inner.loadAll(logLength: logLength) }
    func events(session: String, after version: UInt64, limit: Int) throws(SessionStoreError) -> [StoredEvent] {
        inner.events(session: session, after: version, limit: limit)
    }
    func commandVersion(session: String, sender: String, commandID: String) throws(SessionStoreError) -> UInt64? {
        inner.commandVersion(session: session, sender: sender, commandID: commandID)
    }
    func isRevoked(tokenID: String) throws(SessionStoreError) -> Bool { inner.isRevoked(tokenID: tokenID) }
}

/// What a participant sees when the store refuses a turn: nothing of it happened.
@Suite("Group server when its store fails", .serialized)
struct ServerStoreFailureTests {
    @Test("a command the store refused is answered internal and reaches nobody; sent again once the store is back it is applied once, at the next version")
    func refusedCommand() async throws {
        let store = FlakyStore()
        let key = TokenKey.random()
        let ring = try TokenKeyRing(keys: [key], signingKeyID: key.id)
        var configuration = GroupServer.Configuration(
            http: HTTPServer.Configuration(host: "127.0.0.1", port: 0), keyRing: ring, store: store, log: { _ in })
        configuration.core.keepAliveInterval = .seconds(60)
        let server = try GroupServer(configuration: configuration)
        let session = "s-flaky"
        func token(_ role: GroupRole) -> String {
            ring.sign(InvitationClaims(sessionID: session, role: role, issuedAt: Int64(Date().timeIntervalSince1970), lifetimeSeconds: 600, stream: "http://127.0.0.1/x.m3u8"))
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            defer { server.shutdown() }
            let port = try await server.listeningPort()
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/sessions")!)
            request.httpMethod = "POST"
            request.setValue("Bearer \(token(.owner))", forHTTPHeaderField: "Authorization")
            request.httpBody = Data("{}".utf8)
            _ = try await URLSession.shared.data(for: request)
            func join(_ role: GroupRole, _ name: String) async throws -> (HostileClient, SessionWelcome) {
                let client = HostileClient(connection: try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/group"))
                try await client.send(.hello(SessionHello(token: token(role), name: name)))
                return (client, try await client.expect { if case .welcome(let welcome) = $0 { welcome } else { nil } })
            }
            let (alice, welcome) = try await join(.owner, "alice")
            let (bob, _) = try await join(.viewer, "bob")
            let joined = try await alice.expect { message -> UInt64? in if case .event(let event) = message { event.version } else { nil } }

            store.fail(true)
            try await alice.send(HostileClient.playbackCommand(id: "c1", by: welcome.participant.rawValue, counter: 1, seconds: 5))
            let refusal = try await alice.nextError()
            #expect(refusal.code == .internal && refusal.id == "c1", "\(refusal)")
            // A hello in a refused turn is told so and closed, not left waiting.
            let carol = HostileClient(connection: try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/group"))
            try await carol.send(.hello(SessionHello(token: token(.viewer), name: "carol")))
            let (_, errors, close) = try await carol.readUntilClosed()
            #expect(errors.map(\.code) == [.internal] && close.code.rawValue == 1011, "\(errors) \(close)")

            store.fail(false)
            try await alice.send(HostileClient.playbackCommand(id: "c1", by: welcome.participant.rawValue, counter: 1, seconds: 5))
            let version = try await alice.expectAck("c1")
            #expect(version == joined + 1, "the refused turn left no trace in the order")
            let seen = try await bob.events(through: version).filter { $0.version > joined }
            #expect(seen.map(\.version) == [version])
            #expect(store.inner.events(session: session, after: 0, limit: 100).map(\.version) == Array(1...version))
            server.shutdown()
            try await group.waitForAll()
        }
    }
}
