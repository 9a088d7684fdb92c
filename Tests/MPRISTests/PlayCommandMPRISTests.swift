import Foundation
import Testing
import TestSupport

/// `interlude play --mpris` as a user runs it: the process publishes itself on the session bus
/// its environment names, and a client's Quit ends it like Ctrl-C.
@Suite("interlude play --mpris on a private session bus")
struct PlayCommandMPRISTests {
    static let playlist = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/Media/content/index.m3u8").path

    @Test("play --mpris publishes the title given with --title and the length, and quits with exit status 0 when a client calls Quit")
    func playPublishesAndQuits() async throws {
        let interlude = try #require(ChildProcess.besideTestBinary("interlude"), "interlude is built beside the test binary by swift build")
        let rig = try MPRISBusRig()
        let play = try ChildProcess(executable: "/usr/bin/env",
                                    arguments: ["DBUS_SESSION_BUS_ADDRESS=\(rig.address)", interlude, "play", "--mpris", "--title", "Big Movie", Self.playlist],
                                    standardError: .merged)
        // The bundled content is 60.021333 s long and has no breaks. A debug build starting while
        // the rest of the suite keeps both cores busy may take a while to appear.
        let metadata = try await rig.poll(["metadata", "--format", "{{xesam:title}}|{{mpris:length}}"], timeout: .seconds(60)) { $0 == "Big Movie|60021333" }
        #expect(metadata == "Big Movie|60021333")
        #expect(try await rig.poll(["status"]) { $0 == "Playing" } == "Playing")

        let quit = try await rig.run("dbus-send", ["--session", "--print-reply", "--dest=org.mpris.MediaPlayer2.interlude",
                                                    "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Quit"], timeout: .seconds(10))
        #expect(quit.status == 0, "\(quit.output)")
        let status = play.waitForExit(until: .now + .seconds(10))
        #expect(status == 0)
        let output = String(decoding: play.readToEnd(), as: UTF8.self)
        #expect(output.contains("interrupted"), "\(output)")
        // The name went with the process.
        #expect(try await rig.playerctl("--list-all").output == "No players found")
    }
}
