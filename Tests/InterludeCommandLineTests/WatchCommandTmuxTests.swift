import Foundation
import Testing

/// `interlude watch` end to end, in real time: a real tmux pane, a real ncursesw screen, real
/// HTTP from `interlude origin` (``WatchTmuxRig``'s film: a 15 s SKIP-restricted pre-roll of two
/// ads, a 10 s range break at integrated 20–30 s, a point break at integrated 54 s, 70 s in all).
@Suite("interlude watch in a tmux pane", .serialized)
struct WatchCommandTmuxTests {
    /// The bar's cells: the row that starts with `[` and ends with `]` across the pane.
    static func barCells(_ lines: [String]) -> [Character]? {
        guard let bar = lines.first(where: { $0.count == WatchTmuxRig.columns && $0.first == "[" && $0.last == "]" }) else { return nil }
        return Array(bar.dropFirst().dropLast())
    }

    /// The break line's countdown, `Ad N of 2 · m:ss left`, in seconds.
    static func countdown(_ lines: [String]) -> (ad: Int, seconds: Int)? {
        for line in lines {
            guard let match = line.firstMatch(of: /^Ad (\d) of 2 · (\d+):(\d\d) left/), let ad = Int(match.1), let minutes = Int(match.2),
                  let seconds = Int(match.3) else { continue }
            return (ad, minutes * 60 + seconds)
        }
        return nil
    }

    /// The time played, from the times line `m:ss / m:ss`, in seconds.
    static func elapsed(_ lines: [String]) -> Int? {
        for line in lines {
            guard let match = line.firstMatch(of: /^(\d+):(\d\d) \/ 1:10/), let minutes = Int(match.1), let seconds = Int(match.2) else { continue }
            return minutes * 60 + seconds
        }
        return nil
    }

    /// Where the integrated time `seconds` falls among the bar's `columns` (TransportBar's rule:
    /// the 70 s spread evenly, a time on a boundary in the column on its right).
    static func column(_ seconds: Double, of columns: Int) -> Int {
        min(columns - 1, Int((seconds / 70 * Double(columns)).rounded(.down)))
    }

    @Test("the bar draws the breaks where the timeline puts them, the pre-roll counts down and refuses s, space pauses and resumes, q gives the shell back with exit status 0")
    func watchAFilm() async throws {
        let rig = try WatchTmuxRig()
        try await rig.startAtPrompt()
        try rig.type("\(rig.interlude) watch --no-mpris --title 'Watch test' \(rig.filmURL)")

        // The pre-roll: the first ad and its countdown. A debug build on a busy machine may take a
        // while to start.
        var lines = try await rig.poll(timeout: .seconds(60)) { Self.countdown($0) != nil }
        #expect(lines.first == "Watch test", "\(lines.joined(separator: "\n"))")
        let first = try #require(Self.countdown(lines), "no countdown on screen:\n\(lines.joined(separator: "\n"))")
        #expect(first.seconds <= 15)
        #expect(lines.contains { $0.contains("left · cannot be skipped") })

        // The countdown goes down.
        lines = try await rig.poll(timeout: .seconds(5)) { Self.countdown($0).map { $0.seconds < first.seconds } ?? false }
        let later = try #require(Self.countdown(lines), "the break ended before its countdown was seen to move:\n\(lines.joined(separator: "\n"))")
        #expect(later.seconds < first.seconds)

        // Skipping inside the SKIP-restricted break is refused, and the break plays on.
        try rig.press("s")
        lines = try await rig.poll(timeout: .seconds(3)) { $0.contains { $0.hasPrefix("refused: \"preroll\" cannot be skipped") } }
        #expect(lines.contains { $0 == "refused: \"preroll\" cannot be skipped or sought through (X-RESTRICT=SKIP)" }, "\(lines.joined(separator: "\n"))")
        #expect(Self.countdown(lines) != nil, "the break stopped after a refused skip:\n\(lines.joined(separator: "\n"))")

        // The pre-roll ends (at most 15 s of it); primary content plays.
        lines = try await rig.poll(timeout: .seconds(30)) { Self.countdown($0) == nil && Self.elapsed($0).map { $0 >= 1 } ?? false }
        #expect(lines.contains("playing"), "\(lines.joined(separator: "\n"))")

        // The bar: "mid" highlighted over integrated 20–30 s, "dot" at 54 s, the playhead near
        // the start; the pre-roll played once and is gone from it.
        let cells = try #require(Self.barCells(lines), "no bar on screen:\n\(lines.joined(separator: "\n"))")
        let width = cells.count
        #expect(width == WatchTmuxRig.columns - 2)
        let ranges = cells.indices.filter { cells[$0] == "#" }
        let expectedRange = Self.column(20, of: width)..<Self.column(30, of: width)
        // A break's real length may differ from its planned one by a few milliseconds: a column either side.
        #expect(abs((ranges.first ?? -9) - expectedRange.lowerBound) <= 1, "range at \(ranges) in \(String(cells))")
        #expect(abs((ranges.last ?? -9) - (expectedRange.upperBound - 1)) <= 1, "range at \(ranges) in \(String(cells))")
        #expect(ranges.count == (ranges.last ?? 0) - (ranges.first ?? 0) + 1, "a range is one span: \(String(cells))")
        let dots = cells.indices.filter { cells[$0] == "o" }
        #expect(dots.count == 1 && abs(dots[0] - Self.column(54, of: width)) <= 1, "dots at \(dots) in \(String(cells))")
        let playhead = try #require(cells.firstIndex(of: "|"), "no playhead in \(String(cells))")
        #expect(playhead < expectedRange.lowerBound)

        // Space pauses: the status says so and the time stands still.
        try rig.press("Space")
        lines = try await rig.poll(timeout: .seconds(5)) { $0.contains("paused") }
        #expect(lines.contains("paused"), "\(lines.joined(separator: "\n"))")
        let pausedAt = try #require(Self.elapsed(lines))
        let still = try await rig.poll(timeout: .milliseconds(1_500)) { Self.elapsed($0) != pausedAt || !$0.contains("paused") }
        #expect(Self.elapsed(still) == pausedAt, "time moved while paused:\n\(still.joined(separator: "\n"))")
        // Space again: playing, and time moves on.
        try rig.press("Space")
        lines = try await rig.poll(timeout: .seconds(5)) { $0.contains("playing") && (Self.elapsed($0) ?? 0) > pausedAt }
        #expect(lines.contains("playing"), "\(lines.joined(separator: "\n"))")
        #expect((Self.elapsed(lines) ?? 0) > pausedAt)

        // q: the terminal is given back, the shell prompt shows, the exit status is 0.
        try rig.press("q")
        lines = try await rig.poll(timeout: .seconds(10)) { lines in
            !lines.contains { $0.hasPrefix("space play/pause") } && lines.last(where: { !$0.isEmpty }) == WatchTmuxRig.promptLine
        }
        #expect(!lines.contains { $0.hasPrefix("space play/pause") }, "\(lines.joined(separator: "\n"))")
        try rig.type("echo \"exit=$?\"")
        lines = try await rig.poll(timeout: .seconds(5)) { $0.contains("exit=0") }
        #expect(lines.contains("exit=0"), "\(lines.joined(separator: "\n"))")
        #expect(rig.stopTerminal(), "the tmux server outlived kill-server")
    }

    @Test("Ctrl-C gives the shell back with exit status 0, and closing the terminal ends the player")
    func interruptAndHangUp() async throws {
        let rig = try WatchTmuxRig()
        try await rig.startAtPrompt()

        // Ctrl-C in the shell's pane.
        try rig.type("\(rig.interlude) watch --no-mpris \(rig.filmURL)")
        var lines = try await rig.poll(timeout: .seconds(60)) { $0.contains { $0.hasPrefix("space play/pause") } }
        #expect(lines.contains { $0.hasPrefix("space play/pause") }, "\(lines.joined(separator: "\n"))")
        try rig.press("C-c")
        lines = try await rig.poll(timeout: .seconds(10)) { lines in
            !lines.contains { $0.hasPrefix("space play/pause") } && lines.last(where: { !$0.isEmpty }) == WatchTmuxRig.promptLine
        }
        #expect(!lines.contains { $0.hasPrefix("space play/pause") }, "\(lines.joined(separator: "\n"))")
        try rig.type("echo \"exit=$?\"")
        lines = try await rig.poll(timeout: .seconds(5)) { $0.contains("exit=0") }
        #expect(lines.contains("exit=0"), "\(lines.joined(separator: "\n"))")

        // A window of its own, closed under it: the terminal hangs up and the player ends.
        let pid = try rig.openWindow("closing", running: [rig.interlude, "watch", "--no-mpris", rig.filmURL])
        lines = try await rig.poll(window: "closing", timeout: .seconds(60)) { $0.contains { $0.hasPrefix("space play/pause") } }
        #expect(lines.contains { $0.hasPrefix("space play/pause") }, "\(lines.joined(separator: "\n"))")
        // The pane's process is the player itself, not a shell in front of it.
        let commandLine = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? ""
        #expect(commandLine.contains("interlude\0watch\0"), "the pane runs \(commandLine)")
        try rig.tmux(["kill-window", "-t", "watch:closing"])
        #expect(try await rig.hasEnded(pid, within: .seconds(10)), "interlude watch outlived its terminal")
        #expect(rig.stopTerminal(), "the tmux server outlived kill-server")
    }
}
