import GroupCoordination
import GroupWire

/// The web view's live feeds (`GET /view`, WebSocket `/view/feed`): pages that watch a session
/// without taking part in it. A feed is not a participant: it sends nothing to the session and
/// nobody sees it. It names its session with any of the session's invitations (its first message,
/// `{"type":"watch","token":…}`), then receives the session as it stands (its participants and
/// snapshot), every event after that in version order, the participants' reports (where each one
/// is, whom the group waits for), and the server's clock once a second.
///
/// Kept beside the core, not in it: the driver calls it after each turn is committed and read
/// what the core holds then, so a feed sees only what is durable, in the order everyone sees.
struct ViewFeeds: Sendable {
    /// What the driver must do for the feeds.
    enum Output: Sendable, Hashable {
        case send(ServiceConnectionID, String)
        case close(ServiceConnectionID, code: UInt16, reason: String)
    }

    /// Limits on what comes from outside.
    struct Limits: Sendable, Hashable {
        /// Feeds open at once on this process.
        var feeds = 256
        /// Feeds watching one session.
        var feedsPerSession = 16
        /// How long a feed may stay open before it names its session.
        var watchTimeout: Duration = .seconds(10)
        /// Messages a feed may send after `watch` (keep-alives), per second on average.
        var messagesPerSecond = 2.0
        /// How often the server's clock is sent.
        var clockPeriod: Duration = .seconds(1)
    }

    struct Feed: Sendable, Hashable {
        var openedAt: Duration
        var session: String?
        /// Its session's group clock zero (server wall clock).
        var epoch: Duration = .zero
        /// The last version sent.
        var version: UInt64 = 0
        var lastClock: Duration = .zero
        var tokens = 4.0
        var tokensAt: Duration
    }

    private(set) var feeds: [ServiceConnectionID: Feed] = [:]
    var limits = Limits()

    /// The sessions some feed watches.
    var sessions: Set<String> { Set(feeds.values.compactMap(\.session)) }

    /// Whether any feed is open.
    var isEmpty: Bool { feeds.isEmpty }

    /// A page opened a feed: it is refused when too many are open.
    mutating func opened(_ connection: ServiceConnectionID, at now: Duration) -> [Output] {
        guard feeds.count < limits.feeds else {
            return [.close(connection, code: 1013, reason: "too many views are open on this server; try again later")]
        }
        feeds[connection] = Feed(openedAt: now, tokensAt: now)
        return []
    }

    /// The feed closed.
    mutating func closed(_ connection: ServiceConnectionID) {
        feeds[connection] = nil
    }

    /// What a feed sent. Its first message must be `watch` with an invitation that `verify`
    /// accepts (it throws the reason otherwise); after that only `ping`, within the rate.
    mutating func received(
        _ text: String, on connection: ServiceConnectionID, at now: Duration,
        verify: (String) throws -> InvitationClaims, session lookup: (String) -> GroupServiceCore.Session?
    ) -> [Output] {
        guard var feed = feeds[connection] else { return [] }
        let message: WireFields
        let type: String
        do {
            let value: WireValue
            do { value = try WireJSONParser(limits: .standard).parse(Array(text.utf8)) } catch {
                throw WireDecodingError(path: [], kind: .malformedJSON(error))
            }
            message = try WireFields(value)
            type = try message.string("type", maximumBytes: 32)
        } catch {
            return refuse(connection, code: .badMessage, "\(error)", close: 1007)
        }
        if feed.session != nil {
            feed.tokens = min(4, feed.tokens + Double((now - feed.tokensAt) / .milliseconds(1)) / 1000 * limits.messagesPerSecond)
            feed.tokensAt = now
            feed.tokens -= 1
            feeds[connection] = feed
            guard feed.tokens >= 0 else { return refuse(connection, code: .rateLimited, "a view sends at most a keep-alive a second", close: 1008) }
            guard type == "ping" else {
                return refuse(connection, code: .badMessage, "a view only watches: after watch it may send ping, not \(type)", close: 1008)
            }
            return []
        }
        guard type == "watch" else {
            return refuse(connection, code: .badMessage, "the first message of a view is {\"type\":\"watch\",\"token\":INVITATION}, not \(type)", close: 1008)
        }
        let claims: InvitationClaims
        do {
            claims = try verify(try message.string("token", maximumBytes: 4_096))
        } catch let error as WireDecodingError {
            return refuse(connection, code: .badMessage, "\(error)", close: 1007)
        } catch {
            return refuse(connection, code: .unauthorized, "invitation refused: \(error)", close: 1008)
        }
        guard let session = lookup(claims.sessionID) else {
            return refuse(connection, code: .unauthorized, "no session \(claims.sessionID) on this server", close: 1008)
        }
        guard !session.isEnded else { return refuse(connection, code: .sessionEnded, "the session was ended", close: 4004) }
        guard feeds.values.count(where: { $0.session == session.id }) < limits.feedsPerSession else {
            return refuse(connection, code: .sessionFull, "this session already has \(limits.feedsPerSession) views open", close: 1008)
        }
        feed.session = session.id
        feed.epoch = session.epoch
        feed.version = session.version
        feed.lastClock = now
        feeds[connection] = feed
        return [.send(connection, Self.welcome(session, at: now))]
    }

    /// A participant's report, for the feeds of its session, with the group clock's time when it
    /// arrived.
    func report(_ report: ParticipantReport, from participant: String, in session: String, at now: Duration) -> [Output] {
        let feeds = self.feeds.filter { $0.value.session == session }.sorted { $0.key < $1.key }
        guard let epoch = feeds.first?.value.epoch else { return [] }
        let text = WireValue.object([
            "type": .string("report"), "participant": .string(participant), "groupTime": (now - epoch).wire, "report": report.wire,
        ]).jsonText
        return feeds.map { .send($0.key, text) }
    }

    /// What each feed has not been sent yet: the events after its version (a fresh view when the
    /// log no longer reaches back so far), the end of the session, the clock when due; and the
    /// feeds that never said which session they watch, closed when their time is up.
    mutating func catchUp(core: GroupServiceCore, at now: Duration) -> [Output] {
        var outputs: [Output] = []
        for connection in feeds.keys.sorted() {
            guard var feed = feeds[connection] else { continue }
            guard let id = feed.session else {
                if now - feed.openedAt >= limits.watchTimeout {
                    outputs += refuse(connection, code: .badMessage, "no watch message within \(limits.watchTimeout)", close: 1008)
                }
                continue
            }
            guard let session = core.sessions[id] else { continue }
            if session.version > feed.version {
                if let events = session.events(after: feed.version) {
                    outputs += events.map { .send(connection, ServiceWire.encode(.event($0))) }
                } else {
                    outputs.append(.send(connection, Self.welcome(session, at: now)))
                }
                feed.version = session.version
            }
            if session.isEnded {
                feeds[connection] = nil
                outputs.append(.close(connection, code: 4004, reason: "the session was ended"))
                continue
            }
            if now - feed.lastClock >= limits.clockPeriod {
                feed.lastClock = now
                outputs.append(.send(connection, WireValue.object(["type": .string("clock"), "groupTime": (now - feed.epoch).wire]).jsonText))
            }
            feeds[connection] = feed
        }
        return outputs
    }

    /// The session as it stands: every participant it has had (present or not), the snapshot and
    /// its group clock now (nanoseconds since the session began, as every time a participant
    /// sees: the wall clock's nanoseconds would not fit a script's numbers exactly).
    static func welcome(_ session: GroupServiceCore.Session, at now: Duration) -> String {
        let participants = session.participants.values.sorted { $0.id < $1.id }.map { participant -> WireValue in
            .object([
                "participant": .string(participant.id), "name": .string(participant.name), "role": .string(participant.role.rawValue),
                "state": .string(participant.state.rawValue),
            ])
        }
        return WireValue.object([
            "type": .string("view"), "session": .string(session.id), "stream": .string(session.stream), "groupTime": (now - session.epoch).wire,
            "version": .integer(Int64(clamping: session.version)), "participants": .array(participants),
            "snapshot": .array(session.snapshot.map(\.wire)),
        ]).jsonText
    }

    private mutating func refuse(_ connection: ServiceConnectionID, code: SessionError.Code, _ message: String, close: UInt16) -> [Output] {
        feeds[connection] = nil
        let error = SessionServerMessage.error(SessionError(code: code, message: String(message.prefix(1_000))))
        return [.send(connection, ServiceWire.encode(error)), .close(connection, code: close, reason: String(message.prefix(120)))]
    }
}
