/// `interlude-video`'s command line.
public struct VideoPlayerOptions: Sendable, Hashable {
    public enum Output: Sendable, Hashable {
        /// The player window, sound to the default audio sink (or a fakesink with `--mute`).
        case window(display: String?)
        /// No window, no sound: video and audio to `fakesink sync=true`.
        case headless
        /// Headless, every rendered buffer logged: each break's switch timing at the end.
        case measure
    }

    /// Where the stream comes from.
    public enum Source: Sendable, Hashable {
        /// A media playlist's URL.
        case url(String)
        /// A watch-together session: its stream, followed with the group.
        case join(GroupInvitation)
    }

    /// A watch-together session to join (`--join INVITATION --name NAME --policy POLICY`).
    public struct GroupInvitation: Sendable, Hashable {
        /// The waiting policy (`--policy`), as `interlude join` has it.
        public enum Policy: String, Sendable, Hashable {
            /// Ad watchers catch up (only a seek makes the group wait).
            case `default`
            /// The group waits for ads and stalls too (Apple's waiting policy).
            case waiting
        }

        /// The invitation's token (its fragment).
        public var token: String
        /// The group server's WebSocket URL: `ws://HOST:PORT/group` from `http://HOST:PORT/join#TOKEN`.
        public var server: String
        /// The name the others see, and the stream's `{viewer}`.
        public var name: String
        public var policy: Policy = .default

        /// The invitation `text` (`http://HOST:PORT/join#TOKEN`, or `https`).
        public init(invitation text: String, name: String, policy: Policy = .default) throws(UsageError) {
            guard let hash = text.firstIndex(of: "#"), let url = URLParts(String(text[..<hash])), url.scheme == "http" || url.scheme == "https" else {
                throw UsageError(message: "--join takes an invitation URL, http://HOST:PORT/join#TOKEN (as `interlude session create` prints it)")
            }
            let token = String(text[text.index(after: hash)...])
            guard !token.isEmpty else { throw UsageError(message: "the invitation '\(text)' has no token after '#'") }
            guard (1...64).contains(name.utf8.count), name.allSatisfy({ !$0.isNewline }) else {
                throw UsageError(message: "--name must be 1 to 64 bytes on one line")
            }
            self.token = token
            server = "\(url.scheme == "https" ? "wss" : "ws")://\(url.authority)/group"
            self.name = name
            self.policy = policy
        }
    }

    public var source: Source
    public var output: Output = .window(display: nil)
    public var isMuted = false
    /// Quit after this long of real time.
    public var stopAfter: Duration?

    /// A bad command line (exit status 64).
    public struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
        public var message: String
        public var description: String { "interlude-video: \(message)\nTry 'interlude-video --help'." }
    }

    public enum Parsed: Sendable, Hashable {
        case run(VideoPlayerOptions)
        case help
        case version
    }

    public init(source: Source) {
        self.source = source
    }

    public static func parse(_ arguments: [String]) throws(UsageError) -> Parsed {
        var url: String?
        var invitation: String?
        var name: String?
        var policy: GroupInvitation.Policy?
        var display: String?
        var mode: Output?
        var isMuted = false
        var stopAfter: Duration?
        var index = 0
        func value(_ option: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw UsageError(message: "\(option) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "-h", "--help": return .help
            case "--version": return .version
            case "--mute": isMuted = true
            case "--headless": mode = .headless
            case "--measure": mode = .measure
            case "--display": display = try value(argument)
            case "--join": invitation = try value(argument)
            case "--name": name = try value(argument)
            case "--policy":
                let text = try value(argument)
                guard let parsed = GroupInvitation.Policy(rawValue: text) else {
                    throw UsageError(message: "--policy must be default or waiting, not '\(text)'")
                }
                policy = parsed
            case "--stop-after":
                let text = try value(argument)
                guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                    throw UsageError(message: "--stop-after takes a positive number of seconds, not '\(text)'")
                }
                stopAfter = .milliseconds(Int64((seconds * 1000).rounded()))
            default:
                if argument.hasPrefix("-") { throw UsageError(message: "unknown option '\(argument)'") }
                guard url == nil else { throw UsageError(message: "one URL only ('\(url ?? "")', then '\(argument)')") }
                url = argument
            }
            index += 1
        }
        let source: Source
        if let invitation {
            if let url { throw UsageError(message: "--join plays the session's stream: no URL with it ('\(url)')") }
            guard let name else { throw UsageError(message: "--join needs --name (the name the others see, and the stream's {viewer})") }
            source = .join(try GroupInvitation(invitation: invitation, name: name, policy: policy ?? .default))
        } else {
            if name != nil || policy != nil { throw UsageError(message: "--name and --policy are for --join") }
            guard let url else { throw UsageError(message: "give the URL of an HLS media playlist, or --join INVITATION") }
            guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
                throw UsageError(message: "'\(url)' is not an http:// or https:// URL (GStreamer's HLS demuxer reads HLS over HTTP only)")
            }
            source = .url(url)
        }
        if display != nil, mode != nil { throw UsageError(message: "--display is for the window; --headless and --measure have none") }
        var options = VideoPlayerOptions(source: source)
        options.output = mode ?? .window(display: display)
        options.isMuted = isMuted
        options.stopAfter = stopAfter
        return .run(options)
    }

    public static let help = """
        interlude-video: play an HLS stream with its interstitials, in a window, with sound.

        Usage: interlude-video [options] URL
               interlude-video [options] --join INVITATION --name NAME [--policy default|waiting]

        Loads the media playlist at URL (http:// or https://), builds its interstitial schedule
        (EXT-X-DATERANGE CLASS="com.apple.hls.interstitial": X-ASSET-URI or X-ASSET-LIST, CUE,
        X-SNAP, X-RESUME-OFFSET, X-RESTRICT) as `interlude timeline` does, fetches each break's asset
        list, and plays primary and every break in GStreamer pipelines of their own (playbin3),
        switching to the ad where primary reaches the break and back at the resumption point. The
        controls strip under the video shows the breaks: a dot for a point break, a span for a range
        break, the playhead, and in a break its countdown.

        With --join, it takes part in a watch-together session (`interlude session create` prints
        the invitations) as `interlude join` does, and plays the session's stream with this viewer's
        ads ({viewer} becomes NAME): a headless player in step with the group says where this
        viewer should be, and the video follows it: it plays and pauses with the group, seeks when
        it is more than 250 ms off, plays a break when the group has this viewer in it and ends it
        when the group has left it. The keys then act for the group (space, left / right), as far
        as the invitation's role allows; the strip shows the group's state.

        Keys (in the window):
          space          play or pause
          left / right   seek 10 seconds back or forward on the integrated timeline; a seek into a break
                         plays it from the offset sought (from its start with X-RESTRICT="SKIP"), one
                         past a break with X-RESTRICT="JUMP" plays that break first; in a break, right
                         skips it unless X-RESTRICT="SKIP"
          s              skip the break playing, unless X-RESTRICT="SKIP"
          f              full screen, or back
          i              picture in picture, or back
          q              quit

        Options:
          --mute               no sound (the audio goes to a fakesink)
          --display NAME       the X display (default: $DISPLAY)
          --headless           no window and no sound: video and audio to fakesinks, on the clock
          --measure            headless, and every rendered buffer logged: at the end, for each break,
                               the first ad frame and the first frame after the break against the
                               schedule, and the A/V offset (one 'timing' line each, tab-separated)
          --join INVITATION    follow a watch-together session (http://HOST:PORT/join#TOKEN)
          --name NAME          with --join: the name the others see, and the stream's {viewer}
          --policy POLICY      with --join: default (ad watchers catch up) or waiting (the group
                               waits for ads)
          --stop-after SECONDS quit after this long
          -h, --help           this help
          --version            the version

        Output: one line per event on stdout (break started, resumed, skipped; seeks; the end);
        with --join, one 'follow' line per action taken to follow the group and, with --measure,
        a 'sample' line four times a second (CLOCK_REALTIME in ns, the video's position, the
        reference's).
        Exit status: 0 at the end of the stream, on q or --stop-after; 1 when the stream cannot be
        loaded or played (the message on stderr names the URL, and the line for a bad playlist);
        64 for a bad command line.

        Examples:
          interlude origin &
          interlude-video http://127.0.0.1:8080/vod/movie/charlie/main.m3u8
          interlude-video --measure http://127.0.0.1:8080/vod/movie/charlie/main.m3u8
          interlude-video --join 'http://127.0.0.1:7400/join#v1.k1.…' --name charlie
        """
}

/// The scheme and authority of an `http://HOST:PORT/…` URL, without Foundation.
struct URLParts: Sendable, Hashable {
    var scheme: String
    /// `HOST:PORT` (or `HOST`), as written.
    var authority: String

    init?(_ text: String) {
        guard let separator = text.firstRange(of: "://") else { return nil }
        scheme = text[..<separator.lowerBound].lowercased()
        let rest = text[separator.upperBound...]
        authority = String(rest.prefix { $0 != "/" && $0 != "?" })
        guard !authority.isEmpty, !authority.contains("@") else { return nil }
    }
}
