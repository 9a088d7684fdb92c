import Foundation
import GroupCoordination
import GroupWire
import MediaTime
import TestSupport
import Testing

/// One message of every kind that crosses the network, with the golden file that pins its bytes.
struct WireSample: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    /// Decodes bytes as the sample's type and says whether the result equals the sample.
    let decodesToSample: @Sendable ([UInt8]) throws(WireDecodingError) -> Bool
    /// Decodes bytes as the sample's type, for hostile input: the result is thrown away.
    let decode: @Sendable ([UInt8]) throws(WireDecodingError) -> Void

    init<Value: WireCodable & Equatable>(_ name: String, _ value: Value) {
        self.name = name
        bytes = value.jsonBytes
        decodesToSample = { (bytes) throws(WireDecodingError) in try Value(jsonBytes: bytes) == value }
        decode = { (bytes) throws(WireDecodingError) in _ = try Value(jsonBytes: bytes) }
    }

    var testDescription: String { name }

    static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("WireGoldens")

    var goldenURL: URL { Self.goldens.appendingPathComponent(name + ".json") }

    // MARK: The samples

    static let playbackState = CoordinatedPlaybackState(
        itemIdentifier: "movie",
        rate: 1.05,
        anchorTime: MediaTime(value: 9009, timescale: 1000),
        anchorGroupTime: .milliseconds(1_300),
        timestamp: CoordinationTimestamp(counter: 3, participant: "bob", issuedAt: .seconds(1)),
        playsImmediately: false
    )

    static let participantState = ParticipantStateUpdate(
        participant: "carol",
        sequence: 7,
        itemIdentifier: "movie",
        isReadyToPlay: false,
        suspensionReasons: [.playingInterstitial, "com.example.custom"],
        waitIntervals: [
            WaitInterval(cause: .suspension(.playingInterstitial), start: .seconds(61), holdTime: MediaTime(seconds: 60), expectedDuration: .seconds(30)),
            WaitInterval(cause: .notReady, start: .seconds(2), end: .milliseconds(2_500), waitLimit: .seconds(60)),
        ],
        contentDuration: MediaTime(seconds: 600),
        sharedBreakDurations: ["promo": MediaTime(seconds: 10), "legal": MediaTime(value: 15, timescale: 2)]
    )

    static let adSchedule = AdSchedule(
        participant: "bob",
        itemIdentifier: "movie",
        entries: [
            .init(coordinatedTime: MediaTime(seconds: 60), duration: MediaTime(seconds: 15), source: .interstitial(eventIdentifier: "ad1")),
            .init(coordinatedTime: .zero, duration: MediaTime(value: 12012, timescale: 1000), source: .stitched),
        ]
    )

    static let probe = ClockProbe(id: 42, clientSendTime: .nanoseconds(1_500_000_123))

    static let reply = ClockProbeReply(answering: probe, receivedAt: .nanoseconds(7_200_000_000_456), sentAt: .nanoseconds(7_200_000_050_000))

    static let welcome = SessionWelcome(
        session: "s-4f2a",
        participant: "p-bob",
        role: .controller,
        secret: "r3sum3",
        stream: "movie-stitched",
        keepAlive: .seconds(2),
        version: 12,
        snapshot: [
            SessionEvent(version: 11, sender: "p-alice", body: .message(.playbackState(playbackState))),
        ],
        participants: [
            SessionWelcome.Participant(participant: "p-alice", name: "Alice", role: .owner),
            SessionWelcome.Participant(participant: "p-bob", name: "Bob", role: .controller),
        ]
    )

    static let all: [WireSample] = [
        WireSample("coordination-playback-state", CoordinationEnvelope(sender: "bob", message: .playbackState(playbackState))),
        WireSample("coordination-participant-state", CoordinationEnvelope(sender: "carol", message: .participantState(participantState))),
        WireSample("coordination-ad-schedule", CoordinationEnvelope(sender: "bob", message: .adSchedule(adSchedule))),
        WireSample("coordination-hello", CoordinationEnvelope(sender: "dana", message: .hello("dana"))),
        WireSample("clock-probe", probe),
        WireSample("clock-probe-reply", reply),
        WireSample("session-hello", SessionClientMessage.hello(SessionHello(token: "eyJhbGciOi.J9.sig", name: "Bob"))),
        WireSample(
            "session-hello-resume",
            SessionClientMessage.hello(SessionHello(token: "eyJhbGciOi.J9.sig", name: "Bob", resume: .init(participant: "p-bob", secret: "r3sum3", version: 12)))
        ),
        WireSample("session-command", SessionClientMessage.command(id: "bob-17", message: .playbackState(playbackState))),
        WireSample(
            "session-custom",
            SessionClientMessage.custom(id: "bob-18", messageType: "example.chat", body: .object(["text": .string("popcorn? \u{1F37F}"), "mentions": .array([.string("p-alice")])]))
        ),
        WireSample("session-clock-probe", SessionClientMessage.clockProbe(probe)),
        WireSample("session-resync", SessionClientMessage.resync(from: 9)),
        WireSample("session-ping", SessionClientMessage.ping),
        WireSample("session-leave", SessionClientMessage.leave),
        WireSample("session-welcome", SessionServerMessage.welcome(welcome)),
        WireSample("session-event-message", SessionServerMessage.event(SessionEvent(version: 13, sender: "p-carol", body: .message(.participantState(participantState))))),
        WireSample(
            "session-event-custom",
            SessionServerMessage.event(SessionEvent(version: 14, sender: "p-bob", body: .custom(messageType: "example.chat", body: .object(["text": .string("popcorn?")]))))
        ),
        WireSample(
            "session-event-presence",
            SessionServerMessage.event(SessionEvent(version: 15, sender: "p-dana", body: .presence(.init(participant: "p-dana", name: "Dana", role: .viewer, state: .lost))))
        ),
        WireSample("session-ack", SessionServerMessage.ack(id: "bob-17", version: 16)),
        WireSample("session-error", SessionServerMessage.error(SessionError(code: .forbidden, message: "a viewer cannot seek", id: "dana-3"))),
        WireSample("session-clock-reply", SessionServerMessage.clockReply(reply)),
        WireSample("session-pong", SessionServerMessage.pong),
    ]
}

@Suite("Wire goldens") struct WireGoldenTests {
    @Test("every message encodes to its golden bytes and the golden decodes to the message", arguments: WireSample.all)
    func golden(_ sample: WireSample) throws {
        Golden.check(String(decoding: sample.bytes, as: UTF8.self) + "\n", against: sample.goldenURL)
        let golden = try #require(try? Data(contentsOf: sample.goldenURL), "missing golden \(sample.name)")
        let bytes = Array(golden.dropLast())
        #expect(try sample.decodesToSample(bytes))
    }

    @Test("every message kind has a golden, and every golden a message")
    func coverage() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: WireSample.goldens.path).filter { $0.hasSuffix(".json") }
        #expect(Set(files) == Set(WireSample.all.map { $0.name + ".json" }))
        let clientTypes = Set(WireSample.all.compactMap { try? SessionClientMessage(jsonBytes: $0.bytes).type })
        #expect(clientTypes == ["hello", "command", "custom", "clock.probe", "resync", "ping", "leave"])
        let serverTypes = Set(WireSample.all.compactMap { try? SessionServerMessage(jsonBytes: $0.bytes).type })
        #expect(serverTypes == ["welcome", "event", "ack", "error", "clock.reply", "pong"])
    }

    @Test("the protocol document shows every golden as it is")
    func documented() throws {
        let document = WireSample.goldens.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/group-protocol.md")
        let text = try String(contentsOf: document, encoding: .utf8)
        for sample in WireSample.all {
            #expect(text.contains("```json\n" + String(decoding: sample.bytes, as: UTF8.self) + "\n```"), "\(sample.name) is not in docs/group-protocol.md")
        }
    }

    @Test("a golden reformatted with whitespace and its keys reordered decodes to the same message", arguments: WireSample.all)
    func layoutDoesNotMatter(_ sample: WireSample) throws {
        let value = try WireJSONParser().parse(sample.bytes)
        let reordered = Self.reversingKeys(value)
        var text = reordered.jsonText
        text = text.replacingOccurrences(of: ",", with: " ,\n ").replacingOccurrences(of: ":", with: " : ")
        #expect(try sample.decodesToSample(Array(text.utf8)))
    }

    @Test("unknown fields are ignored, at the top and inside", arguments: WireSample.all)
    func unknownFieldsIgnored(_ sample: WireSample) throws {
        let value = try WireJSONParser().parse(sample.bytes)
        let extended = Self.addingField(value)
        #expect(try sample.decodesToSample(extended.jsonBytes))
    }

    static func reversingKeys(_ value: WireValue) -> WireValue {
        switch value {
        case .object(let object):
            var reversed = WireObject()
            for (key, field) in object.fields.reversed() { reversed[key] = reversingKeys(field) }
            return .object(reversed)
        case .array(let elements): return .array(elements.map(reversingKeys))
        default: return value
        }
    }

    static func addingField(_ value: WireValue) -> WireValue {
        switch value {
        case .object(let object):
            var extended = WireObject()
            // A custom body and the shared breaks are maps, not records: a key there is data.
            for (key, field) in object.fields { extended[key] = ["body", "sharedBreakDurations"].contains(key) ? field : addingField(field) }
            extended["x-later"] = .object(["nested": .array([.integer(1), .null])])
            return .object(extended)
        case .array(let elements): return .array(elements.map(addingField))
        default: return value
        }
    }
}
