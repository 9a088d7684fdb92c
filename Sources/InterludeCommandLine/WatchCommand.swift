import Foundation
import GroupCoordination
import GroupPlayback
import MPRIS
import NetworkIO
import PlayerEngine
import PlayerInterface

/// `interlude watch`: a terminal player in the spirit of mpv's, made of the player layer: the
/// engine's ``Player`` on the host clock, a transport bar with the breaks on it, the break playing
/// and its countdown, keys, an info panel, and now playing over MPRIS; with `--join`, a
/// participant of a watch-together group.
enum WatchCommand: Subcommand {
    static let spec = CommandSpec(
        name: "watch",
        abstract: "Watch a stream, a list of live channels or a group's session in the terminal: a transport bar with its breaks, keys, parental controls, and now playing over MPRIS.",
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
              n and p        the next or previous channel (with --channels; the list wraps)
              u              enter the passcode for the item parental controls refused last
              i              show or hide the info panel: the variant, the position, what is buffered, the breaks
              q              quit

            Breaks keep their rules: inside a break with X-RESTRICT="SKIP" there is no skipping, no seeking forward
            and no change of rate (the key is refused with a message); a seek past a break with X-RESTRICT="JUMP"
            plays that break first.

            Video: --video URL plays the stream with real pictures and sound in a window (X11, GStreamer), with its
            breaks switched on time and the transport bar under the video; the keys are these, with left / right 10
            seconds, f full screen and i picture in picture. It runs interlude-video (beside interlude, on PATH, or
            in Video/.build; 'make video' builds it) with the URL (and --mute), and exits with its status. With
            --join INVITATION (the invitation URL) and --name, the video follows the group instead: it plays the
            session's stream with that viewer's ads, plays and pauses with the group, seeks to stay within 250 ms
            of where the group has it, and plays the breaks the group plays.

            Channels: --channels FILE plays a list of live channels instead of one URL, starting with the first.
            The file is UTF-8 text, one channel a line: its title, a tab, its URL (http://, https:// or file://),
            and optionally a tab and its rating; blank lines and lines starting with '#' are skipped. It may hold
            up to 1,000 channels in up to 1 MiB; a malformed file is refused with its path, line, column and what
            is wrong (exit status 2). While a channel loads, 'Loading channel 2 of 3: Sports' replaces the player;
            once the channel plays, its title is shown and published. A channel that cannot be loaded, or that
            does not load within 15 seconds, leaves the channel that played playing, with a notice. Pressing n or
            p while a channel loads steps on from it. MPRIS Next and Previous (playerctl next) switch too.

            Parental controls: --max-rating LABEL is the limit, and an item rated above it (--rating for the
            URL, the third column for a channel) is not shown at once. With --passcode-file FILE a passcode
            prompt asks first (the typed characters are shown as '*'; Enter checks, Esc cancels; three attempts):
            the right passcode plays it. With --forbid it is refused without a prompt. A refused URL ends watch
            with exit status 3; a refused channel leaves the channel that played playing, with a notice, and
            is not asked about again until you press u. A rating is an MPAA label (G, PG, PG-13, R, NC-17) or
            system|label|rank| (us-tv|TV-MA|600|, compared by rank). The passcode file holds the passcode's salted
            hash (PBKDF2-HMAC-SHA256), never the passcode: make it with 'interlude watch --make-passcode-hash',
            which reads the passcode from standard input (without echoing it on a terminal).

            Watching together: --join INVITATION takes part in a watch-together session (an invitation printed by
            'interlude session create') instead of playing a URL, as 'interlude join' does, with the same --name,
            --server, --policy, --ca and --insecure. The group's item plays (the session's stream, {viewer} in it
            made --name, so each viewer gets their own ads), titled --title or the stream. Two lines under the
            state show the group: the session, your name and role, the connection (connecting, in session,
            disconnected, reconnecting), your skew against where the group expects you and how many others
            there are; then whether the group is playing or paused, or whom it waits for and why (an ad, a
            seek, buffering). The keys act on the player as ever, and the participant's coordinator carries
            them to the group: an owner's or a controller's play, pause and seek are everyone's. A viewer's
            are refused by the server (the others play on), and the notice line says so:
            'refused by the group: ...'. The notice line also
            tells who joins and leaves. q (or a signal) leaves the session, then gives the
            terminal back. Parental controls do not apply (the group chooses the item).

            Now playing: the player is published on the D-Bus session bus (DBUS_SESSION_BUS_ADDRESS) as the MPRIS
            media player org.mpris.MediaPlayer2.interlude, for media keys, desktop widgets and playerctl, titled
            --title or the channel's title; when no bus can be reached it says so and plays on. --no-mpris leaves
            the bus alone.

            The terminal is given back as it was when you press q, on Ctrl-C, SIGTERM or SIGHUP, when the terminal
            is closed, or when the item ends. Standard input and output must be a terminal; 'interlude play' plays
            without one.

            Exit status: 0 when you quit, the item ends or a signal stops it; 1 when playback of the URL fails
            (with the error on standard error), the group server refuses the invitation for good, or there is no
            terminal; 2 when there is nothing playable at the
            location, or the channel file or passcode file is malformed; 3 when parental controls refuse the URL;
            64 for bad usage.
            """,
        arguments: [.init(name: "url-or-file", help: "The stream: an http:// or https:// URL, a file:// URL, or a playlist file path (or --channels, or --join).",
                          isOptional: true)],
        options: [
            .init(long: "title", short: nil, valueName: "TITLE", help: "The title shown and published (default: the URL)."),
            .init(long: "channels", short: nil, valueName: "FILE", help: "Play the live channels listed in FILE (title<TAB>URL[<TAB>rating] a line) instead of a URL."),
            .init(long: "rating", short: nil, valueName: "LABEL", help: "The URL's content rating (PG-13, R, … or system|label|rank|)."),
            .init(long: "max-rating", short: nil, valueName: "LABEL", help: "The highest rating shown without --passcode-file's passcode (with --forbid: at all)."),
            .init(long: "passcode-file", short: nil, valueName: "FILE", help: "The file holding the passcode's hash, from --make-passcode-hash."),
            .init(long: "forbid", short: nil, valueName: nil, help: "Refuse what is rated above --max-rating, without a prompt."),
            .init(long: "make-passcode-hash", short: nil, valueName: nil, help: "Read a passcode from standard input, write its salted hash for --passcode-file, and exit."),
            .init(long: "no-mpris", short: nil, valueName: nil, help: "Do not publish the player on the session bus."),
            .init(long: "join", short: nil, valueName: "INVITATION", help: "Take part in a watch-together session: its invitation URL (or token, with --server)."),
            .init(long: "video", short: nil, valueName: nil, help: "Real pictures and sound: play the URL in a window with interlude-video (build it with 'make video')."),
            .init(long: "mute", short: nil, valueName: nil, help: "With --video: no sound."),
        ] + GroupJoinOptions.options,
        examples: [
            "interlude origin &                                                    # the project's origin, then",
            "interlude watch http://127.0.0.1:8080/vod/movie/charlie/main.m3u8     # charlie's VOD: two ads at each break",
            "interlude watch --video http://127.0.0.1:8080/vod/movie/charlie/main.m3u8   # in a window, with sound (make video first)",
            "interlude watch --title 'Channel' http://127.0.0.1:8080/live/channel/bob/main.m3u8",
            "interlude watch --no-mpris ./stream/main.m3u8",
            "printf 'Bob\\thttp://127.0.0.1:8080/live/channel/bob/main.m3u8\\nCharlie\\thttp://127.0.0.1:8080/live/channel/charlie/main.m3u8\\tR\\n' > channels.tsv",
            "interlude watch --make-passcode-hash > passcode.hash                  # type the passcode, then Enter",
            "interlude watch --channels channels.tsv --max-rating PG-13 --passcode-file passcode.hash   # n and p switch; Charlie asks",
            "interlude watch --rating R --max-rating PG-13 --forbid http://127.0.0.1:8080/vod/movie/charlie/main.m3u8   # refused: exit 3",
            "interlude serve --port 7400 &                                         # a group server, then a session of the movie:",
            "interlude session create --server http://127.0.0.1:7400 --stream 'http://127.0.0.1:8080/vod/movie/{viewer}/main.m3u8'",
            "interlude join \"$OWNER_INVITATION\" --name alice &                    # the owner, headless",
            "interlude watch --join \"$VIEWER_INVITATION\" --name charlie           # charlie watches with the group, with charlie's ads",
            "interlude watch --video --join \"$VIEWER_INVITATION\" --name charlie   # the same in a window, with real video",
        ]
    )

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        if arguments.flag("video") {
            if let invitation = arguments.value("join") {
                guard arguments.positionals.isEmpty, arguments.value("channels") == nil else {
                    throw UsageError(message: "--video --join plays the session's stream: no URL or --channels with it", command: spec)
                }
                // Checked here (name, policy), passed on as given.
                let group = try GroupJoinOptions(invitation: invitation, arguments, command: spec)
                guard invitation.contains("#"), arguments.value("server") == nil else {
                    throw UsageError(message: "--video --join takes the invitation URL (http://HOST:PORT/join#TOKEN), not a bare token with --server", command: spec)
                }
                return try WatchVideoLauncher.run(arguments: WatchVideoLauncher.arguments(
                    joining: invitation, name: group.name, policy: group.policy.rawValue, isMuted: arguments.flag("mute")))
            }
            guard let url = arguments.positionals.first, arguments.value("channels") == nil else {
                throw UsageError(message: "--video plays one URL or joins a session (not --channels yet)", command: spec)
            }
            return try WatchVideoLauncher.run(arguments: WatchVideoLauncher.arguments(url: url, isMuted: arguments.flag("mute")))
        }
        let options = try Options(arguments)
        if options.isMakingPasscodeHash { return try makePasscodeHash(io: io) }
        let channels = try options.makeChannels()
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw CommandFailure(message: "interlude watch draws on a terminal, and standard input or output is not one; 'interlude play' plays without one")
        }
        let player = Player(clock: ContinuousClock(), loader: HTTPResourceLoader())
        let participant = options.group.map { GroupSessionParticipant(player: player, clock: ContinuousClock(), configuration: $0.makeConfiguration()) }
        let session = try WatchSession(player: player, channels: channels, group: participant.map { participant in
            (participant, WatchGroupStateMachine(name: participant.configuration.link.name, title: options.title))
        })
        // Subscribed before the participant runs, so that its welcome is not missed.
        let groupEvents = participant?.events()
        var service: MPRISService?
        if options.isMPRIS {
            do {
                // A group's item is named once the participant is admitted.
                let info = channels.entries.first.map { NowPlayingInfo(title: $0.channel.title, contentRating: $0.rating) }
                    ?? NowPlayingInfo(title: options.title ?? "Joining the session")
                let handlers = channels.isChannelList
                    ? MPRISService.Handlers(next: { session.requestChannel(.nextChannel) }, previous: { session.requestChannel(.previousChannel) },
                                            quit: session.interrupt)
                    : MPRISService.Handlers(quit: session.interrupt)
                let published = try MPRISService(player: player, info: info,
                                                 handlers: handlers)
                session.publishNowPlaying(to: published.setInfo)
                service = published
            } catch {
                io.writeError("warning: not published on the session bus (MPRIS): \(error); playing on\n")
            }
        }

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
                if let participant, let groupEvents {
                    group.addTask {
                        await participant.run()
                        return nil
                    }
                    group.addTask {
                        for await event in groupEvents { session.groupEvent(event) }
                        return nil
                    }
                }
                // Curses blocks its thread: the terminal gets one of its own.
                let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<WatchSession.Ending, any Error>, Never>) in
                    Thread.detachNewThread { continuation.resume(returning: Result { try session.run() }) }
                }
                // q, a signal or the end: leave the group for good (the terminal is back already).
                participant?.leave()
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
        case .groupStopped(let error):
            io.writeError("error: the group server refused: " + TerminalText.escaped("\(error.code): \(error.message)") + "\n")
            return 1
        case .failed(let error) where channels.isGroupParticipant:
            io.writeError("error: cannot play the group's item: " + TerminalText.escaped(error.description, keepingNewlines: true) + "\n")
            return 1
        case .failed(let error):
            let url = channels.entries[0].channel.url
            let reason = error.url == nil || error.url == url ? error.message : error.description
            io.writeError("error: cannot play " + TerminalText.escaped("\(options.location ?? url): \(reason)", keepingNewlines: true) + "\n")
            return 1
        case .denied(let denial):
            let entry = channels.entries[0]
            io.writeError("error: " + TerminalText.escaped(deniedMessage(entry, limit: channels.restrictions.maximumRating, denial)) + "\n")
            return deniedExitStatus
        case .quit, .interrupted, .terminalClosed, .playedToEnd:
            return 0
        }
    }

    /// The exit status when parental controls refuse the one URL.
    static let deniedExitStatus: Int32 = 3

    /// Why the one URL was refused, in words.
    static func deniedMessage(_ entry: WatchChannelList.Entry, limit: ContentRating?, _ denial: ParentalControlStateMachine.Denial) -> String {
        let rated = (entry.rating.map { "rated \($0.label)" } ?? "unrated") + (limit.map { ", above the limit \($0.label)" } ?? "")
        let why = switch denial {
        case .forbiddenByProfile: "this profile forbids it (--forbid)"
        case .passcodeCancelled: "the passcode prompt was cancelled"
        case .tooManyAttempts: "too many wrong passcodes"
        case .previouslyDenied, .superseded: "it was refused"
        }
        return "not allowed: \(entry.channel.title) is \(rated), and \(why)"
    }

    /// `--make-passcode-hash`: reads a passcode (one line of standard input, not echoed on a
    /// terminal) and writes its salted hash, for `--passcode-file`.
    static func makePasscodeHash(io: CommandIO) throws -> Int32 {
        let isTerminal = isatty(STDIN_FILENO) == 1
        var saved = termios()
        if isTerminal {
            io.writeError("passcode: ")
            tcgetattr(STDIN_FILENO, &saved)
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
        }
        let line = readLine(strippingNewline: true)
        if isTerminal {
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            io.writeError("\n")
        }
        guard let passcode = line, !passcode.isEmpty else {
            throw CommandFailure(message: "no passcode: give it as one line on standard input", exitCode: 64)
        }
        guard passcode.count <= WatchChannelsStateMachine.maximumPasscodeLength else {
            throw CommandFailure(message: "the passcode is longer than \(WatchChannelsStateMachine.maximumPasscodeLength) characters", exitCode: 64)
        }
        io.write(PasscodeHash(passcode: passcode).encoded + "\n")
        return 0
    }

    /// The options, checked.
    struct Options {
        var location: String?
        var channelsPath: String?
        var title: String?
        var isMPRIS: Bool
        var rating: ContentRating?
        var maximumRating: ContentRating?
        var passcodePath: String?
        var isForbidding: Bool
        var isMakingPasscodeHash: Bool
        /// How to take part in a group, with `--join`.
        var group: GroupJoinOptions?

        init(_ arguments: ParsedArguments) throws {
            location = arguments.positionals.first
            channelsPath = arguments.value("channels")
            title = arguments.value("title")
            isMPRIS = !arguments.flag("no-mpris")
            passcodePath = arguments.value("passcode-file")
            isForbidding = arguments.flag("forbid")
            isMakingPasscodeHash = arguments.flag("make-passcode-hash")
            func usage(_ message: String) -> UsageError { UsageError(message: message, command: spec) }
            func readRating(_ option: String) throws -> ContentRating? {
                guard let label = arguments.value(option) else { return nil }
                guard let rating = ContentRating(label: label) else {
                    throw usage("--\(option) '\(label)' is not a rating: give an MPAA label (G, PG, PG-13, R, NC-17) or system|label|rank|")
                }
                return rating
            }
            rating = try readRating("rating")
            maximumRating = try readRating("max-rating")
            if isMakingPasscodeHash {
                guard location == nil, channelsPath == nil else { throw usage("--make-passcode-hash takes no URL and no --channels") }
                return
            }
            if let title, title.isEmpty { throw usage("--title must not be empty") }
            let invitation = arguments.value("join")
            switch [location != nil, channelsPath != nil, invitation != nil].filter({ $0 }).count {
            case 0: throw usage("missing argument <url-or-file>, or --channels FILE, or --join INVITATION")
            case 1: break
            default: throw usage("give one of a URL, --channels FILE and --join INVITATION")
            }
            if channelsPath != nil {
                if title != nil { throw usage("--title names the one URL; a channel file names its channels") }
                if rating != nil { throw usage("--rating rates the one URL; a channel file rates its channels") }
            }
            if let invitation {
                if rating != nil || maximumRating != nil || passcodePath != nil || isForbidding {
                    throw usage("parental controls rate what watch loads itself; with --join the group chooses the item")
                }
                group = try GroupJoinOptions(invitation: invitation, arguments, command: spec)
                return
            }
            if let option = GroupJoinOptions.options.first(where: { arguments.flag($0.long) || arguments.value($0.long) != nil }) {
                throw usage("--\(option.long) takes part in a group: give --join INVITATION")
            }
            if isForbidding, passcodePath != nil { throw usage("--forbid and --passcode-file exclude each other: forbid, or ask for the passcode") }
            if maximumRating != nil, !isForbidding, passcodePath == nil {
                throw usage("--max-rating needs --passcode-file FILE (a passcode lifts the limit) or --forbid (nothing does)")
            }
            if maximumRating == nil, isForbidding || passcodePath != nil {
                throw usage("--\(isForbidding ? "forbid" : "passcode-file") needs --max-rating LABEL, the limit")
            }
        }

        /// What to play and under which restrictions: the channel file read and checked, the
        /// passcode hash read.
        func makeChannels() throws -> WatchChannelsStateMachine {
            if group != nil { return .groupParticipant() }
            var override = ParentalRestrictions.Override.forbidden
            if let passcodePath { override = .passcode(try Self.readPasscodeHash(passcodePath)) }
            let restrictions = ParentalRestrictions(maximumRating: maximumRating, override: override)
            if let channelsPath {
                do {
                    let list = try WatchChannelList.read(path: channelsPath)
                    return WatchChannelsStateMachine(entries: list.entries, isChannelList: true, restrictions: restrictions)
                } catch let error as WatchChannelList.ParseError {
                    throw CommandFailure(message: TerminalText.escaped(error.description, keepingNewlines: true), exitCode: 2)
                }
            }
            let location = location ?? ""
            let url = try PlayCommand.resolve(location)
            let entry = WatchChannelList.Entry(channel: Channel(id: "1", title: title ?? location, url: url), rating: rating)
            return WatchChannelsStateMachine(entries: [entry], isChannelList: false, restrictions: restrictions)
        }

        /// The stored form `PasscodeHash` writes (`interlude watch --make-passcode-hash`), on the
        /// file's first line.
        static func readPasscodeHash(_ path: String) throws -> PasscodeHash {
            let bytes = try CommandLineInput.readFile(path, atMost: 1024, kind: "a passcode file")
            let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            do {
                return try PasscodeHash(encoded: text)
            } catch {
                throw CommandFailure(message: "\(path): not a passcode hash (\(error)); make one with 'interlude watch --make-passcode-hash > \(path)'",
                                     exitCode: 2)
            }
        }
    }
}
