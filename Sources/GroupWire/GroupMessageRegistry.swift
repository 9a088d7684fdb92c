/// The message types a participant understands, by wire name, and their encoding: an envelope of
/// the type name (a varint length and UTF-8) followed by the message's wire form as compact JSON
/// (``WireCodable``), parsed within ``WireJSONLimits/standard``.
///
///     var registry = GroupMessageRegistry.standard      // clock probes and replies
///     registry.register(Chat.self)
///     let bytes = registry.encode(Chat(text: "hi"))
///     let message = try registry.decode(bytes)           // any GroupMessage; `as? Chat`
public struct GroupMessageRegistry: Sendable {
    private var decoders: [String: @Sendable (WireValue) throws(WireDecodingError) -> any GroupMessage] = [:]
    private let parser = WireJSONParser()

    /// A registry that knows no types.
    public init() {}

    /// A registry that knows `types`.
    public init(_ types: [any GroupMessage.Type]) {
        for type in types { register(type) }
    }

    /// The types every participant needs: ``ClockProbe`` and ``ClockProbeReply``.
    public static let standard = GroupMessageRegistry([ClockProbe.self, ClockProbeReply.self])

    /// Teaches the registry `type`; a later registration under the same name replaces it.
    public mutating func register(_ type: any GroupMessage.Type) {
        decoders[type.messageType] = Self.decoder(for: type)
    }

    private static func decoder<Message: GroupMessage>(for type: Message.Type) -> @Sendable (WireValue) throws(WireDecodingError) -> any GroupMessage {
        { (value) throws(WireDecodingError) in try Message(wire: value) }
    }

    /// The wire names known, sorted.
    public var messageTypes: [String] { decoders.keys.sorted() }

    /// Whether a type named `messageType` is known.
    public func knows(_ messageType: String) -> Bool { decoders[messageType] != nil }

    /// The envelope for `message`. The type need not be registered to be sent.
    public func encode(_ message: some GroupMessage) -> [UInt8] {
        let name = type(of: message).messageType
        var bytes: [UInt8] = []
        Varint.append(UInt64(name.utf8.count), to: &bytes)
        bytes.append(contentsOf: name.utf8)
        message.wire.write(into: &bytes)
        return bytes
    }

    /// The message in an envelope made by ``encode(_:)``.
    ///
    /// - Throws: ``GroupMessengerError`` when the envelope is malformed, the type unknown, or the
    ///   body does not decode as that type (``GroupMessengerError/undecodableMessage(type:error:)``,
    ///   with the located error).
    public func decode(_ bytes: [UInt8]) throws(GroupMessengerError) -> any GroupMessage {
        var reader = Varint.Reader(bytes: bytes)
        guard let length = try? reader.varint(), length <= UInt64(bytes.count - reader.position) else {
            throw .malformedEnvelope
        }
        let nameEnd = reader.position + Int(length)
        let name = String(decoding: bytes[reader.position..<nameEnd], as: UTF8.self)
        guard let decode = decoders[name] else { throw .unknownMessageType(name) }
        do throws(WireDecodingError) {
            let value: WireValue
            do { value = try parser.parse(Array(bytes[nameEnd...])) } catch {
                throw WireDecodingError(path: [], kind: .malformedJSON(error))
            }
            return try decode(value)
        } catch {
            throw .undecodableMessage(type: name, error: error)
        }
    }
}
