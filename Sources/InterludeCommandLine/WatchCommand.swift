import Foundation
import MPRIS
import NetworkIO
import PlayerEngine
import PlayerInterface

/// `interlude watch`: a terminal player in the spirit of mpv's, made of the player layer: the
/// engine's ``Player`` on the host clock, a transport bar with the breaks on it, the break playing
/// and its countdown, keys, an info panel, and now playing over MPRIS.
enum WatchCommand: Subcommand {
    static let spec = CommandSpec(
        name: "watch",
        abstract: "Watch a stream in the terminal: a transport bar with its breaks, keys, and now playing over MPRIS.",
        discussion: """
            Plays an HLS stream with Interlude's player, in real time, and shows it full screen in the terminal:
            the title; the transport bar over the integrated timeline (the timeline with the breaks in it), with
            'o' a point break at the time it interrupts, '#' the span of a range break, '|' the playhead, '='
            what has played and '-' what is ahead; the time played and the time left; the break playing (which ad
            of how many, how long is left, whether it can be skipped); the state (playing, paused, waiting, live);
            and the keys. The player checks media but does not decode it: there is no picture or sound.

            Keys:
              space          play or pause
              left / right   seek 5 seconds back or forward on the integrated timeline
              [ and ]        play slower or faster (0.25× to 4×)
              s              skip the break, when it may be skipped
              i              show or hide the info panel: the variant, the position, what is buffered, the breaks
              q              quit

            Breaks keep their rules: inside a break with X-RESTRICT="SKIP" there is no skipping, no seeking forward
            and no change of rate (the key is refused with a message); a seek past a break with X-RESTRICT="JUMP"
            plays that break first.

            Now playing: the player is published on the D-Bus session bus (DBUS_SESSION_BUS_ADDRESS) as the MPRIS
            media player org.mpris.MediaPlayer2.interlude, for media keys, desktop widgets and playerctl, titled
            --title; when no bus can be reached it says so and plays on. --no-mpris leaves the bus alone.

            The terminal is given back as it was when you press q, on Ctrl-C, SIGTERM or SIGHUP, when the terminal
            is closed, or when the item ends. Standard input and output must be a terminal; 'interlude play' plays
            without one.

            Exit status: 0 when you quit, the item ends or a signal stops it; 1 when playback fails (with the error
            on standard error) or there is no terminal; 2 when there is nothing playable at the location; 64 for bad
            usage.
            """,
        arguments: [.init(name: "url-or-file", help: "The stream: an http:// or https:// URL, a file:// URL, or a playlist file path.")],
        options: [
            .init(long: "title", short: nil, valueName: "TITLE", help: "The title shown and published (default: the URL)."),
            .init(long: "no-mpris", short: nil, valueName: nil, help: "Do not publish the player on the session bus."),
        ],
        examples: [
            "interlude origin &                                                    # the project's origin, then",
            "interlude watch http://127.0.0.1:8080/vod/movie/charlie/main.m3u8     # charlie's VOD: two ads at each break",
            "interlude watch --title 'Channel' http://127.0.0.1:8080/live/channel/bob/main.m3u8",
            "interlude watch --no-mpris ./stream/main.m3u8",
        ]
    )

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let options = try Options(arguments)
        let url = try PlayCommand.resolve(options.location)
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw CommandFailure(message: "interlude watch draws on a terminal, and standard input or output is not one; 'interlude play' plays without one")
        }
        let title = options.title ?? options.location
        let player = Player(clock: ContinuousClock(), loader: HTTPResourceLoader())
        let session = try WatchSession(player: player, title: title)
        var service: MPRISService?
        if options.isMPRIS {
            do {
                service = try MPRISService(player: player, info: NowPlayingInfo(title: title),
                                           handlers: MPRISService.Handlers(quit: session.interrupt))
            } catch {
                io.writeError("warning: not published on the session bus (MPRIS): \(error); playing on\n")
            }
        }
        player.replaceCurrentItem(with: PlayerItem(url: url))
        player.play()

        // The bus's failure, if it failed while the terminal was taken: said once it is given back.
        let (outcome, busFailure) = await withInterruption(session.interrupt, signals: [SIGINT, SIGTERM, SIGHUP]) {
            await withTaskGroup(of: String?.self) { group in
                let states = player.states()
                group.addTask {
                    for await _ in states { session.stateChanged() }
                    return nil
                }
                if let service {
                    group.addTask {
                        do { try await service.run() } catch { return "\(error)" }
                        return nil
                    }
                }
                // Curses blocks its thread: the terminal gets one of its own.
                let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<WatchSession.Ending, any Error>, Never>) in
                    Thread.detachNewThread { continuation.resume(returning: Result { try session.run() }) }
                }
                group.cancelAll()
                var busFailure: String?
                for await failure in group where failure != nil { busFailure = failure }
                return (outcome, busFailure)
            }
        }
        player.replaceCurrentItem(with: nil)
        if let busFailure {
            io.writeError("warning: now playing was no longer published on the session bus: \(busFailure)\n")
        }
        let ending = try outcome.get()
        switch ending {
        case .failed(let error):
            let reason = error.url == nil || error.url == url ? error.message : error.description
            io.writeError("error: cannot play " + TerminalText.escaped("\(options.location): \(reason)", keepingNewlines: true) + "\n")
            return 1
        case .quit, .interrupted, .terminalClosed, .playedToEnd:
            return 0
        }
    }

    /// The options, checked.
    struct Options {
        var location: String
        var title: String?
        var isMPRIS: Bool

        init(_ arguments: ParsedArguments) throws {
            location = arguments.positionals[0]
            title = arguments.value("title")
            isMPRIS = !arguments.flag("no-mpris")
            if let title, title.isEmpty {
                throw UsageError(message: "--title must not be empty", command: spec)
            }        }
    }
}
