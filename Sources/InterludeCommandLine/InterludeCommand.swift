import HLSPlaylist
import NetworkIO

/// The `interlude` command line: dispatches to a subcommand and maps its outcome to an exit code
/// (0 success, 1 runtime error, 2 validation failures, 64 bad usage).
///
/// Commands run in-process with an injected ``CommandIO``, so tests call ``run(_:io:)`` directly.
public enum InterludeCommand {
    /// The version printed by `--version`.
    public static let version = "0.1.0"

    /// Every subcommand, in the order `--help` lists them.
    static let subcommands: [any Subcommand.Type] = [
        InspectCommand.self,
        ValidateCommand.self,
        FormatCommand.self,
        TimelineCommand.self,
        OriginCommand.self,
        PlayCommand.self,
        WatchCommand.self,
        SimulateCommand.self,
        ServeCommand.self,
        SessionCommand.self,
        JoinCommand.self,
        DemoCommand.self,
    ]

    static var overview: String {
        var text = """
            OVERVIEW: Interlude — HLS interstitials, the integrated timeline and coordinated playback, in Swift.

            USAGE: interlude <subcommand> [options]

            OPTIONS:
              --version               Show the version.
              -h, --help              Show help information.

            SUBCOMMANDS:

            """
        for command in subcommands {
            let name = command.spec.name
            text += "  \(name)\(String(repeating: " ", count: max(1, 24 - name.count)))\(command.spec.abstract)\n"
        }
        text += "\n  See 'interlude help <subcommand>' or 'interlude <subcommand> --help' for detailed help.\n"
        return text
    }

    /// Runs `arguments` (without the program name) and returns the exit code.
    public static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
        guard let first = arguments.first else {
            io.writeError(overview)
            return 64
        }
        switch first {
        case "-h", "--help":
            io.write(overview)
            return 0
        case "--version":
            io.write("interlude \(version)\n")
            return 0
        case "help":
            if arguments.count > 1, let command = subcommands.first(where: { $0.spec.name == arguments[1] }) {
                io.write(command.spec.helpText)
            } else {
                io.write(overview)
            }
            return 0
        default:
            break
        }
        guard let command = subcommands.first(where: { $0.spec.name == first }) else {
            io.writeError("error: unknown subcommand '\(first)'\n\n\(overview)")
            return 64
        }
        do {
            let parsed = try command.spec.parse(Array(arguments.dropFirst()))
            return try await command.run(parsed, io: io)
        } catch let help as HelpRequest {
            io.write(help.text)
            return 0
        } catch let usage as UsageError {
            var message = "error: \(TerminalText.escaped(usage.message, keepingNewlines: true))\n"
            if let spec = usage.command {
                message += "\(spec.helpText.components(after: "USAGE: "))\nSee 'interlude \(spec.name) --help'.\n"
            }
            io.writeError(message)
            return 64
        } catch let failure as CommandFailure {
            io.writeError("error: \(TerminalText.escaped(failure.message, keepingNewlines: true))\n")
            return failure.exitCode
        } catch {
            io.writeError("error: \(TerminalText.describing(error))\n")
            return 1
        }
    }
}

/// A subcommand: a declared interface and a body.
protocol Subcommand: Sendable {
    static var spec: CommandSpec { get }
    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32
}

extension String {
    /// The `USAGE:` line of a help text, for usage errors.
    fileprivate func components(after marker: String) -> String {
        guard let range = firstRange(of: marker) else { return "" }
        let rest = self[range.lowerBound...]
        return "USAGE:" + String(rest.dropFirst(marker.count - 1).prefix { $0 != "\n" })
    }
}
