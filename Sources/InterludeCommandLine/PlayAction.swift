import MediaTime
import PlayerInterface

/// One scripted step of `interlude play --action TIME:VERB[:ARG]`: what to do to the player at a
/// host time (seconds since playback started, on the player's clock).
struct PlayAction: Sendable, Hashable, CustomStringConvertible {
    /// What to do.
    enum Verb: Sendable, Hashable {
        /// Seek on the primary timeline (`seek:SECONDS`).
        case seek(MediaTime)
        /// Seek on the integrated timeline (`seek-integrated:SECONDS`): into a break restarts it.
        case seekIntegrated(MediaTime)
        /// Seek into a break at an offset (`seek-break:ID@SECONDS`), loaded or not (S2.5).
        case seekBreak(eventID: String, offset: MediaTime)
        /// Pause.
        case pause
        /// Play at the default rate.
        case play
        /// Play at a rate (`rate:R`; 0 pauses).
        case rate(Double)
        /// Skip the current break, if it is skippable then.
        case skip
    }

    /// When, in host time since the start.
    var hostTime: Duration
    /// What.
    var verb: Verb
    /// The text it was parsed from, for messages.
    var text: String

    /// Why an action's text cannot be read.
    struct SyntaxError: Error {
        var message: String
    }

    /// The verbs and their argument, for messages and help.
    static let grammar = "seek:SECONDS, seek-integrated:SECONDS, seek-break:ID@SECONDS, pause, play, rate:R or skip"

    /// Parses `TIME:VERB[:ARG]` (`30s:seek:120`, `45:pause`, `1m:rate:2`).
    init(parsing text: String) throws(SyntaxError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2 else {
            throw SyntaxError(message: "--action must be TIME:VERB[:ARG] (for example 30s:seek:120), not '\(text)'")
        }
        guard let time = PlayTime.parse(parts[0]) else {
            throw SyntaxError(message: "--action '\(text)': '\(parts[0])' is not a time such as 30, 30s or 1m30s")
        }
        let verb = parts[1]
        let argument = parts.count > 2 ? parts[2...].joined(separator: ":") : nil
        func position() throws(SyntaxError) -> MediaTime {
            guard let argument else { throw SyntaxError(message: "--action '\(text)': \(verb) needs a position, as in \(parts[0]):\(verb):120") }
            guard let seconds = PlayTime.parse(argument) else {
                throw SyntaxError(message: "--action '\(text)': '\(argument)' is not a position such as 120 or 2m")
            }
            return seconds
        }
        func noArgument() throws(SyntaxError) {
            if let argument { throw SyntaxError(message: "--action '\(text)': \(verb) takes no argument, not '\(argument)'") }
        }
        switch verb {
        case "seek": self.verb = .seek(try position())
        case "seek-integrated": self.verb = .seekIntegrated(try position())
        case "seek-break":
            guard let argument, let at = argument.lastIndex(of: "@"), at != argument.startIndex else {
                throw SyntaxError(message: "--action '\(text)': seek-break needs a break and an offset, as in \(parts[0]):seek-break:mid-1@5")
            }
            let offsetText = String(argument[argument.index(after: at)...])
            guard let offset = PlayTime.parse(offsetText) else {
                throw SyntaxError(message: "--action '\(text)': '\(offsetText)' is not an offset into the break such as 5 or 2.5s")
            }
            self.verb = .seekBreak(eventID: String(argument[..<at]), offset: offset)
        case "pause":
            try noArgument()
            self.verb = .pause
        case "play":
            try noArgument()
            self.verb = .play
        case "skip":
            try noArgument()
            self.verb = .skip
        case "rate":
            guard let argument, let rate = Double(argument), rate.isFinite, rate >= 0, rate <= 64 else {
                throw SyntaxError(message: "--action '\(text)': rate needs a number from 0 to 64, as in \(parts[0]):rate:2")
            }
            self.verb = .rate(rate)
        default:
            throw SyntaxError(message: "--action '\(text)': unknown verb '\(verb)'; use \(Self.grammar)")
        }
        self.hostTime = PlayTime.duration(time)
        self.text = text
    }

    /// What the action does, in words (`seek to 2:00.000 (primary)`).
    var description: String {
        switch verb {
        case .seek(let time): return "seek to \(TimeFormat.elapsed(time, fractionDigits: 3)) (primary)"
        case .seekIntegrated(let time): return "seek to \(TimeFormat.elapsed(time, fractionDigits: 3)) (integrated)"
        case .seekBreak(let id, let offset): return "seek into break \"\(id)\" at \(TimeFormat.elapsed(offset, fractionDigits: 3))"
        case .pause: return "pause"
        case .play: return "play"
        case .rate(let rate): return "rate \(rate)"
        case .skip: return "skip the current break"
        }
    }
}
