import Glibc

/// Why the MPRIS service could not publish the player: the step that failed and the error sd-bus
/// gave (an `errno` value).
public struct MPRISError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The step that failed.
    public enum Operation: String, Sendable, Hashable {
        case connect = "connect to the session bus"
        case register = "register the MPRIS objects"
        case requestName = "take the bus name"
        case process = "process bus messages"
        case wait = "wait for the bus"
    }

    public var operation: Operation
    /// The `errno` value (positive).
    public var code: Int32

    public init(_ operation: Operation, code: Int32) {
        self.operation = operation
        self.code = abs(code)
    }

    /// `cannot connect to the session bus: No such file or directory`.
    public var description: String {
        "cannot \(operation.rawValue): \(String(cString: strerror(code)))"
    }
}
