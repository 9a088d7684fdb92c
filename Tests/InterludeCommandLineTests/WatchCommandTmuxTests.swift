import Foundation
import PlayerInterface
import Testing
import TestSupport

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

    /// The screen as text, for a failed expectation.
    static func shown(_ lines: [String]) -> String { lines.joined(separator: "\n") }

    /// Whether the player shows `title`, playing live.
    static func isPlaying(_ title: String, _ lines: [String]) -> Bool {
        lines.first == title && lines.contains("playing · live")
    }

    /// Quits with q and checks that the shell is back with exit status 0.
    static func quit(_ rig: WatchTmuxRig) async throws {
        try rig.press("q")
        var lines = try await rig.poll(timeout: .seconds(10)) { $0.last(where: { !$0.isEmpty }) == WatchTmuxRig.promptLine }
        #expect(lines.last(where: { !$0.isEmpty }) == WatchTmuxRig.promptLine, "\(shown(lines))")
        try rig.type("echo \"exit=$?\"")
        lines = try await rig.poll(timeout: .seconds(5)) { $0.contains("exit=0") }
        #expect(lines.contains("exit=0"), "\(shown(lines))")
    }

    @Test("--channels: n switches from News to Sports, a channel that never answers shows its loading screen until p goes back, p returns to News, and a channel that is not there leaves News playing with a notice")
    func switchChannels() async throws {
        let rig = try WatchTmuxRig()
        try await rig.startAtPrompt()
        let silent = try rig.silentPort()
        let channels = try rig.write("""
            # the test's channels
            News\t\(rig.liveURL("news"))
            Sports\t\(rig.liveURL("sports"))
            Silent\thttp://127.0.0.1:\(silent)/live/silent/main.m3u8
            Gone\t\(rig.liveURL("gone"))

            """, to: "channels.tsv")
        try rig.type("\(rig.interlude) watch --no-mpris --channels \(channels)")

        // Channel 1 plays first, titled from the file; the help has n/p.
        var lines = try await rig.poll(timeout: .seconds(60)) { Self.isPlaying("News", $0) }
        #expect(Self.isPlaying("News", lines), "\(Self.shown(lines))")
        #expect(lines.contains { $0.contains("n/p channel") }, "\(Self.shown(lines))")

        // n: channel 2. It loads in a blink on loopback; what stays is its title, playing.
        try rig.press("n")
        lines = try await rig.poll(timeout: .seconds(30)) { Self.isPlaying("Sports", $0) }
        #expect(Self.isPlaying("Sports", lines), "\(Self.shown(lines))")

        // n: channel 3 never answers, so its loading screen stays up (for the 15 s timeout).
        try rig.press("n")
        lines = try await rig.poll(timeout: .seconds(10)) { $0.first == "Loading channel 3 of 4: Silent" }
        #expect(lines.first == "Loading channel 3 of 4: Silent", "\(Self.shown(lines))")
        #expect(lines.contains("http://127.0.0.1:\(silent)/live/silent/main.m3u8"), "\(Self.shown(lines))")
        #expect(!lines.contains { $0.hasPrefix("[") }, "the loading screen replaces the player:\n\(Self.shown(lines))")

        // p while it loads: back to Sports at once, which is not a failure.
        try rig.press("p")
        lines = try await rig.poll(timeout: .seconds(10)) { Self.isPlaying("Sports", $0) }
        #expect(Self.isPlaying("Sports", lines), "\(Self.shown(lines))")
        #expect(!lines.contains { $0.hasPrefix("could not switch") }, "\(Self.shown(lines))")

        // p: News again.
        try rig.press("p")
        lines = try await rig.poll(timeout: .seconds(30)) { Self.isPlaying("News", $0) }
        #expect(Self.isPlaying("News", lines), "\(Self.shown(lines))")

        // p wraps to channel 4, a 404: News plays on, and the notice says why.
        try rig.press("p")
        lines = try await rig.poll(timeout: .seconds(30)) { $0.contains("could not switch to Gone: the stream cannot be reached") }
        #expect(lines.contains("could not switch to Gone: the stream cannot be reached"), "\(Self.shown(lines))")
        lines = try await rig.poll(timeout: .seconds(10)) { Self.isPlaying("News", $0) }
        #expect(Self.isPlaying("News", lines), "\(Self.shown(lines))")

        try await Self.quit(rig)
        #expect(rig.stopTerminal(), "the tmux server outlived kill-server")
    }

    @Test("a URL rated above --max-rating asks for the passcode (masked) first: a wrong one is refused with the attempts left, the right one plays it; --forbid refuses it without a prompt, exit status 3")
    func passcodePrompt() async throws {
        let rig = try WatchTmuxRig()
        try await rig.startAtPrompt()
        // The hash, made by the command a user runs.
        let hash = rig.directory.file("passcode.hash")
        try rig.type("printf '4321\\n' | \(rig.interlude) watch --make-passcode-hash > \(hash); echo \"made=$?\"")
        var lines = try await rig.poll(timeout: .seconds(30)) { $0.contains("made=0") }
        #expect(lines.contains("made=0"), "\(Self.shown(lines))")
        let stored = try String(contentsOfFile: hash, encoding: .utf8)
        #expect(stored.hasPrefix("pbkdf2-sha256$600000$"), "\(stored)")
        #expect(!stored.contains("4321"))
        try rig.type("clear")

        try rig.type("\(rig.interlude) watch --no-mpris --title 'Late film' --rating R --max-rating PG-13 --passcode-file \(hash) \(rig.liveURL("news"))")
        lines = try await rig.poll(timeout: .seconds(60)) { $0.contains("3 attempts left") }
        #expect(lines.first == "Late film", "\(Self.shown(lines))")
        #expect(lines.contains("Rated R, above the limit PG-13: enter the passcode to watch it."), "\(Self.shown(lines))")
        #expect(lines.contains("3 attempts left"), "\(Self.shown(lines))")
        #expect(!lines.contains { $0.hasPrefix("[") || $0.hasPrefix("playing") }, "nothing plays before the passcode:\n\(Self.shown(lines))")

        // A wrong passcode: typed masked (q and n are typed too, not keys), refused, two attempts left.
        try rig.press("0", "q", "n", "0")
        lines = try await rig.poll(timeout: .seconds(5)) { $0.contains("Passcode: ****") }
        #expect(lines.contains("Passcode: ****"), "\(Self.shown(lines))")
        #expect(!lines.contains { $0.contains("0qn0") }, "the passcode shows:\n\(Self.shown(lines))")
        try rig.press("Enter")
        lines = try await rig.poll(timeout: .seconds(10)) { $0.contains("Wrong passcode · 2 attempts left") }
        #expect(lines.contains("Wrong passcode · 2 attempts left"), "\(Self.shown(lines))")
        #expect(lines.contains("Passcode:"), "the wrong passcode is cleared:\n\(Self.shown(lines))")

        // The right one: the item plays.
        try rig.press("4", "3", "2", "1", "Enter")
        lines = try await rig.poll(timeout: .seconds(30)) { Self.isPlaying("Late film", $0) }
        #expect(Self.isPlaying("Late film", lines), "\(Self.shown(lines))")
        try await Self.quit(rig)

        // --forbid: refused at once, without a prompt waiting for keys; a message and exit status 3.
        try rig.type("clear")
        try rig.type("\(rig.interlude) watch --no-mpris --title 'Late film' --rating R --max-rating PG-13 --forbid \(rig.liveURL("news")); echo \"exit=$?\"")
        lines = try await rig.poll(timeout: .seconds(60)) { $0.contains { $0.hasPrefix("exit=") } }
        #expect(lines.contains("exit=3"), "\(Self.shown(lines))")
        // The message is wider than the pane: its rows joined.
        #expect(lines.joined().contains("error: not allowed: Late film is rated R, above the limit PG-13, and this profile forbids it (--forbid)"),
                "\(Self.shown(lines))")
        #expect(rig.stopTerminal(), "the tmux server outlived kill-server")
    }

    @Test("a channel rated above the limit: Esc refuses it and News plays on with a notice, landing on it again is refused without a prompt, u asks again and the passcode plays it")
    func refusedChannel() async throws {
        let rig = try WatchTmuxRig()
        try await rig.startAtPrompt()
        // A hash with few iterations, written as --make-passcode-hash writes it.
        let hash = try rig.write(PasscodeHash(passcode: "4321", iterations: 1_000).encoded + "\n", to: "passcode.hash")
        let channels = try rig.write("News\t\(rig.liveURL("news"))\nSports\t\(rig.liveURL("sports"))\tR\n", to: "channels.tsv")
        try rig.type("\(rig.interlude) watch --no-mpris --channels \(channels) --max-rating PG-13 --passcode-file \(hash)")
        var lines = try await rig.poll(timeout: .seconds(60)) { Self.isPlaying("News", $0) }
        #expect(Self.isPlaying("News", lines), "\(Self.shown(lines))")

        try rig.press("n")
        lines = try await rig.poll(timeout: .seconds(10)) { $0.contains("Rated R, above the limit PG-13: enter the passcode to watch it.") }
        #expect(lines.first == "Sports", "\(Self.shown(lines))")
        try rig.press("Escape")
        lines = try await rig.poll(timeout: .seconds(10)) { $0.contains("Sports (R) not shown: passcode cancelled · u to enter it") }
        #expect(lines.contains("Sports (R) not shown: passcode cancelled · u to enter it"), "\(Self.shown(lines))")
        #expect(Self.isPlaying("News", lines), "\(Self.shown(lines))")

        // n again is the app landing on a refused item: no second prompt.
        try rig.press("n")
        lines = try await rig.poll(timeout: .seconds(10)) { $0.contains("Sports (R) was refused · u to enter the passcode") }
        #expect(lines.contains("Sports (R) was refused · u to enter the passcode"), "\(Self.shown(lines))")
        #expect(!lines.contains { $0.hasPrefix("Passcode:") }, "\(Self.shown(lines))")

        // u: the user asks; the passcode plays Sports.
        try rig.press("u")
        lines = try await rig.poll(timeout: .seconds(10)) { $0.contains("3 attempts left") }
        #expect(lines.first == "Sports", "\(Self.shown(lines))")
        try rig.press("4", "3", "2", "1", "Enter")
        lines = try await rig.poll(timeout: .seconds(30)) { Self.isPlaying("Sports", $0) }
        #expect(Self.isPlaying("Sports", lines), "\(Self.shown(lines))")
        try await Self.quit(rig)
        #expect(rig.stopTerminal(), "the tmux server outlived kill-server")
    }

    @Test("MPRIS Next and Previous (playerctl) switch channels, and the published title follows the channel")
    func mprisSwitchesChannels() async throws {
        let rig = try WatchTmuxRig()
        try await rig.startAtPrompt()
        let bus = try rig.startBus()
        let channels = try rig.write("News\t\(rig.liveURL("news"))\nSports\t\(rig.liveURL("sports"))\n", to: "channels.tsv")
        try rig.type("DBUS_SESSION_BUS_ADDRESS='\(bus)' \(rig.interlude) watch --channels \(channels)")
        var lines = try await rig.poll(timeout: .seconds(60)) { Self.isPlaying("News", $0) }
        #expect(Self.isPlaying("News", lines), "\(Self.shown(lines))")
        #expect(try rig.playerctl("metadata", "title", bus: bus).output == "News")

        #expect(try rig.playerctl("next", bus: bus).status == 0)
        lines = try await rig.poll(timeout: .seconds(30)) { Self.isPlaying("Sports", $0) }
        #expect(Self.isPlaying("Sports", lines), "\(Self.shown(lines))")
        var title = ""
        let deadline = ContinuousClock.now + .seconds(10)
        while title != "Sports", ContinuousClock.now < deadline {
            title = try rig.playerctl("metadata", "title", bus: bus).output
            if title != "Sports" { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(title == "Sports")

        #expect(try rig.playerctl("previous", bus: bus).status == 0)
        lines = try await rig.poll(timeout: .seconds(30)) { Self.isPlaying("News", $0) }
        #expect(Self.isPlaying("News", lines), "\(Self.shown(lines))")
        try await Self.quit(rig)
        #expect(rig.stopTerminal(), "the tmux server outlived kill-server")
    }

    /// The primary time from the info panel's position row (`position  primary 10:12.3, …`, with
    /// hours when there are any), in seconds.
    static func primaryTime(_ lines: [String]) -> Double? {
        for line in lines {
            guard let match = line.firstMatch(of: /^position +primary ([\d:]+\.\d)/) else { continue }
            return match.1.split(separator: ":").reduce(0.0) { $0 * 60 + (Double($1) ?? .nan) }
        }
        return nil
    }

    @Test("--join with a controller's invitation: in session with its role, playing (the time advances), paused when the headless owner pauses, space resumes the owner too, and q leaves the session; then a viewer, whose space the server refuses with a notice while the owner plays on")
    func joinGroup() async throws {
        let rig = try WatchTmuxRig()
        try await rig.startAtPrompt()
        try rig.startGroupServer()
        let invitations = try rig.createSession(stream: "live/news/{viewer}/main.m3u8")

        // The controller watches first: alone in the session, its play starts the group.
        try rig.type("\(rig.interlude) watch --no-mpris --join '\(invitations.controller)' --name viewer --title 'Group news'")
        var lines = try await rig.poll(timeout: .seconds(60)) { lines in
            lines.contains { $0.contains("viewer (controller) · in session") } && lines.contains("playing · live")
        }
        #expect(lines.first == "Group news", "\(Self.shown(lines))")
        #expect(lines.contains { $0.hasPrefix("session ") && $0.contains("viewer (controller) · in session") }, "\(Self.shown(lines))")
        #expect(lines.contains("playing · live"), "\(Self.shown(lines))")

        // It plays: the primary time on the info panel advances.
        try rig.press("i")
        lines = try await rig.poll(timeout: .seconds(10)) { Self.primaryTime($0) != nil }
        let first = try #require(Self.primaryTime(lines), "no position on the info panel:\n\(Self.shown(lines))")
        lines = try await rig.poll(timeout: .seconds(10)) { (Self.primaryTime($0) ?? 0) >= first + 1 }
        #expect((Self.primaryTime(lines) ?? 0) >= first + 1, "the time did not advance from \(first):\n\(Self.shown(lines))")

        // The owner joins, headless, and pauses 5 s after its item is coordinated: the watch
        // screen follows.
        try rig.join(invitations.owner, name: "host", actions: ["5:pause"])
        lines = try await rig.poll(timeout: .seconds(60)) { lines in
            lines.contains { $0.hasPrefix("paused") } && lines.contains("the group is paused")
        }
        #expect(lines.contains { $0.hasPrefix("paused") }, "\(Self.shown(lines))\n\(rig.participantLog("host"))")
        #expect(lines.contains("the group is paused"), "\(Self.shown(lines))")
        #expect(lines.contains { $0.contains("· 1 other") }, "\(Self.shown(lines))")
        let pausedAt = Self.primaryTime(lines)

        // Space in watch (a controller's play) is the group's: the owner plays again.
        try rig.press("Space")
        lines = try await rig.poll(timeout: .seconds(20)) { lines in
            lines.contains("playing · live") && lines.contains("the group is playing") && (Self.primaryTime(lines) ?? 0) > (pausedAt ?? .infinity)
        }
        #expect(lines.contains("the group is playing"), "\(Self.shown(lines))")
        #expect((Self.primaryTime(lines) ?? 0) > (pausedAt ?? .infinity), "\(Self.shown(lines))")
        let deadline = ContinuousClock.now + .seconds(20)
        var ownerResumed = false
        while !ownerResumed, ContinuousClock.now < deadline {
            // The owner's samples: paused (rate 0) after its action, then playing (rate 1).
            let rates = rig.participantTrace("host").compactMap { ($0["sample"] as? [String: Any])?["rate"] as? Double }
            if let paused = rates.firstIndex(of: 0) { ownerResumed = rates[paused...].contains(1) }
            if !ownerResumed { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(ownerResumed, "the owner did not play again after the space: \(rig.participantLog("host"))")

        // q leaves the session for good (the owner hears so) and gives the shell back.
        try await Self.quit(rig)
        // The owner's log names who left: `join: viewer (p1, controller) left`.
        func hasLeft() -> Bool { rig.participantLog("host").contains(/join: viewer \(p\d+, controller\) left/) }
        let leftBy = ContinuousClock.now + .seconds(20)
        while !hasLeft(), ContinuousClock.now < leftBy {
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(hasLeft(), "\(rig.participantLog("host"))")

        // A viewer: in session as a viewer, with the group playing; its space is refused (its
        // coordinator does not send what the server would refuse), which the notice line says,
        // the owner plays on, and so does the viewer.
        try rig.type("clear")
        try rig.type("\(rig.interlude) watch --no-mpris --join '\(invitations.viewer)' --name viewer")
        lines = try await rig.poll(timeout: .seconds(60)) { lines in
            lines.contains { $0.contains("viewer (viewer) · in session") } && lines.contains("the group is playing") && lines.contains("playing · live")
        }
        #expect(lines.contains { $0.contains("viewer (viewer) · in session") }, "\(Self.shown(lines))")
        try rig.press("Space")
        lines = try await rig.poll(timeout: .seconds(20)) { $0.contains { $0.hasPrefix("refused by the group: ") } }
        #expect(lines.contains { $0.hasPrefix("refused by the group: ") }, "\(Self.shown(lines))")
        func ownerRates() -> [Double] { rig.participantTrace("host").compactMap { ($0["sample"] as? [String: Any])?["rate"] as? Double } }
        let refusedAt = ownerRates().count
        let playsOnBy = ContinuousClock.now + .seconds(20)
        while ownerRates().count < refusedAt + 20, ContinuousClock.now < playsOnBy {
            try await Task.sleep(for: .milliseconds(100))
        }
        let after = ownerRates().dropFirst(refusedAt)
        // Playing on at the group's rate; the coordinator's drift corrections nudge it by under 1 %
        // (a pause would be 0).
        #expect(after.count >= 20 && after.allSatisfy { abs($0 - 1) < 0.02 }, "the owner did not play on after the viewer's refused pause: \(after)")
        // And the viewer's own player is not left paused: it plays with the group.
        lines = try await rig.poll(timeout: .seconds(10)) { $0.contains("playing · live") && $0.contains("the group is playing") }
        #expect(lines.contains("playing · live") && lines.contains("the group is playing"), "\(Self.shown(lines))")
        try await Self.quit(rig)
        rig.stopGroup()
        #expect(rig.stopTerminal(), "the tmux server outlived kill-server")
    }
}
