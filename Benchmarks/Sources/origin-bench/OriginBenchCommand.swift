#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// The `origin-bench` command line: the servers, the WebSocket client and the timing that
/// `run-origin.sh` uses. Status lines on
/// stdout, progress on stderr; exit status 64 on bad usage and 1 on a runtime error.
enum OriginBenchCommand {
    /// The help text.
    static let usage = """
        usage: origin-bench serve --media DIR [--port N]
               origin-bench baseline --file PATH [--port N]
               origin-bench hold COUNT URL [--in-flight K]
               origin-bench render --media DIR PATH [MIN_SECONDS]

        serve     serves the default origin configuration on the media in DIR, on 127.0.0.1 (port 0, the
                  default, picks a free one), with an echo WebSocket endpoint at /ws on the same port; prints
                  `listening PORT` once it listens and `websockets open=N` on SIGUSR1; SIGINT or SIGTERM stops it
        baseline  serves the bytes of PATH without an origin: /static/NAME through NetworkIO's file route
                  and /constant from a handler that returns them, and the same /ws endpoint; prints as serve does
        hold      opens COUNT WebSocket connections to URL (at most K handshakes at a time, 256 by default) and
                  prints `held opened=N failed=F seconds=S`; then keeps them idle until SIGUSR1, checks that each
                  is still open and echoes one message on each, prints
                  `RESULT held=N open=M echoed=E`, closes them and exits (status 1 unless all COUNT held and echoed)
        render    times the origin's response to PATH (for example /vod/movie/bob/main.m3u8) on one thread,
                  without the network, for MIN_SECONDS (default 3), and prints
                  `RESULT render path=PATH bytes=N iters=K median_us=X min_us=Y`
        """

    /// Runs the command for `arguments` (without the program name) and returns the exit status.
    static func run(_ arguments: [String]) async -> Int32 {
        do {
            switch arguments.first {
            case "serve", "baseline":
                let command = arguments[0]
                let pathOption = command == "serve" ? "--media" : "--file"
                var port = 0
                var path: String?
                var rest = arguments.dropFirst()
                while let option = rest.popFirst() {
                    guard let value = rest.popFirst() else { return usageError("\(option) needs a value") }
                    switch option {
                    case "--port":
                        guard let number = Int(value), (0...65_535).contains(number) else {
                            return usageError("--port must be a TCP port from 0 to 65535")
                        }
                        port = number
                    case pathOption:
                        path = value
                    default:
                        return usageError("unknown option \(option)")
                    }
                }
                guard let path else { return usageError("\(command) needs \(pathOption)") }
                if command == "serve" {
                    try await OriginBenchServer(port: port, mediaDirectory: path).run()
                } else {
                    try await BaselineServer(port: port, file: path).run()
                }
                return 0
            case "hold" where arguments.count == 3 || arguments.count == 5:
                guard let count = Int(arguments[1]), count > 0 else { return usageError("COUNT must be a positive integer") }
                var inFlight = 256
                if arguments.count == 5 {
                    guard arguments[3] == "--in-flight", let value = Int(arguments[4]), value > 0 else {
                        return usageError("expected --in-flight K with K > 0")
                    }
                    inFlight = value
                }
                let holder = WebSocketHolder(count: count, url: arguments[2], handshakesInFlight: inFlight)
                return await holder.run() ? 0 : 1
            case "render" where (arguments.count == 4 || arguments.count == 5) && arguments[1] == "--media":
                var seconds = 3.0
                if arguments.count == 5 {
                    guard let value = Double(arguments[4]), value >= 0 else { return usageError("MIN_SECONDS must be a non-negative number") }
                    seconds = value
                }
                printStatus(try RenderBenchmark(mediaDirectory: arguments[2], path: arguments[3], minimumSeconds: seconds).run())
                return 0
            case "-h", "--help":
                print(usage)
                return 0
            default:
                return usageError(arguments.isEmpty ? "missing command" : "unexpected arguments: \(arguments.joined(separator: " "))")
            }
        } catch {
            printError("origin-bench: \(error)")
            return 1
        }
    }

    private static func usageError(_ message: String) -> Int32 {
        printError("origin-bench: \(message)\n\n\(usage)")
        return 64
    }
}

/// Writes a line to stderr, unbuffered.
func printError(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

/// Writes a line to stdout, unbuffered, so a script reading the output sees it at once.
func printStatus(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
}
