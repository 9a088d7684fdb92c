import CNcursesw
import Foundation
import Glibc
import PlayerInterface

/// The terminal `interlude watch` paints on, through ncursesw: the alternate screen in cbreak
/// mode, no echo, keypad keys decoded, no cursor; ``close()`` gives the terminal back as it was.
///
/// Curses is global state: one thread makes the value, uses it and closes it.
final class WatchTerminal {
    /// What a read of the keyboard found.
    enum Input: Sendable, Hashable {
        /// A key (what it means depends on whether the passcode prompt is up).
        case key(WatchKeystroke)
        /// The terminal changed size.
        case resized
    }

    /// Which characters the screen may use (UTF-8 locales get Unicode).
    let charset: WatchScreen.Charset
    private let hasColors: Bool
    private var isOpen = true

    private enum ColorPair: Int16 {
        case played = 1
        case pointBreak
        case rangeBreak
        case playhead
        case notice
    }

    /// Takes over the terminal on standard input and output.
    ///
    /// - Throws: ``CommandFailure`` when the terminal's type (`TERM`) is unknown.
    init() throws {
        // Before curses starts: the locale decides how multibyte text is written.
        setlocale(LC_ALL, "")
        charset = cnc_locale_is_utf8() != 0 ? .unicode : .ascii
        guard cnc_start() != 0 else {
            let name = ProcessInfo.processInfo.environment["TERM"] ?? ""
            throw CommandFailure(message: name.isEmpty ? "TERM is not set: the terminal's type is unknown" : "the terminal type '\(name)' (TERM) is unknown")
        }
        cbreak()
        noecho()
        _ = cnc_keypad(true)
        _ = cnc_nodelay(true)
        // A lone Esc would otherwise hold keys back for a second.
        set_escdelay(25)
        curs_set(0)
        hasColors = has_colors()
        if hasColors {
            start_color()
            use_default_colors()
            init_pair(ColorPair.played.rawValue, Int16(COLOR_GREEN), -1)
            init_pair(ColorPair.pointBreak.rawValue, Int16(COLOR_CYAN), -1)
            init_pair(ColorPair.rangeBreak.rawValue, Int16(COLOR_YELLOW), -1)
            init_pair(ColorPair.playhead.rawValue, Int16(COLOR_WHITE), -1)
            init_pair(ColorPair.notice.rawValue, Int16(COLOR_RED), -1)
        }
    }

    deinit { close() }

    /// The screen's size in cells, as curses knows it.
    var size: (width: Int, height: Int) { (Int(cnc_columns()), Int(cnc_lines())) }

    /// Catches up with the terminal's size when curses has not heard of a change (the signal
    /// went to another thread); whether it changed.
    @discardableResult
    func followResize() -> Bool {
        var rows: Int32 = 0
        var columns: Int32 = 0
        guard cnc_terminal_size(STDIN_FILENO, &rows, &columns) == 0, rows > 0, columns > 0 else { return false }
        guard rows != cnc_lines() || columns != cnc_columns() else { return false }
        resizeterm(rows, columns)
        return true
    }

    /// The keys typed since the last read (never waits).
    func read() -> [Input] {
        var inputs: [Input] = []
        while true {
            let code = cnc_getch()
            if code == ERR { return inputs }
            if code == KEY_RESIZE {
                inputs.append(.resized)
            } else if let key = Self.key(for: code) {
                inputs.append(.key(key))
            }
        }
    }

    /// The keystroke for a curses key code (printable ASCII, the arrows, Enter, Esc, Backspace).
    static func key(for code: Int32) -> WatchKeystroke? {
        switch code {
        case KEY_LEFT: .left
        case KEY_RIGHT: .right
        case KEY_ENTER, 10, 13: .enter
        case 27: .escape
        case KEY_BACKSPACE, 8, 127: .backspace
        case 0x20...0x7E: .character(Character(Unicode.Scalar(UInt8(code))))
        default: nil
        }
    }

    /// Paints `screen`; curses sends the terminal only what changed since the last paint.
    func paint(_ screen: WatchScreen) {
        guard isOpen else { return }
        _ = cnc_erase()
        for (row, line) in screen.lines.enumerated() where !line.text.isEmpty {
            _ = cnc_attribute_set(attributes(line.style))
            put(line.text, row: row, column: 0)
        }
        if let bar = screen.bar {
            for (index, cell) in bar.cells.enumerated() {
                _ = cnc_attribute_set(attributes(cell))
                put(String(cell.glyph), row: bar.row, column: bar.column + index)
            }
        }
        _ = cnc_attribute_set(0)
        _ = cnc_refresh()
    }

    /// Ends curses: the terminal gets its modes, its cursor and its screen back. Idempotent.
    func close() {
        guard isOpen else { return }
        isOpen = false
        endwin()
    }

    private func put(_ text: String, row: Int, column: Int) {
        var bytes = Array(text.utf8CString)
        let count = Int32(bytes.count - 1)
        bytes.withUnsafeMutableBufferPointer { buffer in
            _ = cnc_put(Int32(row), Int32(column), buffer.baseAddress, count)
        }
    }

    private func attributes(_ style: WatchScreen.Style) -> attr_t {
        switch style {
        case .title: cnc_attribute_bold()
        case .bar, .plain: 0
        case .emphasis: cnc_attribute_bold()
        case .notice: cnc_attribute_bold() | color(.notice)
        case .dim: cnc_attribute_dim()
        }
    }

    private func attributes(_ cell: TransportBar.Cell) -> attr_t {
        switch cell {
        case .primary: 0
        case .played: color(.played)
        case .pointBreak: cnc_attribute_bold() | color(.pointBreak)
        case .rangeBreak: cnc_attribute_reverse() | color(.rangeBreak)
        case .playhead: cnc_attribute_bold() | color(.playhead)
        }
    }

    private func color(_ pair: ColorPair) -> attr_t {
        hasColors ? cnc_color_pair(pair.rawValue) : 0
    }
}
