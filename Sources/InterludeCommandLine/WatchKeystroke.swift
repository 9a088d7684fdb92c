/// A key as `interlude watch` reads it from the terminal, before it means anything.
package enum WatchKeystroke: Sendable, Hashable {
    case character(Character)
    case left
    case right
    case enter
    case escape
    case backspace

    /// What a keystroke asks for.
    package enum Meaning: Sendable, Hashable {
        /// Something of the player's (``WatchControlStateMachine``).
        case control(WatchControlStateMachine.Key)
        /// Something of the channels' or the passcode prompt's (``WatchChannelsStateMachine``).
        case channels(WatchChannelsStateMachine.Input)
    }

    /// What the keystroke means: with the passcode prompt up, every printable character is typed
    /// into it (`q` and `n` too), Backspace erases, Enter checks and Esc cancels; otherwise space,
    /// ← →, `[` `]`, `s`, `i` and `q` are the player's, and `n`, `p` and `u` the channels'.
    package func meaning(isPrompting: Bool) -> Meaning? {
        if isPrompting {
            switch self {
            case .character(let character):
                return character.unicodeScalars.allSatisfy({ $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) })
                    ? .channels(.passcodeCharacter(character)) : nil
            case .backspace: return .channels(.passcodeBackspace)
            case .enter: return .channels(.passcodeEnter)
            case .escape: return .channels(.passcodeCancel)
            case .left, .right: return nil
            }
        }
        switch self {
        case .left: return .control(.seekBackward)
        case .right: return .control(.seekForward)
        case .enter, .escape, .backspace: return nil
        case .character(let character):
            switch character {
            case " ": return .control(.playPause)
            case "[": return .control(.slower)
            case "]": return .control(.faster)
            case "s": return .control(.skip)
            case "i": return .control(.toggleInfo)
            case "q", "Q": return .control(.quit)
            case "n": return .channels(.nextChannel)
            case "p": return .channels(.previousChannel)
            case "u": return .channels(.unlock)
            default: return nil
            }
        }
    }
}
