import GroupWire
import MediaTime
import NetworkIO

/// The logic of one browser's bridge, as a state machine: it takes what the page says, what the
/// participant stack says and what the bridge's player does, and returns what to do (send the
/// page a message, start or drop the participant, carry out a button, begin or end a stall).
/// No clock is read and nothing is called here; every input carries the local time (`now`, a
/// monotonic clock) and the server time.
///
/// The phases exclude each other: waiting for the page's `hello`, joining (the participant
/// connects to the group), joined (anchors flow), closed.
public struct BrowserBridgeStateMachine: Sendable {
    /// Limits and intervals.
    public struct Configuration: Sendable, Hashable {
        /// How long the page has to send its `hello` after the socket opens.
        public var helloTimeout: Duration = .seconds(10)
        /// A page silent this long is gone: its participant is dropped (the server counts it
        /// lost). The page reports four times a second; a background tab's timers still run
        /// once a second.
        public var silenceLimit: Duration = .seconds(3)
        /// Messages per second the page may send, on average.
        public var messagesPerSecond: Double = 20
        /// Messages the page may send at once.
        public var burst: Double = 40
        /// How far the player may move from the last anchor's extrapolation before a new anchor
        /// is sent.
        public var anchorTolerance = MediaTime(value: 20, timescale: 1000)
        /// The longest time between two anchors.
        public var anchorInterval: Duration = .seconds(1)
        /// How long the page must wait to play before the participant counts as stalled.
        public var stallThreshold: Duration = .milliseconds(750)

        /// The defaults.
        public init() {}
    }

    /// What the player and the participant look like now (the shell reads it at each tick).
    public struct PlayerView: Sendable, Hashable {
        /// Where the player is, at the server time of the tick.
        public var anchor: BrowserAnchor
        /// The breaks of its item.
        public var schedule: BrowserSchedule
        /// Whether the item is coordinated with the group (buttons are the group's from then on).
        public var isCoordinating: Bool
        /// The group's playback, in words for the page: `playing`, `paused`, `waiting`.
        public var groupStatus: String?
        /// Whom the group waits for, and why (`p2 (ad)`).
        public var waitingFor: [String]

        /// A view.
        public init(anchor: BrowserAnchor, schedule: BrowserSchedule, isCoordinating: Bool, groupStatus: String? = nil, waitingFor: [String] = []) {
            self.anchor = anchor
            self.schedule = schedule
            self.isCoordinating = isCoordinating
            self.groupStatus = groupStatus
            self.waitingFor = waitingFor
        }
    }

    /// What the server said of the participant.
    public struct Admission: Sendable, Hashable {
        public var participant: String
        public var role: String
        public var session: String
        /// The viewer's stream (`{viewer}` replaced by the name).
        public var streamURL: String

        public init(participant: String, role: String, session: String, streamURL: String) {
            self.participant = participant
            self.role = role
            self.session = session
            self.streamURL = streamURL
        }
    }

    /// An input.
    public enum Input: Sendable {
        /// A text message from the page.
        case text(String)
        /// A binary message from the page (not part of the protocol).
        case binary
        /// The server admitted the participant.
        case welcomed(Admission)
        /// The server refused a command of the participant's.
        case refused(code: String, message: String)
        /// The server refused the participant for good (a bad invitation, an ended session).
        case stopped(code: String, message: String)
        /// Someone joined, left, was lost or came back.
        case presence(name: String, role: String, state: String)
        /// Time passed; the player as it stands (`nil` before the participant exists).
        case tick(PlayerView?)
        /// The page's socket closed.
        case closed
    }

    /// An action for the shell.
    public enum Action: Sendable, Equatable {
        /// Send the page this message.
        case send(WireValue)
        /// Start the participant stack for this hello.
        case join(BrowserPageMessage.Hello)
        /// Carry out a button as the participant's user.
        case perform(BrowserAction)
        /// The page cannot play: begin the participant's stall (a `stallRecovery` suspension).
        case beginStall
        /// The page plays again.
        case endStall
        /// Stop the participant without a `leave`: the server counts it lost.
        case dropParticipant
        /// Close the page's socket.
        case close(WebSocketCloseCode, reason: String)
    }

    private struct Joined: Sendable {
        var admission: Admission?
        var lastAnchor: BrowserAnchor?
        var lastSchedule: BrowserSchedule?
        var lastGroup: WireValue?
        var waitingSince: Duration?
        var isStalled = false
        var lastReport: BrowserPageMessage.Report?
        var isCoordinating = false
    }

    private enum Phase: Sendable {
        case awaitingHello(deadline: Duration)
        case joined(Joined)
        case closed
    }

    public let configuration: Configuration
    private var phase: Phase
    private var tokens: Double
    private var tokensAt: Duration
    private var lastHeard: Duration

    /// A bridge whose page connected at `now`.
    public init(configuration: Configuration = Configuration(), openedAt now: Duration) {
        self.configuration = configuration
        phase = .awaitingHello(deadline: now + configuration.helloTimeout)
        tokens = configuration.burst
        tokensAt = now
        lastHeard = now
    }

    /// Whether the bridge is done (its socket closed or closing).
    public var isClosed: Bool {
        if case .closed = phase { return true }
        return false
    }

    /// The page's last report, once joined.
    public var lastReport: BrowserPageMessage.Report? {
        if case .joined(let joined) = phase { return joined.lastReport }
        return nil
    }

    /// How far the page's last report is from where the last anchor puts it at the report's
    /// time (positive: the page is ahead); `nil` across streams or before both exist.
    public var reportedSkew: MediaTime? {
        guard case .joined(let joined) = phase, let report = joined.lastReport, let anchor = joined.lastAnchor, let schedule = joined.lastSchedule
        else { return nil }
        return anchor.expectedPosition(at: report.at, in: schedule).distance(to: report.position)
    }

    /// Handles `input` at local time `now`, server time `serverTime`.
    public mutating func handle(_ input: Input, now: Duration, serverTime: Duration) -> [Action] {
        if case .closed = phase { return [] }
        switch input {
        case .text(let text):
            guard admit(now: now) else {
                return close(code: .policyViolation, errorCode: "rate", message: "more than \(Int(configuration.messagesPerSecond)) messages a second")
            }
            lastHeard = now
            return received(text, now: now, serverTime: serverTime)
        case .binary:
            guard admit(now: now) else {
                return close(code: .policyViolation, errorCode: "rate", message: "more than \(Int(configuration.messagesPerSecond)) messages a second")
            }
            lastHeard = now
            return refuse(code: "bad-message", message: "binary messages are not part of this protocol; send JSON text")
        case .welcomed(let admission):
            guard case .joined(var joined) = phase else { return [] }
            joined.admission = admission
            phase = .joined(joined)
            return [.send(.typed("welcome", .object([
                "protocol": .integer(BrowserPageMessage.protocolVersion), "participant": .string(admission.participant),
                "role": .string(admission.role), "session": .string(admission.session), "primary": .string(admission.streamURL),
                "server": .double(serverTime.browserSeconds),
            ])))]
        case .refused(let code, let message):
            return [.send(.typed("refused", .object(["code": .string(code), "message": .string(message)])))]
        case .stopped(let code, let message):
            phase = .closed
            return [.send(.typed("stopped", .object(["code": .string(code), "message": .string(message)]))), .dropParticipant,
                    .close(.policyViolation, reason: code)]
        case .presence(let name, let role, let state):
            return [.send(.typed("presence", .object(["name": .string(name), "role": .string(role), "state": .string(state)])))]
        case .tick(let view):
            return tick(view, now: now)
        case .closed:
            let wasJoined: Bool
            if case .joined = phase { wasJoined = true } else { wasJoined = false }
            phase = .closed
            return wasJoined ? [.dropParticipant] : []
        }
    }

    // MARK: Steps

    /// Takes a token from the bucket; `false` when the page sends faster than allowed.
    private mutating func admit(now: Duration) -> Bool {
        let elapsed = max(.zero, now - tokensAt).browserSeconds
        tokens = min(configuration.burst, tokens + elapsed * configuration.messagesPerSecond)
        tokensAt = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    private mutating func received(_ text: String, now: Duration, serverTime: Duration) -> [Action] {
        let message: BrowserPageMessage
        do throws(WireDecodingError) {
            message = try BrowserPageMessage(text: text)
        } catch {
            if case .awaitingHello = phase { return close(code: .policyViolation, errorCode: "bad-message", message: error.description) }
            return refuse(code: "bad-message", message: error.description)
        }
        switch (phase, message) {
        case (.awaitingHello, .hello(let hello)):
            phase = .joined(Joined())
            return [.join(hello)]
        case (.awaitingHello, _):
            return close(code: .policyViolation, errorCode: "bad-message", message: "$.type: the first message must be a hello")
        case (.joined, .hello):
            return refuse(code: "bad-message", message: "$.type: hello was already sent")
        case (_, .probe(let id, let sent)):
            return [.send(.typed("probeReply", .object(["id": .integer(id), "sent": .double(sent), "server": .double(serverTime.browserSeconds)])))]
        case (.joined(var joined), .report(let report)):
            joined.lastReport = report
            let shouldPlay = (joined.lastAnchor?.rate ?? 0) > 0
            var actions: [Action] = []
            if report.state == .waiting, shouldPlay {
                if joined.waitingSince == nil { joined.waitingSince = now }
            } else {
                joined.waitingSince = nil
                if joined.isStalled {
                    joined.isStalled = false
                    actions.append(.endStall)
                }
            }
            phase = .joined(joined)
            return actions
        case (.joined(let joined), .action(let action)):
            guard let admission = joined.admission, joined.isCoordinating else {
                return refused(action, code: "not-ready", message: "not in step with the group yet; try again in a moment")
            }
            guard admission.role != "viewer" else {
                return refused(action, code: "forbidden",
                               message: "a viewer cannot \(action.name) for the group; the owner or a controller can (your video stays with the group)")
            }
            return [.perform(action)]
        case (.closed, _), (.joined, _):
            return []
        }
    }

    private mutating func tick(_ view: PlayerView?, now: Duration) -> [Action] {
        switch phase {
        case .closed:
            return []
        case .awaitingHello(let deadline):
            guard now < deadline else { return close(code: .policyViolation, errorCode: "timeout", message: "no hello within \(configuration.helloTimeout)") }
            return []
        case .joined(var joined):
            guard now - lastHeard < configuration.silenceLimit else {
                phase = .closed
                return [.dropParticipant, .close(.goingAway, reason: "silent for \(configuration.silenceLimit)")]
            }
            guard let view, joined.admission != nil else { return [] }
            var actions: [Action] = []
            joined.isCoordinating = view.isCoordinating
            if view.schedule != joined.lastSchedule {
                joined.lastSchedule = view.schedule
                actions.append(.send(view.schedule.wire))
            }
            let fresh = view.anchor
            if let last = joined.lastAnchor, !last.isSuperseded(by: fresh, in: view.schedule, tolerance: configuration.anchorTolerance),
                fresh.at - last.at < configuration.anchorInterval {
                // The page can work it out from the last anchor.
            } else {
                joined.lastAnchor = fresh
                actions.append(.send(fresh.wire))
            }
            if fresh.rate == 0 { joined.waitingSince = nil }
            if let since = joined.waitingSince, !joined.isStalled, now - since >= configuration.stallThreshold {
                joined.isStalled = true
                actions.append(.beginStall)
            }
            if let status = view.groupStatus {
                let group = WireValue.typed("group", .object(["status": .string(status), "waitingFor": .array(view.waitingFor.map { .string($0) })]))
                if group != joined.lastGroup {
                    joined.lastGroup = group
                    actions.append(.send(group))
                }
            }
            phase = .joined(joined)
            return actions
        }
    }

    private func refused(_ action: BrowserAction, code: String, message: String) -> [Action] {
        [.send(.typed("refused", .object(["action": .string(action.name), "code": .string(code), "message": .string(message)])))]
    }

    private func refuse(code: String, message: String) -> [Action] {
        [.send(.typed("error", .object(["code": .string(code), "message": .string(message)])))]
    }

    private mutating func close(code: WebSocketCloseCode, errorCode: String, message: String) -> [Action] {
        let wasJoined: Bool
        if case .joined = phase { wasJoined = true } else { wasJoined = false }
        phase = .closed
        return refuse(code: errorCode, message: message) + (wasJoined ? [.dropParticipant] : []) + [.close(code, reason: errorCode)]
    }
}
