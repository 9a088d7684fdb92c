/// Why a ``PlayerWindow`` could not be made.
public enum PlayerWindowError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `XOpenDisplay` failed: no X server at that name (is `DISPLAY` set, is Xvfb running?).
    case cannotOpenDisplay(String)

    public var description: String {
        switch self {
        case .cannotOpenDisplay(let name): "cannot open X display '\(name)'"
        }
    }
}
