import HLSPlaylist
import NetworkIO

/// `interlude validate`: checks playlists against the specification's rules.
enum ValidateCommand: Subcommand {
    static let spec = CommandSpec(
        name: "validate",
        abstract: "Check playlists against RFC 8216bis and the HLS interstitials rules; exit 2 on errors.",
        discussion: """
            Parses each playlist leniently and checks every rule: the specification's MUST / MUST NOT rules
            for media and multivariant playlists, the EXT-X-DATERANGE rules and the interstitial rules of
            Appendix D. Each finding has a stable rule id, a severity, a line and a message that says how to
            fix it. Exit status: 0 when no errors were found (warnings allowed), 2 when any playlist has an
            error, 1 when a playlist cannot be read.
            With --previous, the first playlist is checked as a reload of the given earlier one (date ranges
            must not change attributes across reloads, a delta update must be expandable).
            """,
        arguments: [.init(name: "playlist", help: "Playlist file paths or http(s):// URLs.", isVariadic: true, isOptional: true)],
        options: [
            .init(long: "format", short: nil, valueName: "text|json", help: "Output format (default: text)."),
            .init(long: "previous", short: nil, valueName: "playlist", help: "An earlier version of the (single) playlist, to check a live reload."),
            .init(long: "strict-warnings", short: nil, valueName: nil, help: "Exit 2 on warnings too."),
            .init(long: "list-rules", short: nil, valueName: nil, help: "Print every rule id with its severity and summary, and exit."),
        ],
        examples: [
            "interlude validate stream.m3u8",
            "interlude validate --format json *.m3u8",
            "interlude validate --previous reload-1.m3u8 reload-2.m3u8",
        ]
    )

    struct FileReport: Encodable {
        var location: String
        var errors: Int
        var warnings: Int
        var diagnostics: [PlaylistDiagnostic]
    }

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let format = try OutputFormat(arguments.value("format"))
        if arguments.flag("list-rules") {
            for rule in PlaylistValidator.rules {
                io.write("\(rule.id)\t\(rule.severity.rawValue)\t\(rule.summary)\n")
            }
            return 0
        }
        guard !arguments.positionals.isEmpty else {
            throw UsageError(message: "missing argument <playlist>", command: spec)
        }
        var previous: MediaPlaylist?
        if let previousLocation = arguments.value("previous") {
            guard arguments.positionals.count == 1 else {
                throw UsageError(message: "--previous checks a reload of one playlist; give exactly one <playlist>", command: spec)
            }
            let (bytes, uri) = try await CommandLineInput.load(previousLocation)
            previous = (try? PlaylistParser.parse(bytes, options: ParseOptions(mode: .lenient, playlistURI: uri)))?.playlist.media
            if previous == nil { throw CommandFailure(message: "\(previousLocation) is not a media playlist") }
        }
        var reports: [FileReport] = []
        var failed = false
        for location in arguments.positionals {
            let loaded: (bytes: [UInt8], uri: String)
            do {
                loaded = try await CommandLineInput.load(location)
            } catch let failure as CommandFailure {
                io.writeError("error: \(TerminalText.escaped(failure.message, keepingNewlines: true))\n")
                failed = true
                continue
            }
            let diagnostics = PlaylistValidator.validate(loaded.bytes, options: ParseOptions(mode: .lenient, playlistURI: loaded.uri), previous: previous)
            reports.append(FileReport(
                location: location,
                errors: diagnostics.count { $0.severity == .error },
                warnings: diagnostics.count { $0.severity == .warning },
                diagnostics: diagnostics
            ))
        }
        switch format {
        case .json:
            io.write(try JSONOutput.encode(reports))
        case .text:
            for report in reports {
                for diagnostic in report.diagnostics {
                    let line = diagnostic.line.map { ":\($0)" + (diagnostic.column.map { ":\($0)" } ?? "") } ?? ""
                    io.write(TerminalText.escaped("\(report.location)\(line): \(diagnostic.severity.rawValue): \(diagnostic.message) [\(diagnostic.ruleID)]") + "\n")
                }
                let verdict = report.errors > 0 ? "invalid" : "valid"
                io.writeError("\(report.location): \(verdict) (\(count(report.errors, "error")), \(count(report.warnings, "warning")))\n")
            }
        }
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        let strictWarnings = arguments.flag("strict-warnings")
        if reports.contains(where: { $0.errors > 0 || (strictWarnings && $0.warnings > 0) }) { return 2 }
        return failed ? 1 : 0
    }
}
