import GroupWire
import MediaTime

/// What the page sends the bridge (docs/browser-participant.md), decoded with every bound
/// checked: a message that is not JSON is refused with the byte offset, one that is JSON but
/// not a message of this protocol with the path of the field at fault.
public enum BrowserPageMessage: Sendable, Hashable {
    /// The first message: the invitation's token and the viewer's name.
    case hello(Hello)
    /// A clock probe: `sent` is the page's own clock (milliseconds), echoed back.
    case probe(id: Int64, sent: Double)
    /// Where the page's video is and what it does, at its estimate of the server time.
    case report(Report)
    /// A button pressed on the page.
    case action(BrowserAction)

    /// The first message's contents.
    public struct Hello: Sendable, Hashable {
        /// The invitation token (the part of `/join#TOKEN` after `#`).
        public var token: String
        /// The name the others see, and the stream's `{viewer}`.
        public var name: String
        /// Whether the group waits for this participant's ads and stalls (`join --policy waiting`).
        public var waits: Bool

        /// A hello.
        public init(token: String, name: String, waits: Bool = false) {
            self.token = token
            self.name = name
            self.waits = waits
        }
    }

    /// A report of the page's video.
    public struct Report: Sendable, Hashable {
        /// What the video does.
        public enum State: String, Sendable, Hashable {
            /// Playing: frames are coming.
            case playing
            /// Should play but cannot: buffering, seeking, switching, or the browser refused to
            /// start it.
            case waiting
            /// Held still, as the anchor says.
            case paused
        }

        /// The page's estimate of the server time when it read the position.
        public var at: Duration
        /// What the video does.
        public var state: State
        /// Where it is.
        public var position: BrowserPosition

        /// A report.
        public init(at: Duration, state: State, position: BrowserPosition) {
            self.at = at
            self.state = state
            self.position = position
        }
    }

    /// The protocol version this bridge speaks.
    public static let protocolVersion: Int64 = 1
    /// The largest message the page may send, in bytes.
    public static let maximumBytes = 4_096
    /// The longest invitation token, in bytes.
    public static let maximumTokenBytes = 2_048
    /// The longest name, in bytes of UTF-8 (the server's bound, as `join --name`).
    public static let maximumNameBytes = 64
    /// The limits of the JSON parser for page messages.
    static let limits = WireJSONLimits(maximumBytes: maximumBytes, maximumDepth: 4, maximumStringBytes: maximumTokenBytes, maximumElements: 16)
    /// The largest server time accepted, in seconds since the Unix epoch (the year 2286).
    static let maximumServerSeconds: Double = 1e10
    /// The largest media time accepted, in seconds (about 115 days).
    static let maximumMediaSeconds: Double = 1e7

    /// Decodes one text message.
    ///
    /// - Throws: ``WireDecodingError`` located by byte offset (not JSON) or by path.
    public init(text: String) throws(WireDecodingError) {
        let value: WireValue
        do { value = try WireJSONParser(limits: Self.limits).parse(Array(text.utf8)) } catch {
            throw WireDecodingError(path: [], kind: .malformedJSON(error))
        }
        let fields = try WireFields(value)
        switch try fields.type() {
        case "hello":
            let version = try fields.integer("protocol", in: WireBounds.integers)
            guard version == Self.protocolVersion else {
                throw WireDecodingError(path: [.key("protocol")], kind: .unsupportedProtocolVersion(version))
            }
            let token = try fields.string("token", maximumBytes: Self.maximumTokenBytes)
            let name = try fields.string("name", maximumBytes: Self.maximumNameBytes)
            guard name.allSatisfy({ !$0.isNewline && !($0.asciiValue.map { $0 < 0x20 } ?? false) }) else {
                throw WireDecodingError(path: [.key("name")], kind: .outOfRange(bound: "one line of printable text"))
            }
            let policy = try fields.optionalString("policy") ?? "default"
            guard policy == "default" || policy == "waiting" else {
                throw WireDecodingError(path: [.key("policy")], kind: .unknownValue(policy))
            }
            self = .hello(Hello(token: token, name: name, waits: policy == "waiting"))
        case "probe":
            self = .probe(id: try fields.integer("id", in: WireBounds.counters), sent: try fields.double("sent", magnitude: 1e15))
        case "report":
            let at = try fields.double("at", magnitude: Self.maximumServerSeconds)
            guard at >= 0 else { throw WireDecodingError(path: [.key("at")], kind: .outOfRange(bound: "not negative")) }
            let stateName = try fields.string("state")
            guard let state = Report.State(rawValue: stateName) else {
                throw WireDecodingError(path: [.key("state")], kind: .unknownValue(stateName))
            }
            self = .report(Report(at: Duration(browserSeconds: at), state: state, position: try Self.position(fields)))
        case "action":
            let name = try fields.string("action")
            switch name {
            case "play": self = .action(.play)
            case "pause": self = .action(.pause)
            case "seek":
                let by = try fields.double("by", magnitude: 3_600)
                self = .action(.seek(by: try Self.mediaTime(by, at: "by")))
            default: throw WireDecodingError(path: [.key("action")], kind: .unknownValue(name))
            }
        case let other:
            throw WireDecodingError(path: [.key("type")], kind: .unknownType(other))
        }
    }

    /// `primary`, or `break`, `asset` and `offset`.
    static func position(_ fields: WireFields) throws(WireDecodingError) -> BrowserPosition {
        if fields.optionalValue("break") == nil {
            let primary = try fields.double("primary", magnitude: maximumMediaSeconds)
            return .primary(try mediaTime(primary, at: "primary", nonNegative: true))
        }
        let id = try fields.string("break")
        let index = try fields.integer("asset", in: 0...1_023)
        let offset = try fields.double("offset", magnitude: maximumMediaSeconds)
        return .asset(breakID: id, index: Int(index), offset: try mediaTime(offset, at: "offset", nonNegative: true))
    }

    static func mediaTime(_ seconds: Double, at key: String, nonNegative: Bool = false) throws(WireDecodingError) -> MediaTime {
        guard !nonNegative || seconds >= 0, let time = MediaTime(seconds: seconds, preferredTimescale: 1_000_000) else {
            throw WireDecodingError(path: [.key(key)], kind: .outOfRange(bound: nonNegative ? "a time from 0 seconds" : "a time in seconds"))
        }
        return time
    }
}

/// A button of the page: the participant's user acting, as `interlude join --action` does (an
/// owner's or a controller's is the group's; a viewer's is refused).
public enum BrowserAction: Sendable, Hashable, CustomStringConvertible {
    case play
    case pause
    /// Seek by this much on the primary timeline (the page's ±10 s).
    case seek(by: MediaTime)

    /// `play`, `pause`, `seek`.
    public var name: String {
        switch self {
        case .play: "play"
        case .pause: "pause"
        case .seek: "seek"
        }
    }

    /// `seek +10.0 s`.
    public var description: String {
        switch self {
        case .seek(let by): "seek \(by < .zero ? "" : "+")\(by.seconds) s"
        default: name
        }
    }
}
