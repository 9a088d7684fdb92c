import Foundation
import GroupSimulation
import StreamOrigin

/// `interlude simulate`: a group watching together, on virtual time.
enum SimulateCommand: Subcommand {
    static let spec = CommandSpec(
        name: "simulate",
        abstract: "Simulate a group watching together with different ads, and report who waited, who caught up and by how much.",
        discussion: """
            Runs a scenario on virtual time: each participant has Interlude's real player engine loading its
            own playlists and asset lists (its own ads) from an in-process origin, the real playback
            coordinator bound to it, a local clock with its own offset and drift synchronised with the group
            clock by NTP-style exchanges, and reliable channels to the others over a simulated network with
            latency, jitter, loss, reordering and partitions. Users' actions (play, pause, seek, rate, leave,
            rejoin) happen at the times the scenario gives. The run is exactly repeatable from its seed.

            The report gives, per participant, the time it waited for the group, the time it spent in its own
            breaks, the primary content it skipped to catch up (or went back over to rejoin), the drift
            corrections made and its final position; for the group, the skew between participants that play
            steadily (p50, p95, p99, max, in milliseconds of content) in steady playback and one second after
            each start, resume and seek; and what happened when (who the group waited for).

            The scenario is JSON: name, description, duration ("2h", "90s", "250ms" or seconds), seed,
            origin (an origin configuration file; default: alice premium, bob 15 s of ads, charlie 10 + 20 s,
            dana a legal warning in region DE), policy { waitFor: [suspension reasons, e.g.
            "playingInterstitial"], participantLimits: {reason: n}, pauseSnapsToOriginator }, network
            { latency, jitter, loss, reorder, partitions: [{participant, from, until}] }, participants
            [{ name, viewer, stream (movie, movie-stitched, channel, channel-stitched), kind (vod, live),
            clock { offset, driftPPM }, joinAt, network }], actions [{ at, participant, action, to, rate }];
            a seek goes to one of: to (item time), timeline (integrated time: inside a fill break, that
            offset into it), or break (an event ID) with offset. Examples/Scenarios holds the stories of
            the talks.
            """,
        arguments: [.init(name: "scenario", help: "A scenario JSON file.")],
        options: [
            .init(long: "format", short: nil, valueName: "text|json", help: "Output format (default: text)."),
            .init(long: "svg", short: nil, valueName: "FILE", help: "Also draw each participant's position against group time, with breaks and waits marked, as SVG."),
            .init(long: "seed", short: nil, valueName: "N", help: "Override the scenario's seed."),
            .init(long: "duration", short: nil, valueName: "TIME", help: "Override the scenario's duration (e.g. 10m)."),
            .init(long: "trace", short: nil, valueName: "FILE", help: "Write every player event, coordinator command and message of every participant to FILE, one line each, for debugging."),
            .init(long: "media", short: nil, valueName: "DIRECTORY", help: "The media directory (default: Fixtures/Media of this checkout)."),
        ],
        examples: [
            "interlude simulate Examples/Scenarios/live-premium-and-ad-watchers.json",
            "interlude simulate --svg group.svg Examples/Scenarios/vod-group-waits.json",
            "interlude simulate --format json --seed 7 --duration 2h Examples/Scenarios/steady-eight.json",
        ]
    )

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let format = try OutputFormat(arguments.value("format"))
        let path = arguments.positionals[0]
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure(message: "\(path): no such file", exitCode: 2)
        }
        var scenario: SimulationScenario
        do {
            scenario = try SimulationScenario(json: Array(data))
        } catch {
            throw CommandFailure(message: "\(path): \(error)", exitCode: 2)
        }
        if let seed = arguments.value("seed") {
            guard let number = UInt64(seed) else { throw UsageError(message: "--seed must be a whole number, not '\(seed)'", command: spec) }
            scenario.seed = number
        }
        if let text = arguments.value("duration") {
            guard let duration = SimulatedDuration(text: text), duration.duration > .zero else {
                throw UsageError(message: "--duration must be a time such as 90s, 10m or 2h, not '\(text)'", command: spec)
            }
            scenario.duration = duration
        }
        guard let media = arguments.value("media") ?? OriginCommand.defaultMediaDirectory() else {
            throw CommandFailure(message: "cannot find Fixtures/Media from here or from the executable; pass --media <directory>")
        }
        let origin: Origin
        do {
            origin = try scenario.makeOrigin(scenarioDirectory: URL(fileURLWithPath: path).deletingLastPathComponent().path, media: media)
        } catch {
            throw CommandFailure(message: "\(path): \(error)", exitCode: 2)
        }
        var simulator = GroupSimulator(scenario: scenario, origin: origin)
        var traceFile: FileHandle?
        if let tracePath = arguments.value("trace") {
            guard FileManager.default.createFile(atPath: tracePath, contents: nil), let handle = FileHandle(forWritingAtPath: tracePath) else {
                throw CommandFailure(message: "--trace \(tracePath): cannot write the file")
            }
            traceFile = handle
            simulator.trace = { line in handle.write(Data((line + "\n").utf8)) }
        }
        let report = simulator.run()
        try? traceFile?.close()
        if let svgPath = arguments.value("svg") {
            do {
                try report.svg.write(toFile: svgPath, atomically: true, encoding: .utf8)
            } catch {
                throw CommandFailure(message: "--svg \(svgPath): \(error.localizedDescription)")
            }
        }
        switch format {
        case .text: io.write(report.text)
        case .json: io.write(report.json)
        }
        return 0
    }
}
