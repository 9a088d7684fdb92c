import Foundation
import GroupSimulation
import HLSPlaylist
import InterludeCommandLine
import StreamOrigin
import Testing

/// Which scenarios `interlude demo` plays, and how it plays them with real processes.
@Suite("DemoStory")
struct DemoStoryTests {
    static let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/Scenarios")

    static func story(_ file: String) throws -> DemoStory {
        let path = scenarios.appendingPathComponent(file).path
        let data = try #require(FileManager.default.contents(atPath: path))
        return try DemoStory(path: path, scenario: SimulationScenario(json: Array(data)))
    }

    @Test("the live story: default policy, the owner, a controller and a viewer, each with its clock's drift, for the scenario's minute")
    func liveStory() throws {
        let story = try Self.story("demo-live.json")
        #expect(story.isLive && story.stream == "channel" && story.policy == "default")
        #expect(story.streamPath == "live/channel/{viewer}/main.m3u8")
        #expect(story.members.map(\.role) == ["owner", "controller", "viewer"])
        let bob = story.members[1]
        #expect(story.joinArguments(bob, invitation: "http://127.0.0.1:1/join#T", tracePath: "/tmp/bob.jsonl") == [
            "join", "http://127.0.0.1:1/join#T", "--name", "bob", "--policy", "default", "--trace", "/tmp/bob.jsonl",
            "--duration", "60.000", "--quiet", "--clock-drift-ppm", "80.0",
        ])
    }

    @Test("the on-demand story waits as join --policy waiting does")
    func vodStory() throws {
        let story = try Self.story("demo-vod.json")
        #expect(!story.isLive && story.policy == "waiting")
        #expect(story.members.map(\.duration) == Array(repeating: .seconds(85), count: 3))
    }

    @Test("a scenario real processes on loopback cannot play as the simulator does is refused, with every reason")
    func refusals() throws {
        do {
            _ = try Self.story("vod-group-waits.json")
            Issue.record("vod-group-waits.json was accepted")
        } catch {
            let message = String(describing: error)
            #expect(message.contains("exitCode: 2"))
            #expect(message.contains("bob") && message.contains("clock has an offset"))
            #expect(message.contains("its network has 50ms of latency"))
            #expect(message.contains("its network has jitter, loss, reordering or partitions"))
            #expect(message.contains("its policy waits for playingInterstitial, userIsChangingCurrentTime"))
        }
    }

    @Test("interlude demo refuses --speed other than 1, and a scenario it cannot play, before starting anything")
    func refusedOnTheCommandLine() async throws {
        let io = CommandIO.capturing()
        #expect(await InterludeCommand.run(["demo", "--speed", "4"], io: io) == 64)
        #expect(io.capturedError.contains("run on real clocks in real processes"))
        let refused = CommandIO.capturing()
        #expect(await InterludeCommand.run(["demo", Self.scenarios.appendingPathComponent("stitched-seek-into-break.json").path], io: refused) == 2)
        #expect(refused.capturedError.contains("the demo cannot play this scenario"))
        #expect(!refused.capturedError.contains("starting interlude origin"))
    }

    @Test("a live story starts where the simulator's does: at its anchor, or a whole number of break intervals after it")
    func liveStart() throws {
        let story = try Self.story("demo-live.json")
        let data = try #require(FileManager.default.contents(atPath: Self.scenarios.appendingPathComponent("demo-origin.json").path))
        let configuration = try OriginConfiguration(json: Array(data))
        let anchor: Int64 = 1_800_000_000_000_000_000
        #expect(DemoCommand.storyStart(story, anchor: anchor, configuration: configuration, now: anchor - 4_000_000_000) == anchor)
        #expect(DemoCommand.storyStart(story, anchor: anchor, configuration: configuration, now: anchor + 1_000_000_000) == anchor + 60_000_000_000)
        #expect(DemoCommand.storyStart(story, anchor: anchor, configuration: configuration, now: anchor + 61_000_000_000) == anchor + 120_000_000_000)
        let json = try DemoCommand.liveStarting(Array(data), at: anchor - 120_000_000_000)
        let placed = try OriginConfiguration(json: json)
        guard case .live(let live)? = placed.stream(id: "channel")?.timing else { Issue.record("no live channel"); return }
        #expect(live.startDate?.nanosecondsSince1970 == anchor - 120_000_000_000)
        #expect(placed.stream(id: "movie") == configuration.stream(id: "movie"))
    }
}
