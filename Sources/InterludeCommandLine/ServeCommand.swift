import BrowserParticipant
import Foundation
import GroupService
import NetworkIO

/// `interlude serve`: the group-session server.
enum ServeCommand: Subcommand {
    static let spec = CommandSpec(
        name: "serve",
        abstract: "Run the group-session server: watch together across machines, each with its own ads.",
        discussion: """
            Participants connect over a WebSocket (ws://HOST:PORT/group, or wss:// with --tls-cert and
            --tls-key) and present an invitation. The server orders every change of the group's playback
            (one version number per session), keeps the group clock, tells everyone who joined, left or
            went silent, and refuses what a participant's role does not allow (a viewer cannot seek).
            Sessions are kept in SQLite (--db; WAL, synchronous=FULL): a command is acknowledged only
            after it is committed, and a restarted server restores every session, so participants
            reconnect and go on where the group is.
            Several servers can share their sessions through Redis (--store redis://HOST:PORT, Redis 6.2 or
            newer with appendonly yes): any of them serves any participant of any session, every session
            keeps one order whichever server a command arrives at, and when a server stops its participants
            resume on another (list every server in the invitation: session create --server, repeated).
            All of them need the same --key-file.
            Invitations are signed with HMAC-SHA256 by the keys in --key-file, which is created (mode 0600)
            when it does not exist. `interlude session create` needs the same key file.
            The flow:
              1. interlude origin                     (a stream with per-viewer ads, or any HLS URL)
              2. interlude serve                      (this server)
              3. interlude session create --stream http://127.0.0.1:8080/vod/movie/{viewer}/main.m3u8
                 prints one invitation per role (owner, controller, viewer)
              4. interlude join INVITATION --name bob (on each machine; {viewer} becomes the name),
                 or open the invitation in a browser (http://HOST:PORT/join#TOKEN) to join from there
            The web view shows a session live: open any of its invitations with /view in place of /join
            (http://HOST:PORT/view#TOKEN) for each participant's timeline, breaks, playhead and skew, and
            whom the group waits for and how long.
            Metrics in the Prometheus format are on http://HOST:PORT/metrics; each session event is one
            JSON line on stdout. Ctrl-C stops the server.
            """,
        options: [
            .init(long: "port", short: "p", valueName: "n", help: "The TCP port (default 7400; 0 picks a free one)."),
            .init(long: "host", short: nil, valueName: "address", help: "The address to listen on (default 127.0.0.1)."),
            .init(long: "db", short: nil, valueName: "file", help: "The SQLite file (default interlude-sessions.sqlite in the working directory)."),
            .init(long: "store", short: nil, valueName: "url", help: "Where sessions are kept: sqlite:FILE (the default, as --db) or redis://HOST:PORT, shared with other servers."),
            .init(long: "node", short: nil, valueName: "name", help: "This server's name among those sharing a Redis store (default: host, pid and a random part)."),
            .init(long: "key-file", short: nil, valueName: "file", help: "The invitation keys (default interlude-keys in the working directory; created if missing)."),
            .init(long: "tls-cert", short: nil, valueName: "file", help: "A PEM certificate: serve wss:// and https://."),
            .init(long: "tls-key", short: nil, valueName: "file", help: "The PEM private key of --tls-cert."),
            .init(long: "allow-origin", short: nil, valueName: "origin", help: "A browser origin allowed to connect, such as http://127.0.0.1:8080 (repeatable).", isRepeatable: true),
            .init(long: "keep-alive", short: nil, valueName: "seconds", help: "How often participants must send something (default 2); silent for two intervals is lost."),
            .init(long: "max-participants", short: nil, valueName: "n", help: "Participants per session (default 50)."),
            .init(long: "websocket-echo", short: nil, valueName: "path", help: "Also echo WebSocket messages on this path, for conformance tests (Autobahn)."),
        ],
        examples: [
            "interlude serve",
            "interlude serve --port 0 --db /var/lib/interlude/sessions.sqlite --key-file /etc/interlude/keys",
            "interlude serve --tls-cert cert.pem --tls-key key.pem",
            "interlude serve --port 7401 --store redis://127.0.0.1:6379   (and another with --port 7402)",
        ]
    )

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let server = try prepare(arguments, io: io)
        try await withInterruption({
            io.writeError("serve: stopping\n")
            server.server.shutdown()
        }) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    do { try await server.server.run() } catch { throw CommandFailure(message: "cannot serve: \(error)") }
                }
                let port = try await server.server.listeningPort()
                server.browsers.serverDidStart(groupURL: server.loopbackGroupURL(port: port))
                io.writeError(server.banner(port: port))
                try await group.waitForAll()
            }
        }
        return 0
    }

    /// A server ready to run, with what its banner says.
    struct Prepared: Sendable {
        var server: GroupServer
        var host: String
        var isTLS: Bool
        var databasePath: String
        var keyFile: String
        var createdKeyFile: Bool
        var restoredSessions: Int
        /// This server's name among those sharing a Redis store.
        var node: String?
        /// The browser participant: `/join` and `/browser`.
        var browsers: BrowserParticipantService

        /// This server's `/group` as this machine reaches it (a wildcard address on loopback),
        /// which the browsers' bridges connect to.
        func loopbackGroupURL(port: Int) -> String {
            let address = ["0.0.0.0", ""].contains(host) ? "127.0.0.1" : host == "::" ? "::1" : host
            return "\(isTLS ? "wss" : "ws")://\(address.contains(":") ? "[\(address)]" : address):\(port)/group"
        }

        func banner(port: Int) -> String {
            let shown = ["0.0.0.0", "::", ""].contains(host) ? "127.0.0.1" : host
            let authority = "\(shown.contains(":") ? "[\(shown)]" : shown):\(port)"
            let http = "\(isTLS ? "https" : "http")://\(authority)"
            return """
                Interlude group server on \(isTLS ? "wss" : "ws")://\(authority)/group
                  sessions: \(databasePath) (\(databasePath.hasPrefix("redis://") ? "shared; \(node ?? "")" : "\(restoredSessions) restored"))
                  invitation keys: \(keyFile)\(createdKeyFile ? " (created)" : "")
                  metrics: \(http)/metrics
                  browsers: open an invitation link (\(http)/join#TOKEN) to join from a browser
                  web view: \(http)/view#TOKEN (any invitation of the session) shows it live
                Create a session (it prints one invitation per role):
                  interlude session create --server \(http) --key-file \(keyFile) --stream URL
                Session events follow, one JSON line each; Ctrl-C stops.

                """
        }
    }

    static func prepare(_ arguments: ParsedArguments, io: CommandIO) throws -> Prepared {
        let port = try arguments.value("port").map { value -> Int in
            guard let port = Int(value), (0...65_535).contains(port) else {
                throw UsageError(message: "--port must be a TCP port from 0 to 65535, not '\(value)'", command: spec)
            }
            return port
        } ?? 7400
        let host = arguments.value("host") ?? "127.0.0.1"
        var core = GroupServiceCore.Configuration()
        if let value = arguments.value("keep-alive") {
            guard let seconds = Double(value), seconds >= 0.1, seconds <= 3600 else {
                throw UsageError(message: "--keep-alive must be a number of seconds from 0.1 to 3600, not '\(value)'", command: spec)
            }
            core.keepAliveInterval = .milliseconds(Int64(seconds * 1000))
        }
        if let value = arguments.value("max-participants") {
            guard let count = Int(value), (1...10_000).contains(count) else {
                throw UsageError(message: "--max-participants must be from 1 to 10000, not '\(value)'", command: spec)
            }
            core.maximumParticipants = count
        }
        var http = HTTPServer.Configuration(host: host, port: port)
        let certificate = arguments.value("tls-cert")
        let key = arguments.value("tls-key")
        switch (certificate, key) {
        case (nil, nil): break
        case (let certificate?, let key?): http.tls = HTTPServer.TLS(certificatePath: certificate, privateKeyPath: key)
        default: throw UsageError(message: "--tls-cert and --tls-key go together", command: spec)
        }
        let keyFile = arguments.value("key-file") ?? "interlude-keys"
        let (keyRing, created) = try SessionCommand.keyRing(at: keyFile, creating: true)
        var databasePath = arguments.value("db") ?? "interlude-sessions.sqlite"
        let storeURL = arguments.value("store")
        if storeURL != nil, arguments.value("db") != nil {
            throw UsageError(message: "--db and --store both say where sessions are kept: give one", command: spec)
        }
        if let node = arguments.value("node") {
            guard storeURL?.hasPrefix("redis://") == true else { throw UsageError(message: "--node names a server among those sharing a Redis store: give --store redis://HOST:PORT", command: spec) }
            guard (1...64).contains(node.utf8.count), node.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) else {
                throw UsageError(message: "--node must be 1 to 64 letters, digits, '-', '_' or '.', not '\(node)'", command: spec)
            }
            core.node = node
        }
        let store: any SessionStore
        if let storeURL, storeURL.hasPrefix("redis://") {
            databasePath = storeURL
            let redis: RedisSessionStore
            do {
                redis = try RedisSessionStore(url: storeURL)
            } catch {
                throw CommandFailure(message: "--store \(storeURL): \(error)")
            }
            if let persistence = redis.persistence, !persistence.appendOnly {
                io.writeError("serve: warning: \(storeURL) runs with appendonly no: a Redis restart loses every session (set appendonly yes, and appendfsync always to match SQLite's durability)\n")
            }
            store = redis
        } else {
            if let storeURL {
                guard storeURL.hasPrefix("sqlite:"), storeURL.count > "sqlite:".count else {
                    throw UsageError(message: "--store must be sqlite:FILE or redis://HOST:PORT, not '\(storeURL)'", command: spec)
                }
                databasePath = String(storeURL.dropFirst("sqlite:".count))
            }
            do {
                store = try SQLiteSessionStore(path: databasePath)
            } catch {
                throw CommandFailure(message: "\(databasePath): \(error)")
            }
        }
        var browserConfiguration = BrowserParticipantService.Configuration()
        browserConfiguration.allowedOrigins = Set(arguments.values("allow-origin"))
        browserConfiguration.log = { line in io.write(line + "\n") }
        // A page silent for one and a half keep-alives is dropped; the server counts its
        // participant lost at once, well within its two keep-alives.
        browserConfiguration.bridge.silenceLimit = core.keepAliveInterval * 3 / 2
        if http.tls != nil {
            // The loopback connection is to this server itself, whose certificate may name another host.
            browserConfiguration.tls = WebSocketClient.TLS(trustedCertificatesPath: certificate, allowsSelfSignedCertificates: true)
        }
        let browsers = BrowserParticipantService(configuration: browserConfiguration)
        var configuration = GroupServer.Configuration(
            http: http, keyRing: keyRing, store: store, core: core, allowedOrigins: Set(arguments.values("allow-origin")),
            echoPath: arguments.value("websocket-echo"), log: { line in io.write(line + "\n") })
        configuration.moreRoutes = { router in browsers.install(in: &router) }
        let server: GroupServer
        do {
            server = try GroupServer(configuration: configuration)
        } catch {
            throw CommandFailure(message: "\(databasePath): cannot restore the sessions: \(error)")
        }
        return Prepared(
            server: server, host: host, isTLS: http.tls != nil, databasePath: databasePath, keyFile: keyFile,
            createdKeyFile: created, restoredSessions: server.restoredSessionCount, node: server.configuration.core.node, browsers: browsers)
    }
}
