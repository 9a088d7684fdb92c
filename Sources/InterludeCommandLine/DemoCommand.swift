import Foundation
import GroupSimulation
import GroupWire
import HLSPlaylist
import MediaTime
import StreamOrigin

/// `interlude demo`: the mission, seen. Three friends watch together (one premium, two with ads of
/// different lengths), live under the default policy and on demand under the waiting policy, as
/// real processes on loopback; the terminal follows them live, and each story ends with its
/// figures beside `interlude simulate`'s for the same scenario, and a drawing.
package enum DemoCommand: Subcommand {
    static let spec = CommandSpec(
        name: "demo",
        abstract: "The whole story on one machine: three friends watch together, each with their own ads, live and on demand, and stay together.",
        discussion: """
            Starts, on 127.0.0.1, the real processes three friends on three machines would run: an
            `interlude origin` with a live channel and a film whose ads are HLS interstitials decided per
            viewer (alice is premium and gets none, bob gets 15 s, charlie 30 s), an `interlude serve`
            group server keeping its sessions in a SQLite file of a temporary directory, `interlude session
            create` for each story's invitations, and one `interlude join` per friend (alice the session's
            owner, bob a controller, charlie a viewer). Two stories, each a scenario file that
            `interlude simulate` runs too:
              1. live, default policy (S1.9, S1.10; Examples/Scenarios/demo-live.json, 1 min): nobody waits;
                 bob and charlie play their own ads and come back at the live edge, skipping what the
                 channel played meanwhile, in step with alice again;
              2. on demand, waiting policy (S1.11; Examples/Scenarios/demo-vod.json, 1 min 25 s): the group
                 waits for the longest ads; alice waits 30 s, bob 15 s after his ad, nobody misses a second.
            While a story runs, standard error shows each participant's position, break and wait and the
            group's skew. Each story then ends with its summary on standard output: who waited, who played
            ads, who caught up and by how much, the skew's percentiles, each beside what `interlude
            simulate` gives for the same scenario, and whether they agree within the tolerances (±1.5 s for
            times, ±20 ms for the skew's p50, p95 and p99). The drawing of every participant's position
            against time, the demo's beside the simulation's, goes to --svg: the drawing `interlude simulate
            --svg` makes. About three minutes in all.
            Other scenario files play other stories: the demo plays a scenario it can play as the simulator
            does (one stream, a loopback network, no clock offsets, no user action but starting to watch)
            and says why it refuses one it cannot.
            --speed: the players, the group server's clock and the origin's live window are real clocks in
            real processes, and none of them can honestly run faster, so the demo takes only --speed 1. The
            same stories run on virtual time, in well under a second, with `interlude simulate`.
            Every process the demo starts is stopped when it ends: at the end, on Ctrl-C, SIGTERM or SIGHUP,
            and on any failure (which keeps the run's directory, every log in it, and prints where it is).
            Exit status: 0 when every story ran and agrees with the simulation, 2 when a figure differs
            beyond its tolerance or a scenario cannot be played, 1 when a process failed, 130 when stopped.
            """,
        arguments: [
            .init(name: "scenario", help: "Scenario files to play (default: Examples/Scenarios/demo-live.json and demo-vod.json).", isVariadic: true, isOptional: true),
        ],
        options: [
            .init(long: "svg", short: nil, valueName: "file", help: "Where the drawing goes (default: interlude-demo.svg in the temporary directory)."),
            .init(long: "keep-running", short: nil, valueName: nil, help: "Afterwards keep the origin and the group server up, with their URLs and invitations, until Ctrl-C."),
            .init(long: "speed", short: nil, valueName: "factor", help: "Only 1: real processes run on real clocks (see above)."),
            .init(long: "format", short: nil, valueName: "text|json", help: "The summary's format (default: text)."),
            .init(long: "quiet", short: "q", valueName: nil, help: "No live view (each story's introduction and its summary remain)."),
            .init(long: "keep-files", short: nil, valueName: nil, help: "Keep the run's directory (traces, logs, the origin's configuration, the database) and print where it is."),
            .init(long: "media", short: nil, valueName: "directory", help: "The media directory (default: Fixtures/Media of this checkout)."),
        ],
        examples: [
            "interlude demo",
            "interlude demo --svg group.svg --keep-running",
            "interlude demo Examples/Scenarios/demo-vod.json",
            "interlude demo --format json --quiet > summary.json",
        ]
    )

    /// How far ahead of now the first live story is placed, for the services to start meanwhile.
    static let setupLead: Int64 = 5_000_000_000
    /// How long before the story's start the simulator's origin had been live (``GroupSimulator``'s wall clock).
    static let liveLead: Int64 = 120_000_000_000

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let format = try OutputFormat(arguments.value("format"))
        if let speed = arguments.value("speed"), Double(speed) != 1 {
            throw UsageError(
                message: "--speed \(speed): the demo's players, group server and origin run on real clocks in real processes, which cannot "
                    + "honestly run faster; `interlude simulate` runs the same stories on virtual time", command: spec)
        }
        guard let media = arguments.value("media") ?? OriginCommand.defaultMediaDirectory() else {
            throw CommandFailure(message: "cannot find Fixtures/Media from here or from the executable; pass --media <directory>")
        }
        let paths = try arguments.positionals.isEmpty ? defaultScenarios(media: media) : arguments.positionals
        let stories = try paths.map(loadStory)
        let (originJSON, configuration) = try originConfiguration(of: stories)
        let simulations = try stories.map { try simulate($0, media: media) }
        let svgPath = arguments.value("svg") ?? URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("interlude-demo.svg").path
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var template = Array(URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("interlude-demo.XXXXXX").path.utf8CString)
        guard let directory = mkdtemp(&template).map({ String(cString: $0) }) else { throw CommandFailure(message: "cannot make a temporary directory") }
        let run = DemoRun(executable: executable, media: media, directory: directory)
        var keepsDirectory = arguments.flag("keep-files")
        if keepsDirectory { io.writeError("demo: the run's files go to \(directory)\n") }
        defer {
            run.stopAll()
            if !keepsDirectory { try? FileManager.default.removeItem(atPath: directory) }
        }
        let display = arguments.flag("quiet") ? nil : DemoTerminal(io: io, isTerminal: isatty(STDERR_FILENO) == 1)
        return try await withInterruption({ run.interrupt() }, signals: [SIGINT, SIGTERM, SIGHUP]) {
            var summaries: [DemoSummary] = []
            do {
                // The first live story starts a few seconds from now, its stream two minutes
                // before, as the simulator's does.
                let anchor = (JoinTrace.realTime() / 1_000_000_000 + 1) * 1_000_000_000 + setupLead
                let configurationPath = run.file("origin.json")
                try Data(liveStarting(originJSON, at: anchor - liveLead)).write(to: URL(fileURLWithPath: configurationPath))
                io.writeError("demo: starting interlude origin and interlude serve (sessions in \(run.file("sessions.sqlite")))\n")
                let services = try await run.startServices(configurationPath: configurationPath)
                io.writeError("demo: origin \(services.origin), group server \(services.server) (metrics \(services.server)/metrics)\n")
                var sessions: [(DemoStory, DemoRun.Invitations)] = []
                for (index, story) in stories.enumerated() {
                    let invitations = try await run.createSession(
                        named: "session-\(index + 1)", stream: services.origin + "/" + story.streamPath, services: services)
                    sessions.append((story, invitations))
                    let start = storyStart(story, anchor: anchor, configuration: configuration)
                    io.writeError(header(story, invitations: invitations, services: services, configuration: configuration, start: start))
                    let traces = try await play(
                        story, named: "\(index + 1)-\(story.scenario.name)", invitations: invitations, services: services, start: start, run: run, display: display)
                    let report = DemoMeasurement.report(
                        scenario: story.scenario.name, description: story.scenario.description, start: start,
                        duration: story.scenario.duration.duration, participants: traces)
                    let summary = DemoSummary(scenarioPath: story.path, demo: report, simulated: simulations[index], isLive: story.isLive)
                    summaries.append(summary)
                    if format == .text { io.write(summary.text + "\n") }
                }
                do {
                    try DemoSummary.svg(summaries).write(toFile: svgPath, atomically: true, encoding: .utf8)
                } catch {
                    throw CommandFailure(message: "--svg \(svgPath): \(error.localizedDescription)")
                }
                let agrees = summaries.allSatisfy { $0.differences.isEmpty }
                switch format {
                case .text: io.write("drawing: \(svgPath)\n")
                case .json:
                    io.write("{\"stories\":[\(summaries.map(\.json).joined(separator: ","))],\"svg\":\(jsonString(svgPath)),\"agrees\":\(agrees)}\n")
                }
                if arguments.flag("keep-running") {
                    io.writeError(keepRunningText(services: services, sessions: sessions))
                    while !run.isInterrupted {
                        for service in ["origin", "serve"] where !run.running.contains(where: { $0.name == service }) {
                            throw CommandFailure(message: "interlude \(service) stopped")
                        }
                        try? await Task.sleep(for: .milliseconds(200))
                    }
                    io.writeError("demo: stopping\n")
                }
                return agrees ? 0 : 2
            } catch is DemoRun.Interrupted {
                display?.finish()
                io.writeError("demo: stopped; stopping every process it started (\(run.running.map { "\($0.name) \($0.pid)" }.joined(separator: ", ")))\n")
                return 130
            } catch let interrupted as DemoPlayInterrupted {
                display?.finish()
                io.writeError("demo: stopped \(DemoDisplay.clock(nanoseconds: interrupted.elapsed)) into \(interrupted.report.scenario); stopping every process it started\n")
                if format == .text { io.write("stopped early; what was seen until then:\n" + DemoSummary.partialText(interrupted.report)) }
                return 130
            } catch {
                display?.finish()
                keepsDirectory = true
                io.writeError("demo: the run's files and logs are kept in \(directory)\n")
                throw error
            }
        }
    }

    /// The story's start (CLOCK_REALTIME ns): live, a moment the channel is where the simulator's is
    /// when its story starts (a whole number of break intervals after `anchor`); on demand, now.
    package static func storyStart(_ story: DemoStory, anchor: Int64, configuration: OriginConfiguration, now: Int64 = JoinTrace.realTime()) -> Int64 {
        guard story.isLive else { return now + 300_000_000 }
        var period: Int64 = 60_000_000_000
        if case .live(let live)? = configuration.stream(id: story.stream)?.timing, let interval = live.repeatingBreak?.interval {
            period = max(1_000_000_000, Int64((interval.seconds * 1e9).rounded()))
        }
        let soonest = now + 300_000_000
        guard anchor < soonest else { return anchor }
        return anchor + (soonest - anchor + period - 1) / period * period
    }

    /// Runs the story's participants from `start` to their end, showing them live; their traces.
    static func play(_ story: DemoStory, named prefix: String, invitations: DemoRun.Invitations, services: DemoRun.Services, start: Int64, run: DemoRun,
                     display: DemoTerminal?) async throws -> [DemoMeasurement.Participant] {
        var view = DemoDisplay(story: story.scenario.name, policy: story.policyDescription, start: start, duration: story.scenario.duration.duration)
        var joins: [DemoProcess?] = story.members.map { _ in nil }
        let files = story.members.map { GrowingFile(path: run.file("\(prefix)-\($0.name).jsonl")) }
        var traces = story.members.map { _ in DemoTrace() }
        let end = start + DemoMeasurement.nanoseconds(story.scenario.duration.duration)
        let giveUp = end + 30_000_000_000
        func participants() -> [DemoMeasurement.Participant] {
            story.members.enumerated().map { index, member in
                DemoMeasurement.Participant(
                    name: member.name, role: member.role, url: services.origin + "/" + story.streamPath.replacingOccurrences(of: "{viewer}", with: member.name),
                    trace: traces[index])
            }
        }
        while true {
            let now = JoinTrace.realTime()
            if run.isInterrupted {
                for join in joins { join?.stop() }
                for index in files.indices { traces[index].append(files[index].readNew()) }
                let elapsed = now - start
                throw DemoPlayInterrupted(elapsed: elapsed, report: DemoMeasurement.report(
                    scenario: story.scenario.name, description: nil, start: start, duration: .nanoseconds(max(0, elapsed)),
                    participants: participants()))
            }
            for (index, member) in story.members.enumerated() where joins[index] == nil && now >= start + DemoMeasurement.nanoseconds(member.joinAt) {
                joins[index] = try run.start(
                    "\(prefix)-\(member.name)",
                    story.joinArguments(member, invitation: invitations.forRole(member.role), tracePath: run.file("\(prefix)-\(member.name).jsonl")))
            }
            for index in files.indices { traces[index].append(files[index].readNew()) }
            display?.show(&view, at: now, participants: participants())
            for (index, join) in joins.enumerated() {
                guard let join, let status = join.exitStatus, status != 0 else { continue }
                throw CommandFailure(message: "\(story.members[index].name)'s interlude join exited with \(status):\n\(DemoRun.tail(join.errorOutput))")
            }
            for service in ["origin", "serve"] where !run.running.contains(where: { $0.name == service }) {
                throw CommandFailure(message: "interlude \(service) stopped during \(story.scenario.name)")
            }
            if joins.allSatisfy({ $0 != nil && $0?.isRunning == false }) { break }
            if now > giveUp {
                for join in joins { join?.stop() }
                throw CommandFailure(message: "the participants of \(story.scenario.name) were still there 30 s after its end")
            }
            try? await Task.sleep(for: .milliseconds(display?.isTerminal == true ? 200 : 250))
        }
        for index in files.indices { traces[index].append(files[index].readNew()) }
        display?.finish()
        return participants()
    }

    /// The story's introduction: who is who, what they get, where to watch.
    static func header(_ story: DemoStory, invitations: DemoRun.Invitations, services: DemoRun.Services, configuration: OriginConfiguration,
                       start: Int64) -> String {
        var text = "\n== \(story.scenario.name) (\(story.path)): \(story.isLive ? "live" : "on demand"), \(story.policyDescription), \(DemoDisplay.clock(story.scenario.duration.duration))\n"
        for member in story.members {
            let viewer = configuration.viewer(id: member.name)
            let ads = viewer.map { $0.isPremium ? "premium, no ads" : $0.pod.isEmpty ? "no ads" : "ads " + $0.pod.joined(separator: " + ") } ?? "?"
            text += "   \(member.name) (\(member.role), \(ads)): \(services.origin)/\(story.streamPath.replacingOccurrences(of: "{viewer}", with: member.name))\n"
        }
        text += "   watch it live: \(invitations.viewURL)\n"
        text += "   join from a browser: \(invitations.viewer)\n"
        let wait = Double(start - JoinTrace.realTime()) / 1e9
        if wait > 3 { text += String(format: "   starting in %.0f s, when the channel is where the scenario's starts\n", wait) }
        return text
    }

    static func keepRunningText(services: DemoRun.Services, sessions: [(DemoStory, DemoRun.Invitations)]) -> String {
        var text = "\nThe origin and the group server stay up until Ctrl-C:\n"
        text += "  origin: \(services.origin)/ (every stream, as JSON)\n"
        text += "  group server: \(services.server) (metrics \(services.server)/metrics)\n"
        for (story, invitations) in sessions {
            text += "  session of \(story.scenario.name) (\(story.streamPath)):\n"
            text += "    watch it live: \(invitations.viewURL)\n"
            text += "    join from a browser: \(invitations.viewer)\n"
            text += "    owner \(invitations.owner)\n    controller \(invitations.controller)\n    viewer \(invitations.viewer)\n"
        }
        text += "  join one yourself: interlude join 'VIEWER_INVITATION' --name bob\n"
        return text
    }

    /// Examples/Scenarios/demo-live.json and demo-vod.json of the checkout that holds `media`.
    static func defaultScenarios(media: String) throws -> [String] {
        let root = URL(fileURLWithPath: media).deletingLastPathComponent().deletingLastPathComponent()
        let paths = ["demo-live.json", "demo-vod.json"].map { root.appendingPathComponent("Examples/Scenarios").appendingPathComponent($0).path }
        guard paths.allSatisfy(FileManager.default.fileExists) else {
            throw CommandFailure(message: "cannot find \(paths.joined(separator: " and ")); give the scenario files")
        }
        return paths.map(relativeToWorkingDirectory)
    }

    static func relativeToWorkingDirectory(_ path: String) -> String {
        let here = FileManager.default.currentDirectoryPath + "/"
        return path.hasPrefix(here) ? String(path.dropFirst(here.count)) : path
    }

    static func loadStory(_ path: String) throws -> DemoStory {
        guard let data = FileManager.default.contents(atPath: path) else { throw CommandFailure(message: "\(path): no such file", exitCode: 2) }
        do {
            return try DemoStory(path: path, scenario: try SimulationScenario(json: Array(data)))
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(message: "\(path): \(error)", exitCode: 2)
        }
    }

    /// The origin configuration every story names (the demo runs one origin), as JSON and read.
    static func originConfiguration(of stories: [DemoStory]) throws -> (json: [UInt8], configuration: OriginConfiguration) {
        let files = Set(stories.map { story in
            story.scenario.origin.map { file in
                file.hasPrefix("/") ? file : URL(fileURLWithPath: story.path).deletingLastPathComponent().appendingPathComponent(file).standardizedFileURL.path
            } ?? ""
        })
        guard files.count <= 1 else {
            throw CommandFailure(message: "the scenarios name different origin configurations (\(files.sorted().joined(separator: ", "))): the demo runs one origin", exitCode: 2)
        }
        let json: [UInt8]
        if let file = files.first, !file.isEmpty {
            guard let data = FileManager.default.contents(atPath: file) else { throw CommandFailure(message: "origin: \(file): no such file", exitCode: 2) }
            json = Array(data)
        } else {
            json = Array(OriginConfiguration.defaultJSON.utf8)
        }
        do {
            let configuration = try OriginConfiguration(json: json)
            for stream in configuration.streams {
                if case .live(let live) = stream.timing, live.startDate != nil {
                    throw CommandFailure(message: "the origin configuration gives live stream \(stream.id) a startDate: the demo places it as the simulator does", exitCode: 2)
                }
            }
            return (json, configuration)
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(message: "origin configuration: \(error)", exitCode: 2)
        }
    }

    /// `json` (an origin configuration) with every live stream started at `date` (CLOCK_REALTIME ns).
    package static func liveStarting(_ json: [UInt8], at date: Int64) throws -> [UInt8] {
        guard case .object(var root) = try WireJSONParser(limits: WireJSONLimits(maximumBytes: 1 << 20)).parse(json),
            case .array(var streams)? = root["streams"]
        else { throw CommandFailure(message: "the origin configuration has no streams") }
        let text = PlaylistDate(nanosecondsSince1970: date).description
        for index in streams.indices {
            guard case .object(var stream) = streams[index], stream["kind"] == .string("live") else { continue }
            stream["startDate"] = .string(text)
            streams[index] = .object(stream)
        }
        root["streams"] = .array(streams)
        return WireValue.object(root).jsonBytes
    }

    /// What `interlude simulate` reports for the story's scenario.
    static func simulate(_ story: DemoStory, media: String) throws -> SimulationReport {
        let origin: Origin
        do {
            origin = try story.scenario.makeOrigin(scenarioDirectory: URL(fileURLWithPath: story.path).deletingLastPathComponent().path, media: media)
        } catch {
            throw CommandFailure(message: "\(story.path): \(error)", exitCode: 2)
        }
        var simulator = GroupSimulator(scenario: story.scenario, origin: origin)
        return simulator.run()
    }

    static func jsonString(_ text: String) -> String {
        String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
    }
}

/// A story stopped by Ctrl-C or a signal, with what was measured until then.
struct DemoPlayInterrupted: Error {
    var elapsed: Int64
    var report: SimulationReport
}
