/// A message participants exchange through a ``GroupMessenger``: any `Codable` value with a stable
/// type name, such as ``ClockProbe`` or the coordinator's commands and ad schedules.
///
///     struct Chat: GroupMessage {
///         static let messageType = "example.chat"
///         var text: String
///     }
public protocol GroupMessage: Codable, Sendable {
    /// The name that identifies the type on the wire, the same in every participant's build
    /// (for example `"clock.probe"`). Names with a dot-separated prefix avoid clashes.
    static var messageType: String { get }
}
