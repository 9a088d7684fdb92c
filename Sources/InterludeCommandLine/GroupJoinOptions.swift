import Foundation
import GroupCoordination
import GroupPlayback
import NetworkIO
import PlayerEngine

/// How to take part in a watch-together session, as `interlude join` and `interlude watch --join`
/// both take it: the invitation, `--name`, `--server`, `--policy`, `--ca` and `--insecure`,
/// checked, and the participant's configuration made from them.
struct GroupJoinOptions: Sendable {
    /// The waiting policy (`--policy`).
    enum Policy: String, Sendable, Hashable {
        /// Ad watchers catch up (the coordinator's default: only a seek makes the group wait).
        case `default`
        /// The group waits for ads and stalls too (Apple's waiting policy).
        case waiting
    }

    /// The options, for a command's spec.
    static let options: [CommandSpec.Option] = [
        .init(long: "name", short: "n", valueName: "name", help: "The name the others see, and the {viewer} of the stream (default: the user name)."),
        .init(long: "policy", short: nil, valueName: "policy", help: "default (ad watchers catch up) or waiting (the group waits for ads: Apple's waiting policy)."),
        .init(long: "server", short: nil, valueName: "url", help: "The server's WebSocket URL, for a bare token (ws://HOST:PORT/group)."),
        .init(long: "ca", short: nil, valueName: "file", help: "Trust this PEM certificate for wss:// (a server's own)."),
        .init(long: "insecure", short: nil, valueName: nil, help: "Accept a self-signed certificate for wss:// (tests only)."),
    ]

    /// The longest name, in bytes of UTF-8 (the server's bound).
    static let maximumNameBytes = 64

    /// The invitation's token.
    var token: String
    /// The server's WebSocket URL.
    var server: String
    /// The other servers the invitation lists (`?server=URL`), as WebSocket URLs.
    var alternateServers: [String] = []
    /// The name the others see, and the stream's `{viewer}`.
    var name: String
    var policy: Policy
    /// A PEM certificate to trust for `wss://`.
    var certificateAuthorityPath: String?
    var allowsSelfSignedCertificates: Bool

    /// The options of `arguments` for `invitation` (a URL, or a bare token with `--server`).
    ///
    /// - Throws: ``UsageError`` of `command` for an invitation that names no server, a name out
    ///   of bounds, an unknown policy.
    init(invitation: String, _ arguments: ParsedArguments, command: CommandSpec) throws {
        token = SessionCommand.invitationToken(invitation)
        server = try arguments.value("server") ?? Self.serverURL(fromInvitation: invitation, command: command)
        alternateServers = try Self.alternateServers(inInvitation: invitation, command: command)
        name = arguments.value("name") ?? ProcessInfo.processInfo.environment["USER"] ?? "viewer"
        guard (1...Self.maximumNameBytes).contains(name.utf8.count), name.allSatisfy({ !$0.isNewline }) else {
            throw UsageError(message: "--name must be 1 to \(Self.maximumNameBytes) bytes on one line", command: command)
        }
        let policyText = arguments.value("policy") ?? Policy.default.rawValue
        guard let policy = Policy(rawValue: policyText) else {
            throw UsageError(message: "--policy must be default or waiting, not '\(policyText)'", command: command)
        }
        self.policy = policy
        certificateAuthorityPath = arguments.value("ca")
        allowsSelfSignedCertificates = arguments.flag("insecure")
    }

    /// The stream this participant plays: the session's, its `{viewer}` this participant's name
    /// (so that `interlude origin` serves this viewer's ads).
    func streamURL(_ welcome: SessionWelcome) -> String {
        welcome.stream.replacingOccurrences(of: "{viewer}", with: name)
    }

    /// The participant's configuration: the welcome's stream as this participant's item, the
    /// policy, TLS for `wss://`.
    func makeConfiguration() -> GroupSessionParticipant.Configuration {
        var configuration = GroupSessionParticipant.Configuration(server: server, token: token, name: name) { [self] welcome in
            // Everyone plays the same item under its own URL (its own ads): the session's stream
            // names it for the coordinator (Apple's identifierFor).
            PlayerItem(url: streamURL(welcome), contentIdentifier: welcome.stream)
        }
        configuration.alternateServers = alternateServers
        if policy == .waiting {
            configuration.suspensionReasonsThatTriggerWaiting = [.userIsChangingCurrentTime, .playingInterstitial, .stallRecovery]
        }
        if server.hasPrefix("wss://") {
            configuration.tls = WebSocketClient.TLS(trustedCertificatesPath: certificateAuthorityPath, allowsSelfSignedCertificates: allowsSelfSignedCertificates)
        }
        return configuration
    }

    /// The `server` query items of an invitation (`http://A/join?server=http://B#TOKEN`), as
    /// WebSocket URLs: the other servers of the same sessions (at most 16).
    static func alternateServers(inInvitation invitation: String, command: CommandSpec) throws -> [String] {
        guard let hash = invitation.firstIndex(of: "#"), let components = URLComponents(string: String(invitation[..<hash])) else { return [] }
        let servers = (components.queryItems ?? []).filter { $0.name == "server" }.compactMap(\.value)
        guard servers.count <= 16 else {
            throw UsageError(message: "the invitation lists \(servers.count) servers; at most 16 are taken", command: command)
        }
        return try servers.map { try serverURL(fromInvitation: $0 + "/join#", command: command) }
    }

    /// `ws://HOST:PORT/group` from `http://HOST:PORT/join#TOKEN` (`wss` from `https`).
    static func serverURL(fromInvitation invitation: String, command: CommandSpec) throws -> String {
        guard let hash = invitation.firstIndex(of: "#"), let url = URL(string: String(invitation[..<hash])),
            let scheme = url.scheme, scheme == "http" || scheme == "https", let host = url.host
        else {
            throw UsageError(message: "the invitation must be an http://HOST:PORT/join#TOKEN URL, or give --server with a bare token", command: command)
        }
        let authority = host.contains(":") ? "[\(host)]" : host
        return "\(scheme == "https" ? "wss" : "ws")://\(authority)\(url.port.map { ":\($0)" } ?? "")/group"
    }
}
