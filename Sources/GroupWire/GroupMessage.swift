/// A message participants exchange through a ``GroupMessenger``: a ``WireCodable`` value with a
/// stable type name, such as ``ClockProbe`` or the coordinator's envelopes.
///
///     struct Chat: GroupMessage {
///         static let messageType = "example.chat"
///         var text: String
///         init(text: String) { self.text = text }
///         init(wire: WireValue) throws(WireDecodingError) { text = try WireFields(wire).string("text") }
///         var wire: WireValue { .object(["text": .string(text)]) }
///     }
public protocol GroupMessage: WireCodable {
    /// The name that identifies the type on the wire, the same in every participant's build
    /// (for example `"clock.probe"`). Names with a dot-separated prefix avoid clashes.
    static var messageType: String { get }
}
