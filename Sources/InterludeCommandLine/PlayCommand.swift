import Dispatch
import Foundation
import MediaTime
import MPRIS
import NetworkIO
import PlayerEngine
import PlayerInterface
import VirtualTime

/// `interlude play`: plays a stream headlessly with the engine's ``Player``, live or on virtual
/// time, with scripted actions, a transport bar on a terminal and a JSON trace.
enum PlayCommand: Subcommand {
    static let spec = CommandSpec(
        name: "play",
        abstract: "Play a stream headlessly, with its interstitials, showing a live transport bar or a log.",
        discussion: """
            Plays an HLS stream (a multivariant or media playlist) with Interlude's headless player: it loads
            the playlists and segments over HTTP or from files, moves the playhead on a clock, buffers and
            stalls, plays the interstitial breaks (EXT-X-DATERANGE CLASS="com.apple.hls.interstitial") and
            resumes primary content where the schedule says. It checks media but does not decode it.

            Clocks: by default host time is real time. --speed N runs a clock N times as fast (loads still
            take real time). --virtual runs on virtual time as fast as possible: virtual time stands still
            while a load is in flight and jumps to the player's next deadline otherwise, so a two-hour VOD
            plays in moments, with times that are exact and the same from run to run. A live stream on virtual time needs
            --duration, and plays faster than the server's live edge moves, so it catches up and stalls there.

            Outages: a load that fails in a way that may pass (no connection, a time-out, a 5xx) is retried
            with growing waits (--retry-delay, doubling up to --retry-max-delay) for as long as media is
            buffered ahead, so playback rides out a server that is away for less than the buffer; once the
            buffer runs dry it is tried --retry-attempts times in all, then the player fails over to another
            variant or fails. The log and the summary say when an outage began and when it was recovered
            from. With --speed the waits are real time (the server's outage is); on --virtual they are
            virtual, so a real outage there outlasts every retry.

            Limits: a response larger than its limit (--max-playlist-size, --max-asset-list-size,
            --max-segment-size) is cut off as soon as it passes it; a server that sends nothing for --timeout
            or drips a response for longer than --deadline fails the load with a time-out.

            Times (TIME, SECONDS) are seconds such as 30 or 12.5, or amounts such as 30s, 2m or 1m30s.
            Actions run at a host time, counted from the start of the run (before the item is ready they
            wait for it); seek targets are on the primary timeline, seek-integrated targets on the
            integrated timeline (the timeline with the breaks in it: a time inside a break restarts it).

            On a terminal a transport bar is redrawn in place, with notable events scrolling above it:
            '=' primary content played, '-' primary content ahead, 'o' a point break, '#' a range break,
            '|' the playhead; below it the state, the primary time, the current break (its offset, its
            length, whether it can be skipped) and the host time. Elsewhere (a pipe, a log file) one line is
            printed per notable event: state changes, breaks starting and ending, stalls, retries, warnings.
            A summary follows: how the run ended, the positions reached, the time played, the breaks, the
            stalls and the warnings. With --trace - standard output carries only the trace and the summary
            goes to standard error. Errors always go to standard error.

            Now playing: --mpris publishes the player on the D-Bus session bus (DBUS_SESSION_BUS_ADDRESS) as
            an MPRIS media player, org.mpris.MediaPlayer2.interlude, for media keys, desktop widgets and
            playerctl: its title (--title, or the URL's last path component), its length and position on the
            integrated timeline (a break that fills time counts; a point break holds the position still),
            and Play, Pause, PlayPause, Stop, Seek, SetPosition, Rate and Quit from any client. A Seeked
            signal tells clients each time the position jumps: a seek, or primary content resuming after a
            break. Real time only: not with --virtual or --speed.

            Exit status: 0 when the item plays to its end, --duration passes or Ctrl-C stops it; 1 when
            playback fails (a host that cannot be reached, an HTTP error such as 404, media that cannot be
            loaded after retries); 2 when the input is not a playable playlist (no such file, a directory,
            text that is not an http, https or file URL, a malformed playlist, a playlist without
            segments); 64 for bad usage.
            """,
        arguments: [.init(name: "url-or-file", help: "The stream: an http:// or https:// URL, a file:// URL, or a playlist file path.")],
        options: [
            .init(long: "speed", short: nil, valueName: "N", help: "Run host time N times as fast as real time (for example 10, or 0.5)."),
            .init(long: "virtual", short: nil, valueName: nil, help: "Play on virtual time, as fast as possible; real loads are waited for."),
            .init(long: "start", short: nil, valueName: "SECONDS", help: "Start at this time on the primary timeline (default: EXT-X-START, the start of a VOD, or near the live edge)."),
            .init(long: "duration", short: nil, valueName: "SECONDS", help: "Stop after this much host time (default: when the item ends; a live stream then plays until Ctrl-C)."),
            .init(long: "action", short: nil, valueName: "TIME:VERB[:ARG]",
                  help: "At host TIME, do VERB: seek:SECONDS, seek-integrated:SECONDS, seek-break:ID@SECONDS (into a break at an offset), pause, play, rate:R or skip (the current break, if skippable).",
                  isRepeatable: true),
            .init(long: "trace", short: nil, valueName: "FILE", help: "Write one JSON line per player event, {\"t\":<host seconds>,\"event\":<name>,<fields>}, to FILE ('-' for standard output)."),
            .init(long: "quiet", short: "q", valueName: nil, help: "Show no transport bar, log or summary; only errors (and the trace, if asked for)."),
            .init(long: "mpris", short: nil, valueName: nil, help: "Publish the player on the session bus (MPRIS) for media keys, desktop widgets and playerctl."),
            .init(long: "title", short: nil, valueName: "TITLE", help: "The title --mpris publishes (default: the URL's last path component)."),
            .init(long: "retry-attempts", short: nil, valueName: "N",
                  help: "Try a resource N times before failing over or giving up when nothing is buffered (default 3; while media is buffered, failures that may pass are retried until it runs dry)."),
            .init(long: "retry-delay", short: nil, valueName: "SECONDS", help: "The wait before the first retry; it doubles each time (default 0.5)."),
            .init(long: "retry-max-delay", short: nil, valueName: "SECONDS", help: "The longest wait between two attempts (default 4)."),
            .init(long: "timeout", short: nil, valueName: "SECONDS", help: "Fail a load when the server sends nothing for this long (default 15)."),
            .init(long: "deadline", short: nil, valueName: "SECONDS", help: "Fail a load whose whole response takes longer than this (default 60)."),
            .init(long: "max-playlist-size", short: nil, valueName: "BYTES", help: "The largest playlist accepted, such as 16M (default 16 MiB)."),
            .init(long: "max-asset-list-size", short: nil, valueName: "BYTES", help: "The largest asset list accepted, such as 512k (default 1 MiB)."),
            .init(long: "max-segment-size", short: nil, valueName: "BYTES", help: "The largest segment or init section accepted, such as 128M (default 64 MiB)."),
        ],
        examples: [
            "interlude play ./stream/main.m3u8                                    # a playlist file; its segments next to it",
            "python3 -m http.server 8000 --directory ./stream &                   # serve a folder over HTTP,",
            "interlude play http://127.0.0.1:8000/main.m3u8                       # then play it",
            "interlude origin &                                                   # the project's origin, then",
            "interlude play http://127.0.0.1:8080/vod/movie/alice/main.m3u8       # alice's VOD of movie (premium: empty breaks)",
            "interlude play --speed 10 --action 30s:seek:90 --action 45s:pause --action 50s:play http://127.0.0.1:8080/vod/movie/bob/main.m3u8",
            "interlude play --virtual --trace - ./stream/main.m3u8 | grep breakEnded",
            "interlude play --virtual --duration 5m --trace run.jsonl http://127.0.0.1:8080/live/channel/bob/main.m3u8",
            "interlude play --virtual --action 1m:seek-integrated:0 --action 1m5s:skip ./stream/main.m3u8",
            "interlude play --mpris --title 'Big Movie' http://127.0.0.1:8080/vod/movie/bob/main.m3u8 &   # then: playerctl -p interlude pause",
        ]
    )

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let options = try Options(arguments)
        let url = try resolve(options.location)
        let trace = try makeTrace(options.trace, io: io)
        let mode: PlayDisplay.Mode = options.isQuiet || options.trace == "-" ? .silent : io.isTerminal ? .bar : .lines
        let display = PlayDisplay(mode: mode, io: io)
        let item = PlayerItem(url: url, startTime: options.start)
        let loader = HTTPResourceLoader(timeout: options.timeout, deadline: options.deadline, maxBytes: options.configuration.maxSegmentBytes)

        let (session, ending): (PlaySession, PlaySession.Ending)
        if options.isVirtual {
            let driver = VirtualTimeDriver()
            let player = Player(clock: driver.clock, loader: loader, configuration: options.configuration, executor: driver.executor)
            session = PlaySession(player: player, actions: options.actions, durationLimit: options.duration, display: display, trace: trace,
                                  clockName: "virtual", isVirtual: true)
            player.replaceCurrentItem(with: item)
            player.play()
            // Ctrl-C and SIGTERM interrupt the session, not the process: the summary is printed and the
            // terminal left tidy.
            ending = await withInterruption(session.interrupt) { session.runVirtual(driver: driver) }
        } else if let speed = options.speed, speed != 1 {
            (session, ending) = try await playRealTime(item, clock: ScaledClock(base: ContinuousClock(), speed: speed), speed: speed, loader: loader,
                                                       options: options, display: display, trace: trace, io: io)
        } else {
            (session, ending) = try await playRealTime(item, clock: ContinuousClock(), speed: 1, loader: loader, options: options, display: display, trace: trace,
                                                       io: io)
        }
        return finish(session, ending, url: url, options: options, io: io)
    }

    /// Plays on `clock`, real time or scaled, redrawing a few times per real second.
    private static func playRealTime<C: Clock>(_ item: PlayerItem, clock: C, speed: Double, loader: HTTPResourceLoader, options: Options,
                                               display: PlayDisplay, trace: PlayTrace?, io: CommandIO) async throws -> (PlaySession, PlaySession.Ending) where C.Duration == Duration {
        // The player's waits are host time, which runs `speed` times as fast: its retry waits are
        // scaled so that they stay real time, as the server's outage is.
        var configuration = options.configuration
        configuration.retryBackoff = configuration.retryBackoff * speed
        configuration.maxRetryDelay = configuration.maxRetryDelay * speed
        let player = Player(clock: clock, loader: loader, configuration: configuration)
        let name = speed == 1 ? "real time" : "\(speed.rounded() == speed ? String(Int(speed)) : String(speed))× real time"
        let session = PlaySession(player: player, actions: options.actions, durationLimit: options.duration, display: display, trace: trace,
                                  clockName: name, isVirtual: false)
        let service = try options.isMPRIS ? publish(player, url: item.url, options: options, session: session) : nil
        player.replaceCurrentItem(with: item)
        player.play()
        // Four redraws per second of host time, but no more than twenty per real second.
        let tick: Duration = speed < 1 ? .milliseconds(250) * speed : max(.milliseconds(250), .milliseconds(50) * speed)
        let ending = await withInterruption(session.interrupt) {
            await withTaskGroup { group in
                if let service {
                    group.addTask {
                        do { try await service.run() } catch { io.writeError("warning: now playing is no longer published: \(error)\n") }
                    }
                }
                let ending = await session.runRealTime(clock: clock, tick: tick)
                group.cancelAll()
                return ending
            }
        }
        return (session, ending)
    }

    /// The MPRIS service for `--mpris`: the player on the session bus, titled from `--title` or
    /// the URL; a client's Quit ends the run as Ctrl-C does.
    private static func publish(_ player: Player, url: String, options: Options, session: PlaySession) throws -> MPRISService {
        let title = options.title ?? URL(string: url)?.lastPathComponent ?? url
        do {
            return try MPRISService(player: player, info: NowPlayingInfo(title: title), handlers: MPRISService.Handlers(quit: session.interrupt))
        } catch {
            throw CommandFailure(message: "--mpris: \(error)")
        }
    }

    /// Prints the summary and the error, if any, and gives the exit status.
    private static func finish(_ session: PlaySession, _ ending: PlaySession.Ending, url: String, options: Options, io: CommandIO) -> Int32 {
        let summary = session.finish(ending)
        // A run that never got going, or a usage problem found late, ends with the error alone.
        let showsSummary = !options.isQuiet && ending != .liveNeedsDuration && (session.report.isReady || ending == .interrupted)
        if showsSummary {
            if options.trace == "-" { io.writeError(summary) } else { io.write("\n" + summary) }
        }
        switch ending {
        case .failed(let error):
            let reason = error.url == nil || error.url == url ? error.message : error.description
            io.writeError("error: cannot play " + TerminalText.escaped("\(options.location): \(reason)", keepingNewlines: true) + "\n")
            return error.kind == .load ? 1 : 2
        case .liveNeedsDuration:
            io.writeError("error: \(options.location) is a live stream; on virtual time it needs --duration (for example --duration 5m)\n")
            return 64
        case .playedToEnd, .durationReached, .interrupted, .idle:
            return 0
        }
    }

    // MARK: Input

    /// The item's URL for `location`: an http(s) or file URL as given, a path as a file URL.
    ///
    /// - Throws: ``CommandFailure`` with exit status 2 when there is nothing to play there.
    static func resolve(_ location: String) throws -> String {
        let lowercased = location.lowercased()
        if lowercased.hasPrefix("http://") || lowercased.hasPrefix("https://") {
            guard let url = URL(string: location), let host = url.host, !host.isEmpty else {
                throw CommandFailure(message: "cannot play \(location): not a valid URL", exitCode: 2)
            }
            return location
        }
        let path: String
        if lowercased.hasPrefix("file://") {
            guard let url = URL(string: location), url.isFileURL else {
                throw CommandFailure(message: "cannot play \(location): not a valid file URL", exitCode: 2)
            }
            path = url.path
        } else if let separator = location.range(of: "://") {
            let scheme = location[..<separator.lowerBound]
            throw CommandFailure(message: "cannot play \(location): the \(scheme) scheme is not supported; give an http, https or file URL or a path",
                                 exitCode: 2)
        } else {
            path = location
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandFailure(message: "cannot play \(location): no such file", exitCode: 2)
        }
        guard !isDirectory.boolValue else {
            throw CommandFailure(message: "cannot play \(location): it is a directory; give a playlist file in it, or serve it over HTTP", exitCode: 2)
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw CommandFailure(message: "cannot play \(location): the file cannot be read", exitCode: 2)
        }
        if lowercased.hasPrefix("file://") { return location }
        return URL(fileURLWithPath: path).standardizedFileURL.absoluteString
    }

    /// The trace for `--trace FILE`.
    private static func makeTrace(_ destination: String?, io: CommandIO) throws -> PlayTrace? {
        switch destination {
        case nil:
            return nil
        case "-"?:
            return PlayTrace { io.write($0) }
        case let path?:
            guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
                throw CommandFailure(message: "cannot write the trace to \(path)")
            }
            return PlayTrace { handle.write(Data($0.utf8)) }
        }
    }

    /// The options, checked.
    struct Options {
        var location: String
        var speed: Double?
        var isVirtual: Bool
        var start: MediaTime?
        var duration: Duration?
        var actions: [PlayAction]
        var trace: String?
        var isQuiet: Bool
        var isMPRIS: Bool
        var title: String?
        var configuration = PlayerConfiguration()
        var timeout: TimeInterval = 15
        var deadline: TimeInterval = 60

        init(_ arguments: ParsedArguments) throws {
            location = arguments.positionals[0]
            isVirtual = arguments.flag("virtual")
            isQuiet = arguments.flag("quiet")
            isMPRIS = arguments.flag("mpris")
            title = arguments.value("title")
            speed = try arguments.value("speed").map { value in
                guard let speed = Double(value), speed.isFinite, speed > 0, speed <= 1000 else {
                    throw UsageError(message: "--speed must be a number above 0 and at most 1000, such as 10 or 0.5, not '\(value)'", command: spec)
                }
                return speed
            }
            if speed != nil, isVirtual {
                throw UsageError(message: "--speed and --virtual cannot be used together: virtual time already runs as fast as it can", command: spec)
            }
            if isMPRIS, isVirtual || (speed ?? 1) != 1 {
                throw UsageError(message: "--mpris plays in real time: clients move the position at the rate it publishes; leave out --virtual and --speed", command: spec)
            }
            if title != nil, !isMPRIS {
                throw UsageError(message: "--title is the title --mpris publishes; give --mpris too", command: spec)
            }
            start = try arguments.value("start").map { value in
                guard let time = PlayTime.parse(value) else {
                    throw UsageError(message: "--start must be a time such as 90, 90s or 1m30s, not '\(value)'", command: spec)
                }
                return time
            }
            duration = try arguments.value("duration").map { value in
                guard let time = PlayTime.parse(value), time > .zero else {
                    throw UsageError(message: "--duration must be a time above zero such as 60, 60s or 1m30s, not '\(value)'", command: spec)
                }
                return PlayTime.duration(time)
            }
            actions = try arguments.values("action").map { text in
                do throws(PlayAction.SyntaxError) {
                    return try PlayAction(parsing: text)
                } catch {
                    throw UsageError(message: error.message, command: spec)
                }
            }
            trace = arguments.value("trace")
            if trace?.isEmpty == true {
                throw UsageError(message: "--trace needs a file name, or '-' for standard output", command: spec)
            }
            if let value = arguments.value("retry-attempts") {
                guard let count = Int(value), (1...1000).contains(count) else {
                    throw UsageError(message: "--retry-attempts must be a whole number from 1 to 1000, not '\(value)'", command: spec)
                }
                configuration.maxAttempts = count
            }
            func seconds(_ name: String, within range: ClosedRange<MediaTime>) throws -> Duration? {
                try arguments.value(name).map { value in
                    guard let time = PlayTime.parse(value), range.contains(time) else {
                        throw UsageError(message: "--\(name) must be a time from \(PlayTime.seconds(range.lowerBound)) to \(PlayTime.seconds(range.upperBound)) seconds, such as 2 or 1.5, not '\(value)'", command: spec)
                    }
                    return PlayTime.duration(time)
                }
            }
            if let delay = try seconds("retry-delay", within: MediaTime(value: 1, timescale: 1000)...MediaTime(seconds: 600)) {
                configuration.retryBackoff = delay
            }
            if let delay = try seconds("retry-max-delay", within: MediaTime(value: 1, timescale: 1000)...MediaTime(seconds: 3600)) {
                configuration.maxRetryDelay = delay
            }
            if configuration.maxRetryDelay < configuration.retryBackoff {
                throw UsageError(message: "--retry-max-delay must not be shorter than --retry-delay", command: spec)
            }
            if let time = try seconds("timeout", within: MediaTime(value: 1, timescale: 10)...MediaTime(seconds: 3600)) {
                timeout = MediaTime(time).seconds
            }
            if let time = try seconds("deadline", within: MediaTime(value: 1, timescale: 10)...MediaTime(seconds: 86_400)) {
                deadline = MediaTime(time).seconds
            }
            func size(_ name: String) throws -> Int? {
                try arguments.value(name).map { value in
                    guard let bytes = PlayTime.parseByteCount(value), bytes > 0, bytes <= 1 << 40 else {
                        throw UsageError(message: "--\(name) must be a size such as 4096, 512k, 16M or 1G, not '\(value)'", command: spec)
                    }
                    return bytes
                }
            }
            if let bytes = try size("max-playlist-size") { configuration.maxPlaylistBytes = bytes }
            if let bytes = try size("max-asset-list-size") { configuration.maxAssetListBytes = bytes }
            if let bytes = try size("max-segment-size") { configuration.maxSegmentBytes = bytes }
        }
    }
}
