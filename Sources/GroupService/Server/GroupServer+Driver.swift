import Foundation
import GroupCoordination
import GroupWire
import NetworkIO

extension GroupServer {
    /// The one owner of the core and the store: inputs in arrival order, taken a turn at a time
    /// (whatever arrived during the previous turn), one commit per turn before any of its outputs
    /// is performed.
    actor Driver {
        var core: GroupServiceCore
        let configuration: Configuration
        /// The open WebSockets, written to directly (without waiting on any one of them).
        private var sockets: [ServiceConnectionID: WebSocketConnection] = [:]
        private var metrics = ServiceMetrics()
        private var revocations: [(tokenID: String, expiresAt: Int64)] = []
        /// The store, when other processes share it.
        let shared: (any SharedSessionStore)?
        /// The sessions whose doorbells the store was last asked for.
        private var watched: Set<String> = []
        /// When this process last said it is alive, and checked the others.
        private var lastBeat: Duration?
        /// Whether a turn may have changed which sessions have members here (a hello, a close, a
        /// change taken in): only then is the set worked out again.
        var membershipMayHaveChanged = true
        /// Sessions whose catch-up failed: tried again at every tick until it succeeds.
        private var behind: Set<String> = []
        /// Whether the last catch-up found the store unreachable (logged once until it recovers).
        private var isStoreUnreachable = false
        /// The web view's feeds, and their sockets.
        var views = ViewFeeds()
        var viewSockets: [ServiceConnectionID: WebSocketConnection] = [:]
        /// Where the inputs come from (once running): a turn that met another process's commit
        /// takes in the store's notices that arrived meanwhile before it tries again.
        private var mailbox: DriverMailbox?

        init(core: GroupServiceCore, configuration: Configuration) {
            self.core = core
            self.configuration = configuration
            shared = configuration.store as? any SharedSessionStore
        }

        /// Says this process is alive (before it serves anyone), and goes on saying it on a
        /// thread of the store's own, whatever this driver's backlog.
        func beat() {
            guard let shared, let node = configuration.core.node else { return }
            do {
                try shared.beat(node: node, lifetime: Self.heartbeatLifetime)
                shared.keepBeating(node: node, period: Self.heartbeatPeriod, lifetime: Self.heartbeatLifetime)
            } catch {
                configuration.log(ServiceLogEntry(at: GroupServer.wallClock(), session: "", event: "store.failed", fields: ["error": "\(error)", "during": "heartbeat"]).jsonLine)
            }
        }

        /// How long a heartbeat lasts: a process silent this long is taken as stopped.
        static let heartbeatLifetime: Duration = .seconds(5)
        /// How often a process says it is alive and checks the others.
        static let heartbeatPeriod: Duration = .seconds(1)

        /// When the core's keep-alive check next has something to do (server wall clock).
        func nextDeadline() -> Duration? { core.nextDeadline() }

        func run(_ inputs: DriverMailbox) async {
            mailbox = inputs
            for await _ in inputs.wakeups {
                while true {
                    let turn = inputs.take()
                    if turn.isEmpty { break }
                    // The feeds only read what the core holds once the turn is committed.
                    let sessionInputs = turn.filter { !$0.isView }
                    if !sessionInputs.isEmpty { handle(sessionInputs) }
                    serveViews(turn)
                }
            }
        }

        /// One turn: every input fed to the core in order, one commit of all they wrote, then the
        /// outputs. When the commit fails, the whole turn is undone: the core is as before it
        /// (except that the connections opened and closed in it stay so), each command of the turn
        /// is answered `internal` so that its sender retries with the same id, and each HTTP
        /// request gets a 500. With a shared store, a commit that meets another process's commit
        /// to the same session (the store's version check) is not a failure: the turn is undone,
        /// the sessions catch up from the store (one round trip), and the turn runs again. A turn
        /// that meets another process's commit twice is split in two halves, each run as a turn of
        /// its own (in order: what a turn holds is inputs in arrival order, and inputs of different
        /// sessions do not depend on one another), so that a busy session elsewhere does not hold
        /// up the commands of all the others; a single input is tried up to sixteen times.
        private func handle(_ turn: [DriverInput]) {
            var caughtUp: [GroupServiceCore.Output] = []
            let rounds = turn.count > 1 ? 2 : 16
            for round in 0..<rounds {
                guard let sessions = attempt(turn, mayRetry: shared != nil && (round < rounds - 1 || turn.count > 1), before: caughtUp) else {
                    if let shared { watchMembers(shared) }
                    return
                }
                metrics.conflicts += 1
                let now = GroupServer.wallClock()
                for case .store(let notice) in mailbox?.takeNotices() ?? [] { caughtUp += take(notice, at: now) }
                caughtUp += catchUp(sessions, at: now)
            }
            perform(caughtUp)
            let middle = turn.count / 2
            handle(Array(turn[..<middle]))
            handle(Array(turn[middle...]))
        }

        /// One try of a turn; the sessions to catch up when the commit met another process's.
        private func attempt(_ turn: [DriverInput], mayRetry: Bool, before caughtUp: [GroupServiceCore.Output]) -> Set<String>? {
            // Messages are read first, so that a turn of nothing but keep-alives, probes and other
            // inputs that write nothing notes nothing to undo.
            let messages = turn.map { input -> Result<SessionClientMessage, WireDecodingError>? in
                guard case .text(_, let text) = input else { return nil }
                return Result { () throws(WireDecodingError) in try ServiceWire.decodeClient(text) }
            }
            let mayWrite = zip(turn, messages).contains { input, message in Self.mayWrite(input, message) }
            if mayWrite { core.beginTurn() }
            defer { if mayWrite { core.commitTurn() } }
            var now = GroupServer.wallClock()
            var outputs: [GroupServiceCore.Output] = []
            var commandIDs: [(ServiceConnectionID, String)] = []
            var replies: [(CheckedContinuation<HTTPResponse, Never>, HTTPResponse)] = []
            var metricReplies: [(CheckedContinuation<HTTPResponse, Never>, HTTPResponse)] = []
            // Connections the server closed earlier in this turn: what they sent after it is not read.
            var closing = Set<ServiceConnectionID>()
            var scanned = 0
            for (input, message) in zip(turn, messages) {
                now = GroupServer.wallClock()
                if shared != nil, !membershipMayHaveChanged, Self.mayChangeMembership(input, message) { membershipMayHaveChanged = true }
                for case .close(let connection, _, _) in outputs[scanned...] { closing.insert(connection) }
                scanned = outputs.count
                switch input {
                case .opened(let connection, let socket):
                    sockets[connection] = socket
                    core.opened(connection, at: now)
                case .closed(let connection):
                    sockets.removeValue(forKey: connection)
                    outputs += core.closed(connection, at: now)
                case .binary(let connection):
                    guard sockets[connection] != nil, !closing.contains(connection) else { continue }
                    metrics.received("binary")
                    outputs += core.reject(connection, code: .badMessage, "binary frames are not part of the protocol: send JSON text", closeCode: 1003, at: now)
                case .text(let connection, _):
                    // What a connection sends after the server closed it is not read: the close was
                    // the last word (one refusal, not one per message still in flight).
                    guard sockets[connection] != nil, !closing.contains(connection), let message else { continue }
                    let (received, commandID) = receive(message, on: connection, at: now)
                    outputs += received
                    if let commandID { commandIDs.append(commandID) }
                case .tooBig(let connection, let reason):
                    metrics.received("invalid")
                    outputs += core.reject(connection, code: .tooBig, reason, closeCode: 1009, at: now)
                case .tick:
                    outputs += core.tick(at: now)
                    outputs += heartbeat(at: now)
                    if !behind.isEmpty { outputs += catchUp(behind.intersection(core.sessions.keys), at: now) }
                case .createSession(let request, let continuation):
                    replies.append((continuation, createSession(request, at: now, outputs: &outputs)))
                case .revoke(let request, let continuation):
                    replies.append((continuation, revoke(request, at: now)))
                case .metrics(let reply):
                    metricReplies.append((reply, HTTPResponse(headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8"], body: metrics.render(core: core, now: now))))
                case .store(let notice):
                    outputs += take(notice, at: now)
                case .viewOpened, .viewText, .viewClosed:
                    // Taken after the turn (``serveViews(_:)``).
                    break
                }
            }
            let writes = core.takeWrites()
            if !writes.isEmpty || !revocations.isEmpty {
                let started = ContinuousClock.now
                do {
                    var batch = ServiceWire.batch(writes, revocations: revocations, origin: configuration.core.node, at: now)
                    if shared != nil {
                        let sequenced = Set(writes.events.map(\.session))
                        for (id, _) in writes.participants where !sequenced.contains(id) {
                            if let version = core.sessions[id]?.version { batch.expectedVersions[id] = version }
                        }
                    }
                    try configuration.store.commit(batch)
                    metrics.committed(after: ContinuousClock.now - started, events: writes.events.count)
                } catch {
                    // `mayWrite` holds for every input that writes, so a turn that wrote noted what to undo.
                    guard mayWrite else { preconditionFailure("a turn wrote to the store from inputs that never write: \(turn)") }
                    core.rollBackTurn()
                    if mayRetry, error.isConflict {
                        _ = core.takeWrites()
                        revocations = []
                        // The store names the session it found changed (it checks them in turn and
                        // stops at the first): only that one is caught up, one round trip, not
                        // every session the turn wrote (with hundreds in a turn under load, that
                        // took longer than the turn). Another one changed too is found by the
                        // next try.
                        let written = Set(writes.newSessions.map(\.id) + writes.events.map(\.session) + writes.participants.map(\.session) + writes.endedSessions)
                        if let session = error.conflictingSession, written.contains(session) { return [session] }
                        return written
                    }
                    metrics.storeFailures += 1
                    configuration.log(ServiceLogEntry(at: now, session: "", event: "store.failed", fields: ["error": "\(error)"]).jsonLine)
                    outputs = []
                    for (input, message) in zip(turn, messages) {
                        switch input {
                        case .opened(let connection, _): core.opened(connection, at: now)
                        case .closed(let connection): outputs += core.closed(connection, at: now)
                        // What the other processes committed stays taken in.
                        case .store(let notice): outputs += take(notice, at: now)
                        case .text(let connection, _):
                            // A hello of this turn was not admitted: it is told so, and the
                            // connection closed, so that the participant connects again.
                            if case .success(.hello)? = message, !closing.contains(connection) {
                                outputs.append(.send(connection, .error(SessionError(code: .internal, message: "the store failed; nothing was applied; say hello again"))))
                                outputs.append(.close(connection, code: 1011, reason: "the store failed"))
                            }
                        default: break
                        }
                    }
                    for (connection, id) in commandIDs {
                        outputs.append(.send(connection, .error(SessionError(code: .internal, message: "the store failed; nothing was applied; retry with the same id", id: id))))
                    }
                    _ = core.takeWrites()
                    for index in replies.indices { replies[index].1 = .error(.internalServerError, message: "the store failed: \(error)") }
                }
            }
            revocations = []
            for (continuation, response) in replies + metricReplies { continuation.resume(returning: response) }
            perform(caughtUp + outputs)
            return nil
        }

        private func perform(_ outputs: [GroupServiceCore.Output]) {
            // An event fanned out to a session comes as one send per member, one after another:
            // it is encoded once.
            var encoded: (message: SessionServerMessage, text: String)?
            for output in outputs {
                switch output {
                case .send(let connection, let message):
                    guard let socket = sockets[connection] else { continue }
                    metrics.sent(message)
                    let text: String
                    if let encoded, encoded.message == message {
                        text = encoded.text
                    } else {
                        text = ServiceWire.encode(message)
                        encoded = (message, text)
                    }
                    switch socket.trySend(.text(text)) {
                    case .queued:
                        break
                    case .full:
                        // A participant that does not read what it is sent (its send queue is
                        // full) is closed, not waited for: it resumes and gets what it missed.
                        membershipMayHaveChanged = true
                        metrics.slowConsumers += 1
                        sockets.removeValue(forKey: connection)
                        socket.closeSoon(code: .policyViolation, reason: "too slow: the send queue is full")
                    case .closed:
                        sockets.removeValue(forKey: connection)
                    }
                case .close(let connection, let code, let reason):
                    membershipMayHaveChanged = true
                    sockets.removeValue(forKey: connection)?.closeSoon(code: WebSocketCloseCode(rawValue: code), reason: reason)
                case .log(let entry):
                    configuration.log(entry.jsonLine)
                case .participantReport(let session, let participant, let report):
                    metrics.report(skew: report.skew, roundTrip: report.roundTrip)
                    if !views.isEmpty { perform(views.report(report, from: participant, in: session, at: GroupServer.wallClock())) }
                }
            }
        }

        /// Decodes one text message and feeds it to the core.
        /// Whether `input` (with its message, when it is text) may make the core write to the
        /// store: everything but connections opening, metrics, binary or unreadable frames, and
        /// the messages that only read (keep-alives, clock probes, resyncs).
        private static func mayWrite(_ input: DriverInput, _ message: Result<SessionClientMessage, WireDecodingError>?) -> Bool {
            switch input {
            case .opened, .binary, .tooBig, .metrics, .store, .viewOpened, .viewText, .viewClosed: return false
            case .closed, .tick, .createSession, .revoke: return true
            case .text:
                switch message {
                case .success(.ping)?, .success(.clockProbe)?, .success(.resync)?, .failure?: return false
                default: return true
                }
            }
        }

        /// Whether `input` may make a connection a member of a session or end one's membership
        /// (keep-alives, probes, commands and resyncs do not, unless the core closes the
        /// connection, which ``perform(_:)`` notes).
        private static func mayChangeMembership(_ input: DriverInput, _ message: Result<SessionClientMessage, WireDecodingError>?) -> Bool {
            switch input {
            case .closed, .createSession: return true
            case .text:
                switch message {
                case .success(.hello)?, .success(.leave)?: return true
                default: return false
                }
            case .opened, .binary, .tooBig, .tick, .revoke, .metrics, .store, .viewOpened, .viewText, .viewClosed: return false
            }
        }

        /// Feeds one read (or unreadable) message to the core.
        private func receive(_ decoded: Result<SessionClientMessage, WireDecodingError>, on connection: ServiceConnectionID, at now: Duration) -> ([GroupServiceCore.Output], (ServiceConnectionID, String)?) {
            let message: SessionClientMessage
            do {
                message = try decoded.get()
            } catch {
                metrics.received("invalid")
                let code = SessionError.Code(refusing: error)
                if code == .protocolVersion {
                    return (core.reject(connection, code: code, "\(error)", closeCode: 1002, at: now), nil)
                }
                return (core.malformed(connection, code: code, "\(error)", at: now), nil)
            }
            metrics.received(message.type)
            switch message {
            case .hello(let hello):
                let claims: InvitationClaims
                do {
                    claims = try configuration.keyRing.verify(hello.token, now: Int64(now / .seconds(1)))
                    if try configuration.store.isRevoked(tokenID: claims.tokenID) { throw InvitationTokenError.revoked }
                } catch {
                    return (core.reject(connection, code: .unauthorized, "invitation refused: \(error)", closeCode: 1008, at: now), nil)
                }
                load(claims.sessionID, at: now)
                let secret = InvitationClaims.randomSecret()
                let checked = ServiceHello(
                    session: claims.sessionID, role: claims.role, name: String(hello.name.prefix(64)),
                    resume: hello.resume.map { .init(participant: $0.participant.rawValue, secretHash: ServiceSecrets.hash($0.secret), version: $0.version) },
                    newSecret: secret, newSecretHash: ServiceSecrets.hash(secret))
                return (core.hello(connection, checked, at: now), nil)
            case .command(let id, let coordination):
                return (core.command(connection, id: id, coordination, at: now), (connection, id))
            case .custom(let id, let messageType, let body):
                return (core.custom(connection, id: id, messageType: messageType, body: body, at: now), (connection, id))
            case .clockProbe(let probe):
                metrics.clockProbes += 1
                return (core.clockProbe(connection, probe, at: now), nil)
            case .resync(let version):
                return (core.resync(connection, from: version, at: now), nil)
            case .ping:
                return (core.ping(connection, at: now), nil)
            case .leave:
                return (core.leave(connection, at: now), nil)
            }
        }

        // MARK: - Sharing the store with other processes

        /// Loads a session that another process may have created or changed, when this core
        /// does not hold it (a shared store only).
        func load(_ session: String, at now: Duration) {
            guard let shared, core.sessions[session] == nil else { return }
            membershipMayHaveChanged = true
            do {
                guard let stored = try shared.session(session, logLength: configuration.core.logLength) else { return }
                _ = ServiceWire.restore(stored, into: &core, at: now)
            } catch {
                configuration.log(ServiceLogEntry(at: now, session: session, event: "store.failed", fields: ["error": "\(error)", "during": "load"]).jsonLine)
            }
        }

        /// Brings sessions up to the store's version (after a commit that met another process's, a
        /// gap in the doorbells, a new subscription or a reconnection): the log's events after the
        /// core's version, or the whole session when the log no longer reaches back that far.
        /// A session whose catch-up failed (the store unreachable) is tried again at the next
        /// tick, and the others of the same call with it; the failure is logged once, and the
        /// recovery.
        private func catchUp(_ sessions: Set<String>, at now: Duration) -> [GroupServiceCore.Output] {
            guard let shared else { return [] }
            var outputs: [GroupServiceCore.Output] = []
            let ordered = sessions.sorted()
            for (index, id) in ordered.enumerated() {
                do {
                    guard let held = core.sessions[id] else {
                        if let stored = try shared.session(id, logLength: configuration.core.logLength) { _ = ServiceWire.restore(stored, into: &core, at: now) }
                        continue
                    }
                    guard let caught = try shared.catchUp(session: id, after: held.version, limit: configuration.core.logLength) else { continue }
                    guard caught.reachesBack else {
                        if let stored = try shared.session(id, logLength: configuration.core.logLength) {
                            outputs += ServiceWire.restore(stored, into: &core, at: now, replacing: true)
                        }
                        continue
                    }
                    let change = SessionChange(
                        session: id, after: held.version, events: caught.events, participants: caught.participants,
                        created: nil, endedAt: caught.record.endedAt)
                    outputs += core.takeIn(ServiceWire.change(change), at: now).outputs
                    behind.remove(id)
                    if isStoreUnreachable {
                        isStoreUnreachable = false
                        configuration.log(ServiceLogEntry(at: now, session: "", event: "store.recovered", fields: ["behind": "\(behind.count)"]).jsonLine)
                    }
                } catch {
                    behind.formUnion(ordered[index...])
                    if !isStoreUnreachable {
                        isStoreUnreachable = true
                        configuration.log(ServiceLogEntry(at: now, session: id, event: "store.failed", fields: ["error": "\(error)", "during": "catch-up"]).jsonLine)
                    }
                    break
                }
            }
            return outputs
        }

        /// What the shared store said.
        private func take(_ notice: SharedStoreNotice, at now: Duration) -> [GroupServiceCore.Output] {
            switch notice {
            case .changed(let change):
                // This process's own commits are in the core already.
                guard change.origin != configuration.core.node, let held = core.sessions[change.session] else { return [] }
                guard change.version > held.version || (change.events.isEmpty && change.after == held.version) else { return [] }
                metrics.remoteChanges += 1
                let (outputs, isWhole) = core.takeIn(ServiceWire.change(change), at: now)
                return isWhole ? outputs : outputs + catchUp([change.session], at: now)
            case .watching(let session):
                return catchUp([session], at: now)
            case .reconnected:
                configuration.log(ServiceLogEntry(at: now, session: "", event: "store.reconnected", fields: ["sessions": "\(core.sessions.count)"]).jsonLine)
                return catchUp(Set(core.sessions.keys), at: now)
            case .unreadable(let description):
                configuration.log(ServiceLogEntry(at: now, session: "", event: "store.unreadable", fields: ["error": description]).jsonLine)
                return []
            }
        }

        /// Every heartbeat period: marks the participants of the processes whose heartbeat ran
        /// out as lost (this process's own heartbeat is the store's thread's).
        private func heartbeat(at now: Duration) -> [GroupServiceCore.Output] {
            guard let shared, configuration.core.node != nil else { return [] }
            if let lastBeat, now - lastBeat < Self.heartbeatPeriod { return [] }
            lastBeat = now
            do {
                let others = core.otherNodes
                guard !others.isEmpty else { return [] }
                let stopped = others.subtracting(try shared.liveNodes(among: others))
                guard !stopped.isEmpty else { return [] }
                configuration.log(ServiceLogEntry(at: now, session: "", event: "server.stopped", fields: ["nodes": stopped.sorted().joined(separator: ",")]).jsonLine)
                return core.nodesStopped(stopped, at: now)
            } catch {
                configuration.log(ServiceLogEntry(at: now, session: "", event: "store.failed", fields: ["error": "\(error)", "during": "heartbeat"]).jsonLine)
                return []
            }
        }

        /// Subscribes to the doorbells of the sessions this process has members in, and forgets
        /// the others.
        func watchMembers(_ shared: any SharedSessionStore) {
            guard membershipMayHaveChanged else { return }
            membershipMayHaveChanged = false
            let members = core.sessionsWithMembersHere.union(views.sessions)
            if members != watched {
                shared.watch(members)
                watched = members
            }
            if core.sessions.count > members.count {
                for id in core.sessions.keys where !members.contains(id) { core.forget(id) }
                behind.formIntersection(core.sessions.keys)
            }
        }

        /// The owner's invitation in `Authorization: Bearer`, verified.
        private func owner(_ request: HTTPRequest, at now: Duration) -> OwnerCheck {
            guard let authorization = request.headers["Authorization"], authorization.hasPrefix("Bearer ") else {
                return .failure(HTTPResponse.error(.unauthorized, message: "an owner's invitation is needed in Authorization: Bearer"))
            }
            do {
                let claims = try configuration.keyRing.verify(String(authorization.dropFirst(7)), now: Int64(now / .seconds(1)))
                guard claims.role == .owner else { return .failure(HTTPResponse.error(.forbidden, message: "only an owner's invitation may do this")) }
                return .success(claims)
            } catch {
                return .failure(HTTPResponse.error(.unauthorized, message: "invitation refused: \(error)"))
            }
        }

        enum OwnerCheck {
            case success(InvitationClaims)
            case failure(HTTPResponse)
        }

        /// `POST /sessions/:session/revocations` with the session owner's invitation and
        /// `{"token": INVITATION}`: that invitation admits nobody from now on.
        private func revoke(_ request: HTTPRequest, at now: Duration) -> HTTPResponse {
            let claims: InvitationClaims
            switch owner(request, at: now) {
            case .success(let owner): claims = owner
            case .failure(let response): return response
            }
            guard claims.sessionID == request.pathParameters["session"] else {
                return .error(.forbidden, message: "the invitation is for another session")
            }
            guard let token = ServiceWire.stringField("token", inJSON: request.body) else {
                return .error(.badRequest, message: #"the body must be {"token": INVITATION}"#)
            }
            let revoked: InvitationClaims
            do {
                revoked = try configuration.keyRing.verify(token, now: Int64(now / .seconds(1)), expectedSession: claims.sessionID)
            } catch {
                return .error(.badRequest, message: "not a valid invitation of this session: \(error)")
            }
            revocations.append((revoked.tokenID, revoked.expiresAt))
            configuration.log(ServiceLogEntry(at: now, session: claims.sessionID, event: "invitation.revoked", fields: ["token": revoked.tokenID, "role": revoked.role.rawValue]).jsonLine)
            return .json(#"{"revoked":"\#(revoked.tokenID)"}"#)
        }

        /// `POST /sessions` with an owner's invitation for the new session in `Authorization:
        /// Bearer`, and `{"stream": URL}`.
        private func createSession(_ request: HTTPRequest, at now: Duration, outputs: inout [GroupServiceCore.Output]) -> HTTPResponse {
            let claims: InvitationClaims
            switch owner(request, at: now) {
            case .success(let owner): claims = owner
            case .failure(let response): return response
            }
            guard let stream = claims.stream, !stream.isEmpty else {
                return .error(.badRequest, message: "the invitation names no stream")
            }
            load(claims.sessionID, at: now)
            outputs += core.createSession(id: claims.sessionID, stream: stream, at: now)
            return .json(#"{"session":"\#(claims.sessionID)","stream":\#(ServiceWire.quoted(stream))}"#, status: .created)
        }
    }
}
