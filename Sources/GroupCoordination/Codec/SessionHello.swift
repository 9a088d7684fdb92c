import GroupWire

/// The first message a participant sends: who it is and which protocol it speaks.
///
///     {"type":"hello","protocol":1,"token":"…","name":"Alice"}
public struct SessionHello: Sendable, Hashable {
    /// A participant coming back within the resume window, with what it was given in ``SessionWelcome``.
    public struct Resume: Sendable, Hashable, WireCodable {
        /// The participant it was.
        public var participant: CoordinatedPlaybackParticipant.ID
        /// The secret its welcome carried.
        public var secret: String
        /// The last event version it applied.
        public var version: UInt64

        /// A resumption.
        public init(participant: CoordinatedPlaybackParticipant.ID, secret: String, version: UInt64) {
            self.participant = participant
            self.secret = secret
            self.version = version
        }

        public init(wire: WireValue) throws(WireDecodingError) {
            let fields = try WireFields(wire)
            self.init(participant: try fields.decode("participant"), secret: try fields.string("secret"), version: try fields.counter("version"))
        }

        public var wire: WireValue {
            .object(["participant": participant.wire, "secret": .string(secret), "version": .integer(Int64(clamping: version))])
        }
    }

    /// The longest token, in bytes.
    public static let maximumTokenBytes = 4_096

    /// The invitation token (`session create` prints it in the URLs).
    public var token: String
    /// The name others see.
    public var name: String
    /// Set when the participant resumes.
    public var resume: Resume?

    /// A hello.
    public init(token: String, name: String, resume: Resume? = nil) {
        self.token = token
        self.name = name
        self.resume = resume
    }

    init(fields: WireFields) throws(WireDecodingError) {
        try SessionProtocol.check(fields)
        self.init(
            token: try fields.string("token", maximumBytes: Self.maximumTokenBytes),
            name: try fields.string("name", maximumBytes: WireBounds.maximumIdentifierBytes),
            resume: try fields.decodeIfPresent("resume")
        )
    }

    var fields: WireValue {
        var object: WireObject = ["protocol": .integer(SessionProtocol.version), "token": .string(token), "name": .string(name)]
        if let resume { object["resume"] = resume.wire }
        return .object(object)
    }
}
