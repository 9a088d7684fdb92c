import NetworkIO

extension GroupServer.DriverInput {
    /// Whether the input belongs to a web view's feed (which the core never sees).
    var isView: Bool {
        switch self {
        case .viewOpened, .viewText, .viewClosed: true
        default: false
        }
    }
}

extension GroupServer.Driver {
    /// After a turn: the feeds' own inputs, then what each feed has not been sent of the
    /// committed sessions.
    func serveViews(_ turn: [GroupServer.DriverInput]) {
        let now = GroupServer.wallClock()
        for input in turn {
            switch input {
            case .viewOpened(let connection, let socket):
                viewSockets[connection] = socket
                perform(views.opened(connection, at: now))
            case .viewText(let connection, let text):
                let sessions = views.sessions
                perform(views.received(text, on: connection, at: now, verify: { try self.verifyForView($0, at: now) }, session: { self.core.sessions[$0] }))
                if views.sessions != sessions { membershipMayHaveChanged = true }
            case .viewClosed(let connection):
                viewSockets[connection] = nil
                views.closed(connection)
                membershipMayHaveChanged = true
            default:
                break
            }
        }
        guard !views.isEmpty else { return }
        perform(views.catchUp(core: core, at: now))
        if let shared { watchMembers(shared) }
    }

    /// Any invitation of a session admits its view, once verified and not revoked; with a shared
    /// store the session is loaded when no participant here has loaded it.
    private func verifyForView(_ token: String, at now: Duration) throws -> InvitationClaims {
        let claims = try configuration.keyRing.verify(token, now: Int64(now / .seconds(1)))
        if try configuration.store.isRevoked(tokenID: claims.tokenID) { throw InvitationTokenError.revoked }
        load(claims.sessionID, at: now)
        return claims
    }

    func perform(_ outputs: [ViewFeeds.Output]) {
        for output in outputs {
            switch output {
            case .send(let connection, let text):
                guard let socket = viewSockets[connection] else { continue }
                switch socket.trySend(.text(text)) {
                case .queued: break
                case .full:
                    // A page that does not keep up is closed; it opens the view again.
                    viewSockets[connection] = nil
                    views.closed(connection)
                    socket.closeSoon(code: .policyViolation, reason: "too slow: the send queue is full")
                case .closed:
                    viewSockets[connection] = nil
                    views.closed(connection)
                }
            case .close(let connection, let code, let reason):
                views.closed(connection)
                viewSockets.removeValue(forKey: connection)?.closeSoon(code: WebSocketCloseCode(rawValue: code), reason: reason)
            }
        }
    }
}
