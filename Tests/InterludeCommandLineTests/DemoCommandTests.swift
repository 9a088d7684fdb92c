import Foundation
import FoundationNetworking
import Glibc
import Testing
import TestSupport

/// `interlude demo` as a user runs it: the built binary, which starts its own origin, group
/// server, session and three participants, on the half-minute story
/// (Examples/Scenarios/demo-short-vod.json). Each test reads the run's directory from the demo's
/// `--keep-files` line and checks at the end that no process started for that run is left (each
/// one names the directory in its arguments). About a minute and a half in all, in real time.
@Suite("interlude demo across processes", .serialized, .tags(.integration))
struct DemoCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let story = root.appendingPathComponent("Examples/Scenarios/demo-short-vod.json").path

    /// The running processes whose command line holds `text`, as "pid: command line".
    static func processes(mentioning text: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { $0.allSatisfy(\.isNumber) && $0 != "\(getpid())" }.compactMap { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else { return nil }
            let line = String(decoding: data.map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
            return line.contains(text) ? "\(pid): \(line)" : nil
        }
    }

    /// Waits until `path` holds `marker`, or `deadline`; its text.
    static func wait(for marker: String, in path: String, until deadline: ContinuousClock.Instant) async -> String {
        while true {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            if text.contains(marker) || ContinuousClock.now >= deadline { return text }
            try? await Task.sleep(for: .milliseconds(100))
        }
    }

    /// The run's directory, from the `--keep-files` line in the demo's standard error.
    static func runDirectory(_ errors: String) throws -> String {
        let line = try #require(errors.split(separator: "\n").first { $0.hasPrefix("demo: the run's files go to ") }, "\(errors)")
        return String(line.dropFirst("demo: the run's files go to ".count))
    }

    @Test("the story runs to its end, its figures agree with the simulator's, the services stay up with --keep-running until SIGTERM, and nothing is left")
    func wholeStory() async throws {
        let interlude = try #require(ChildProcess.besideTestBinary("interlude"))
        let scratch = try TemporaryDirectory(prefix: "interlude-demo-test")
        let svg = scratch.file("demo.svg")
        let errors = scratch.file("demo.err")
        let demo = try ChildProcess(
            executable: interlude, arguments: ["demo", "--format", "json", "--keep-files", "--keep-running", "--svg", svg, Self.story],
            standardError: .file(errors))
        let output = demo.read(until: .now + .seconds(90)) { $0.contains(UInt8(ascii: "\n")) }
        let stderr = await Self.wait(for: "stay up until Ctrl-C", in: errors, until: .now + .seconds(10))
        let directory = try Self.runDirectory(stderr)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(stderr.contains("watch it live: http://127.0.0.1:"), "\(stderr)")
        #expect(stderr.contains("/view#"), "\(stderr)")
        #expect(stderr.contains("join from a browser: http://127.0.0.1:"), "\(stderr)")
        // The services are still up: the origin answers.
        let origin = try #require(stderr.split(separator: "\n").first { $0.hasPrefix("  origin: ") }?.split(separator: " ").dropFirst(1).first.map(String.init), "\(stderr)")
        let (_, response) = try await URLSession.shared.data(from: try #require(URL(string: origin + "vod/movie/bob/main.m3u8")))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)

        kill(demo.pid, SIGTERM)
        let status = demo.waitForExit(until: .now + .seconds(20))
        #expect(status == 0, "\(String(decoding: output, as: UTF8.self))\n\(stderr)")
        #expect(Self.processes(mentioning: directory).isEmpty, "left running: \(Self.processes(mentioning: directory))")

        let json = try #require(try JSONSerialization.jsonObject(with: Data(output)) as? [String: Any], "\(String(decoding: output, as: UTF8.self))")
        #expect(json["agrees"] as? Bool == true, "\(String(decoding: output, as: UTF8.self))")
        let story = try #require((json["stories"] as? [[String: Any]])?.first)
        let people = try #require((story["demo"] as? [String: Any])?["participants"] as? [[String: Any]])
        let figures = Dictionary(uniqueKeysWithValues: people.map { ($0["name"] as? String ?? "", $0) })
        // Alice (premium) waits for charlie's 8 s ad, bob 4 s after his own; nobody skips.
        #expect(abs((figures["alice"]?["waitedSeconds"] as? Double ?? 0) - 8.4) < 1.5)
        #expect(abs((figures["bob"]?["inBreaksSeconds"] as? Double ?? 0) - 4) < 1)
        #expect(abs((figures["charlie"]?["inBreaksSeconds"] as? Double ?? 0) - 8) < 1)
        #expect(people.allSatisfy { ($0["skippedSeconds"] as? Double ?? 1) < 0.5 })
        #expect(people.allSatisfy { abs(($0["finalPositionSeconds"] as? Double ?? 0) - 16) < 0.5 })
        let drawing = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(drawing.contains("demo-short-vod, real processes: coordinated position against time"))
        #expect(drawing.contains("demo-short-vod, interlude simulate: coordinated position against time"))
    }

    @Test("Ctrl-C in the middle of the story stops every process the demo started and prints what was seen until then")
    func interrupted() async throws {
        let interlude = try #require(ChildProcess.besideTestBinary("interlude"))
        let scratch = try TemporaryDirectory(prefix: "interlude-demo-test")
        let errors = scratch.file("demo.err")
        let demo = try ChildProcess(executable: interlude, arguments: ["demo", "--keep-files", Self.story], standardError: .file(errors))
        // Everyone plays; charlie's ad is on from 5 s.
        let running = await Self.wait(for: "into break", in: errors, until: .now + .seconds(40))
        let directory = try Self.runDirectory(running)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(running.contains("into break"), "\(running)")
        #expect(Self.processes(mentioning: directory).count >= 5, "\(Self.processes(mentioning: directory))")
        kill(demo.pid, SIGINT)
        let status = demo.waitForExit(until: .now + .seconds(20))
        let output = String(decoding: demo.readToEnd(), as: UTF8.self)
        #expect(status == 130, "\(output)\n\((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
        #expect(output.contains("stopped early; what was seen until then:"))
        #expect(output.contains("charlie"))
        #expect(Self.processes(mentioning: directory).isEmpty, "left running: \(Self.processes(mentioning: directory))")
    }
}
