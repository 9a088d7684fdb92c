/// A configuration the origin cannot serve, located: a JSON path into the configuration file
/// (`$.streams[1].breaks[0].positionSeconds`) or a media file, and what to change.
public struct OriginConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is: a JSON path or a media path.
    public var path: String
    /// What is wrong and how to fix it.
    public var message: String

    /// A located error.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`.
    public var description: String { "\(path): \(message)" }
}
