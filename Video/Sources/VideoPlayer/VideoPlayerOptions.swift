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

    public var url: String
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

    public static func parse(_ arguments: [String]) throws(UsageError) -> Parsed {
        var url: String?
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
        guard let url else { throw UsageError(message: "give the URL of an HLS media playlist") }
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
            throw UsageError(message: "'\(url)' is not an http:// or https:// URL (GStreamer's HLS demuxer reads HLS over HTTP only)")
        }
        if display != nil, mode != nil { throw UsageError(message: "--display is for the window; --headless and --measure have none") }
        var options = VideoPlayerOptions(url: url)
        options.output = mode ?? .window(display: display)
        options.isMuted = isMuted
        options.stopAfter = stopAfter
        return .run(options)
    }

    public static let help = """
        interlude-video: play an HLS stream with its interstitials, in a window, with sound.

        Usage: interlude-video [options] URL

        Loads the media playlist at URL (http:// or https://), builds its interstitial schedule
        (EXT-X-DATERANGE CLASS="com.apple.hls.interstitial": X-ASSET-URI or X-ASSET-LIST, CUE,
        X-SNAP, X-RESUME-OFFSET, X-RESTRICT) as `interlude timeline` does, fetches each break's asset
        list, and plays primary and every break in GStreamer pipelines of their own (playbin3),
        switching to the ad where primary reaches the break and back at the resumption point. The
        controls strip under the video shows the breaks: a dot for a point break, a span for a range
        break, the playhead, and in a break its countdown.

        Keys (in the window):
          space          play or pause
          left / right   seek 10 seconds back or forward on the integrated timeline; a seek into a break
                         plays it from its start, one past a break with X-RESTRICT="JUMP" plays that
                         break first; in a break, right skips it unless X-RESTRICT="SKIP"
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
          --stop-after SECONDS quit after this long
          -h, --help           this help
          --version            the version

        Output: one line per event on stdout (break started, resumed, skipped; seeks; the end).
        Exit status: 0 at the end of the stream, on q or --stop-after; 1 when the stream cannot be
        loaded or played (the message on stderr names the URL, and the line for a bad playlist);
        64 for a bad command line.

        Examples:
          interlude origin &
          interlude-video http://127.0.0.1:8080/vod/movie/charlie/main.m3u8
          interlude-video --measure http://127.0.0.1:8080/vod/movie/charlie/main.m3u8
        """
}
