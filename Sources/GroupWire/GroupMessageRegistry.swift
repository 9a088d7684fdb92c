internal import Foundation

/// The message types a participant understands, by wire name, and their encoding: an envelope of
/// the type name (a varint length and UTF-8) followed by the message as JSON with sorted keys.
///
///     var registry = GroupMessageRegistry.standard      // clock probes and replies
///     registry.register(Chat.self)
///     let bytes = try registry.encode(Chat(text: "hi"))
///     let message = try registry.decode(bytes)           // any GroupMessage; `as? Chat`
public struct GroupMessageRegistry: Sendable {
    private var decoders: [String: @Sendable (JSONDecoder, [UInt8]) throws -> any GroupMessage] = [:]
    private let encoder: JSONEncoder
    private let decoder = JSONDecoder()

    /// A registry that knows no types.
    public init() {
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
    }

    /// A registry that knows `types`.
    public init(_ types: [any GroupMessage.Type]) {
        self.init()
        for type in types { register(type) }
    }

    /// The types every participant needs: ``ClockProbe`` and ``ClockProbeReply``.
    public static let standard = GroupMessageRegistry([ClockProbe.self, ClockProbeReply.self])

    /// Teaches the registry `type`; a later registration under the same name replaces it.
    public mutating func register(_ type: any GroupMessage.Type) {
        decoders[type.messageType] = Self.decoder(for: type)
    }

    private static func decoder<Message: GroupMessage>(for type: Message.Type) -> @Sendable (JSONDecoder, [UInt8]) throws -> any GroupMessage {
        { decoder, body in try decoder.decode(Message.self, from: Data(body)) }
    }

    /// The wire names known, sorted.
    public var messageTypes: [String] { decoders.keys.sorted() }

    /// Whether a type named `messageType` is known.
    public func knows(_ messageType: String) -> Bool { decoders[messageType] != nil }

    /// The envelope for `message`. The type need not be registered to be sent.
    ///
    /// - Throws: ``GroupMessengerError/unencodableMessage(type:description:)``.
    public func encode(_ message: some GroupMessage) throws(GroupMessengerError) -> [UInt8] {
        let name = type(of: message).messageType
        let body: Data
        do { body = try encoder.encode(message) } catch {
            throw .unencodableMessage(type: name, description: "\(error)")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.utf8.count + body.count + 2)
        Varint.append(UInt64(name.utf8.count), to: &bytes)
        bytes.append(contentsOf: name.utf8)
        bytes.append(contentsOf: body)
        return bytes
    }

    /// The message in an envelope made by ``encode(_:)``.
    ///
    /// - Throws: ``GroupMessengerError`` when the envelope is malformed, the type unknown, or the
    ///   body does not decode as that type.
    public func decode(_ bytes: [UInt8]) throws(GroupMessengerError) -> any GroupMessage {
        var reader = Varint.Reader(bytes: bytes)
        guard let length = try? reader.varint(), length <= UInt64(bytes.count - reader.position) else {
            throw .malformedEnvelope
        }
        let nameEnd = reader.position + Int(length)
        let name = String(decoding: bytes[reader.position..<nameEnd], as: UTF8.self)
        guard let decode = decoders[name] else { throw .unknownMessageType(name) }
        do {
            return try decode(decoder, Array(bytes[nameEnd...]))
        } catch {
            throw .undecodableMessage(type: name, description: "\(error)")
        }
    }
}
