import Foundation
import NetworkIO
import Synchronization

/// Shows the demo's live view (``DemoDisplay``) on standard error. On a terminal, the lines of
/// the group and its participants are redrawn in place, the moments scrolling above them; in a log
/// or a pipe, the moments as they come and the lines every ten seconds.
final class DemoTerminal: Sendable {
    let io: CommandIO
    let isTerminal: Bool
    /// How many lines are drawn under the cursor's line, and when the lines are next printed
    /// (not on a terminal).
    private let state = Mutex<(drawn: Int, nextLines: Int64)>((0, 0))
    static let linesInterval: Int64 = 10_000_000_000

    init(io: CommandIO, isTerminal: Bool) {
        self.io = io
        self.isTerminal = isTerminal
    }

    /// Shows what `view` has to show at `time`.
    func show(_ view: inout DemoDisplay, at time: Int64, participants: [DemoDisplay.Participant]) {
        let moments = view.moments(at: time, participants: participants)
        let lines = view.lines(at: time, participants: participants)
        var text = ""
        if isTerminal {
            let width = Self.columns()
            state.withLock { state in
                if state.drawn > 0 { text += "\u{1B}[\(state.drawn)A\r\u{1B}[J" }
                state.drawn = lines.count
            }
            for line in moments + lines { text += TerminalText.escaped(String(line.prefix(width - 1))) + "\n" }
        } else {
            for moment in moments { text += "   " + moment + "\n" }
            let isDue = state.withLock { state in
                guard time >= state.nextLines else { return false }
                state.nextLines = time + Self.linesInterval
                return true
            }
            if isDue { text += lines.map { "   " + $0 + "\n" }.joined() }
        }
        if !text.isEmpty { io.writeError(text) }
    }

    /// Ends a story's view: what is drawn stays, the next one starts below it.
    func finish() {
        state.withLock { $0 = (0, 0) }
    }

    /// The terminal's width (standard error's), or 100.
    static func columns() -> Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 20 else { return 100 }
        return Int(size.ws_col)
    }
}
