import GroupCoordination
import Foundation
import GroupService

/// `interlude session`: creates sessions on a group server and signs their invitations.
enum SessionCommand: Subcommand {
    static let spec = CommandSpec(
        name: "session",
        abstract: "Create a watch-together session on a group server and print its invitations.",
        discussion: """
            `session create` makes a new session on the server (`interlude serve`) for a stream, and prints
            one invitation per role: an owner and a controller may play, pause and seek for the group; a
            viewer watches and its own play, pause and seek are refused. Hand each person the invitation
            for their role; they run `interlude join INVITATION`. An invitation is a URL whose fragment is
            a token signed with the server's key file (HMAC-SHA256, with an expiry, a key id and a unique
            id): it needs no account, and it stops working when it expires or is revoked.
            `session revoke INVITATION` refuses that invitation from now on (those already in stay).
            The stream may contain {viewer}, which each participant replaces by its name, so that each
            gets its own ads from `interlude origin` (/vod/movie/{viewer}/main.m3u8).
            Several servers sharing a Redis store (serve --store redis://…): give each with --server; the
            session is created on the first, and the invitation lists the others (?server=URL), so that a
            participant whose server stops goes on through the next one.
            """,
        arguments: [
            .init(name: "action", help: "create or revoke."),
            .init(name: "invitation", help: "The invitation to revoke (revoke only).", isOptional: true),
        ],
        options: [
            .init(long: "stream", short: nil, valueName: "url", help: "The stream the session plays (create; may contain {viewer})."),
            .init(long: "server", short: nil, valueName: "url", help: "The group server (default http://127.0.0.1:7400); repeat it for servers that share a Redis store.", isRepeatable: true),
            .init(long: "key-file", short: nil, valueName: "file", help: "The server's key file (default interlude-keys in the working directory)."),
            .init(long: "expires", short: nil, valueName: "duration", help: "How long the invitations admit newcomers: 90s, 30m, 12h, 7d (default 24h)."),
            .init(long: "ca", short: nil, valueName: "file", help: "Trust this PEM certificate for an https:// server (its own)."),
            .init(long: "json", short: nil, valueName: nil, help: "Print the session and its invitations as JSON."),
        ],
        examples: [
            "interlude session create --stream 'http://127.0.0.1:8080/vod/movie/{viewer}/main.m3u8'",
            "interlude session create --server http://10.0.0.5:7400 --key-file keys --stream http://cdn.example/live.m3u8 --expires 2h",
            "interlude session create --server http://127.0.0.1:7401 --server http://127.0.0.1:7402 --stream URL",
            "interlude session revoke 'http://127.0.0.1:7400/join#il1.…'",
        ]
    )

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let servers = (arguments.values("server").isEmpty ? ["http://127.0.0.1:7400"] : arguments.values("server")).map { $0.trimmingSuffix("/") }
        for server in servers {
            guard server.hasPrefix("http://") || server.hasPrefix("https://"), URL(string: server)?.host != nil, !server.contains("?"), !server.contains("#") else {
                throw UsageError(message: "--server must be an http:// or https:// URL of a server, not '\(server)'", command: spec)
            }
        }
        let server = servers[0]
        // The invitation: the first server's join URL, the others as `server` query items.
        let alternates = servers.dropFirst().map { "server=" + ($0.addingPercentEncoding(withAllowedCharacters: .urlQueryValueAllowed) ?? $0) }
        let joinURL = server + "/join" + (alternates.isEmpty ? "" : "?" + alternates.joined(separator: "&"))
        let keyFile = arguments.value("key-file") ?? "interlude-keys"
        let (keyRing, _) = try keyRing(at: keyFile, creating: false)
        let lifetime = try arguments.value("expires").map { try parseLifetime($0) } ?? 86_400
        let now = Int64(Date().timeIntervalSince1970)
        switch arguments.positionals[0] {
        case "create":
            guard let stream = arguments.value("stream"), !stream.isEmpty else {
                throw UsageError(message: "session create needs --stream URL", command: spec)
            }
            let session = InvitationClaims.randomSecret()
            func invitation(_ role: GroupRole) -> String {
                let claims = InvitationClaims(
                    sessionID: session, role: role, tokenID: InvitationClaims.randomSecret(), issuedAt: now, notBefore: now,
                    expiresAt: now + lifetime, stream: stream)
                return keyRing.sign(claims)
            }
            let owner = invitation(.owner)
            try post(server + "/sessions", bearer: owner, body: "{}", certificateAuthority: arguments.value("ca"))
            let invitations = [(GroupRole.owner, owner), (.controller, invitation(.controller)), (.viewer, invitation(.viewer))]
            if arguments.flag("json") {
                let items = invitations.map { #""\#($0.0.rawValue)":"\#(joinURL)#\#($0.1)""# }.joined(separator: ",")
                io.write(#"{"session":"\#(session)","stream":"\#(stream)","invitations":{\#(items)}}"# + "\n")
            } else {
                io.write("Session \(session) plays \(stream)\n")
                io.writeError("Invitations (valid for \(lifetime) s; each admits anyone who has it, with its role):\n")
                for (role, token) in invitations { io.write("\(role.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0)) \(joinURL)#\(token)\n") }
                io.writeError("Join with: interlude join INVITATION --name NAME\n")
            }
            return 0
        case "revoke":
            guard arguments.positionals.count == 2 else { throw UsageError(message: "session revoke needs the invitation", command: spec) }
            let token = invitationToken(arguments.positionals[1])
            let claims: InvitationClaims
            do { claims = try keyRing.verify(token, now: now) } catch { throw CommandFailure(message: "not an invitation of this key file: \(error)") }
            let owner = keyRing.sign(InvitationClaims(
                sessionID: claims.sessionID, role: .owner, tokenID: InvitationClaims.randomSecret(), issuedAt: now, notBefore: now,
                expiresAt: now + 300, stream: claims.stream))
            try post(server + "/sessions/\(claims.sessionID)/revocations", bearer: owner, body: #"{"token":"\#(token)"}"#, certificateAuthority: arguments.value("ca"))
            io.write("revoked: the \(claims.role.rawValue) invitation \(claims.tokenID) of session \(claims.sessionID)\n")
            return 0
        default:
            throw UsageError(message: "unknown action '\(arguments.positionals[0])': use create or revoke", command: spec)
        }
    }

    /// The token in an invitation URL (its fragment), or the text itself when it is a bare token.
    static func invitationToken(_ invitation: String) -> String {
        guard let hash = invitation.firstIndex(of: "#") else { return invitation }
        return String(invitation[invitation.index(after: hash)...])
    }

    /// The key ring in `path`; with `creating`, a new key file when there is none.
    static func keyRing(at path: String, creating: Bool) throws -> (TokenKeyRing, created: Bool) {
        if FileManager.default.fileExists(atPath: path) {
            do { return (try TokenKeyRing.load(contentsOf: path), false) } catch { throw CommandFailure(message: "\(path): \(error)") }
        }
        guard creating else {
            throw CommandFailure(message: "\(path): no key file (interlude serve creates one; pass the server's with --key-file)")
        }
        do { return (try TokenKeyRing.createKeyFile(at: path), true) } catch { throw CommandFailure(message: "\(path): cannot create the key file: \(error)") }
    }

    /// Seconds in `90s`, `30m`, `12h` or `7d` (a bare number is seconds).
    static func parseLifetime(_ text: String) throws -> Int64 {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
        var digits = Substring(text)
        var unit: Int64 = 1
        if let last = text.last, let multiplier = units[last] {
            unit = multiplier
            digits = text.dropLast()
        }
        guard let value = Int64(digits), value > 0, value <= 366 * 86_400 / unit else {
            throw UsageError(message: "--expires must be like 90s, 30m, 12h or 7d (at most a year), not '\(text)'", command: spec)
        }
        return value * unit
    }

    private static func post(_ url: String, bearer: String, body: String, certificateAuthority: String?) throws {
        let response = try HTTPPost.json(url, bearer: bearer, body: body, certificateAuthority: certificateAuthority)
        guard (200..<300).contains(response.status) else {
            throw CommandFailure(message: "the group server refused (\(response.status)): \(response.body.prefix(500))")
        }
    }
}

extension CharacterSet {
    /// What a query value may hold unescaped (no `&`, `=`, `#` or `+`).
    static let urlQueryValueAllowed = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=#+"))
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
