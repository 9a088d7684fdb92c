public import MediaTime

/// What a key asks of the player, as `interlude watch` has them (the window's keys).
public enum PlayerCommand: Sendable, Hashable {
    case playPause
    /// Seek this far on the integrated timeline (negative: back).
    case seek(by: MediaTime)
    /// Skip the break playing, when it may be skipped.
    case skip
    case toggleFullScreen
    case togglePictureInPicture
    case quit

    /// The X11 keysyms the window reads.
    public enum KeySymbol {
        public static let space: UInt = 0x20
        public static let left: UInt = 0xFF51
        public static let right: UInt = 0xFF53
        public static let escape: UInt = 0xFF1B
    }

    /// How far ← and → seek.
    public static let seekStep = MediaTime(seconds: 10)

    /// The command of an X11 keysym (the unshifted symbol of the key pressed): space, ← →, `s`,
    /// `f`, `i`, `q`; Esc leaves full screen the way `f` does. `nil` for any other key.
    public init?(keySymbol: UInt) {
        switch keySymbol {
        case KeySymbol.space: self = .playPause
        case KeySymbol.left: self = .seek(by: MediaTime.zero - Self.seekStep)
        case KeySymbol.right: self = .seek(by: Self.seekStep)
        case UInt(UInt8(ascii: "s")): self = .skip
        case UInt(UInt8(ascii: "f")): self = .toggleFullScreen
        case UInt(UInt8(ascii: "i")): self = .togglePictureInPicture
        case UInt(UInt8(ascii: "q")), UInt(UInt8(ascii: "Q")): self = .quit
        default: return nil
        }
    }
}
