import Foundation
import NetworkIO
import Synchronization

/// Where `interlude play` shows progress: on a terminal a transport bar redrawn in place with
/// log lines scrolling above it; elsewhere one line per notable event, readable in logs; or
/// nothing (`--quiet`, or a trace on standard output).
///
/// Log lines may arrive from any thread (the player's event handler); on a terminal they wait
/// for the next redraw, so that only the thread drawing writes to the terminal.
final class PlayDisplay: Sendable {
    /// How progress is shown.
    enum Mode: Sendable {
        /// A transport bar on a terminal.
        case bar
        /// One line per notable event on standard output.
        case lines
        /// Nothing.
        case silent
    }

    let mode: Mode
    private let io: CommandIO
    private let state = Mutex<State>(State())

    private struct State {
        var pending: [String] = []
        var drawnLines = 0
    }

    /// A display writing to `io`.
    init(mode: Mode, io: CommandIO) {
        self.mode = mode
        self.io = io
    }

    /// Whether a transport bar is drawn.
    var showsBar: Bool {
        if case .bar = mode { return true }
        return false
    }

    /// Shows one log line (without its newline), its control characters escaped: it holds URIs
    /// and messages from the stream.
    func log(_ line: String) {
        let line = TerminalText.escaped(line)
        switch mode {
        case .lines: io.write(line + "\n")
        case .bar: state.withLock { $0.pending.append(line) }
        case .silent: break
        }
    }

    /// On a terminal: writes the log lines that arrived since the last call above the bar, then
    /// redraws the bar as `lines` in place of the previous one.
    func draw(_ lines: [String]) {
        guard case .bar = mode else { return }
        state.withLock { state in
            var text = Self.erase(state.drawnLines)
            for line in state.pending { text += line + "\n" }
            state.pending = []
            text += lines.map { TerminalText.escaped($0) }.joined(separator: "\n")
            state.drawnLines = lines.count
            io.write(text)
        }
    }

    /// On a terminal: the last log lines, then `lastBar` in place of the bar (`nil` erases it),
    /// and the cursor, shown again, on a fresh line.
    func finish(lastBar lines: [String]?) {
        guard case .bar = mode else { return }
        state.withLock { state in
            var text = Self.erase(state.drawnLines)
            for line in state.pending { text += line + "\n" }
            state.pending = []
            if let lines { text += lines.map { TerminalText.escaped($0) }.joined(separator: "\n") + "\n" }
            state.drawnLines = 0
            io.write(text + "\u{1B}[?25h")
        }
    }

    /// Clears the `count` lines of the bar, the cursor being at the end of the last one, and
    /// leaves the cursor at the start of the first (ANSI: erase line, cursor up).
    private static func erase(_ count: Int) -> String {
        guard count > 0 else { return "\u{1B}[?25l" }
        return "\r\u{1B}[2K" + String(repeating: "\u{1B}[1A\r\u{1B}[2K", count: count - 1)
    }

    /// The terminal's width: standard output's window size, else `$COLUMNS`, else 80.
    static func terminalColumns() -> Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        return 80
    }
}
