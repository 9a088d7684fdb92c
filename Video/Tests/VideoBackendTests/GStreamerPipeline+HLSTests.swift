import MediaTime
import Testing
import VideoBackend
import VideoTestSupport

/// HLS over HTTP through playbin3's hlsdemux2, whose stream time is the playlist's time.
@Suite("GStreamerPipeline over HLS")
struct GStreamerPipelineHLSTests {
    static func seconds(_ time: MediaTime?) -> Double? { time.map(\.seconds) }

    @Test("an HLS playlist over HTTP plays from 0 with the playlist's duration")
    func playsPlaylist() async throws {
        try await FixtureServer.with { base in
            let (pipeline, _) = try await GStreamerPipeline.playing("\(base)/content/index.m3u8")
            defer { pipeline.close() }
            // 15 segments: 4.021333 s and fourteen of 4 s.
            let duration = try #require(Self.seconds(pipeline.duration))
            #expect(abs(duration - 60.021333) < 0.001, "duration \(duration) s")
            let position = try #require(Self.seconds(pipeline.position))
            #expect(position >= 0 && position < 0.3, "position \(position) s just after PLAYING")
        }
    }

    @Test("over HTTP, buffering reaches 100 % before the pipeline plays")
    func buffering() async throws {
        try await FixtureServer.with { base in
            let pipeline = try GStreamerPipeline(uri: "\(base)/content/index.m3u8", configuration: .headless)
            defer { pipeline.close() }
            let messages = pipeline.messages()
            try pipeline.play()
            let seen = try await messages.messages(until: "PLAYING") { message in
                if case .stateChanged(_, .playing, _) = message { return true }
                return false
            }
            let percents = seen.compactMap { message -> Int? in
                if case .buffering(let percent) = message { return percent }
                return nil
            }
            // How many steps there are depends on how fast the queue fills: one (100) or many.
            #expect(percents.last == 100, "buffering messages: \(percents)")
        }
    }

    @Test("an accurate seek while playing an HLS playlist lands within 50 ms of its target, mid-segment")
    func accurateSeek() async throws {
        try await FixtureServer.with { base in
            let (pipeline, messages) = try await GStreamerPipeline.playing("\(base)/content/index.m3u8")
            defer { pipeline.close() }
            // In seg-003 (12.02 to 16.02 s), 0.35 s past a keyframe. The pipeline plays on once
            // the seek is done, so the position may be past the target by the time since the
            // seek was asked for (the flush, the preroll, the message's way here).
            let clock = ContinuousClock()
            let asked = clock.now
            let target = try #require(MediaTime(seconds: 13.37))
            let seek = try pipeline.seek(to: target)
            // Until the seek is done the position is where it goes, not the old one (nor the 0 a
            // flushing playbin3 may report).
            #expect(pipeline.position == target.converted(toTimescale: 1_000_000_000))
            try await messages.asyncDone(seek)
            let position = try #require(Self.seconds(pipeline.position))
            let since = Double((clock.now - asked) / .milliseconds(1)) / 1000
            #expect(position > 13.37 - 0.05 && position < 13.37 + since + 0.05, "landed at \(position) s, \(since) s after the seek")
        }
    }

    @Test("end of stream arrives at the end of a playlist, at its duration")
    func endOfStream() async throws {
        try await FixtureServer.with { base in
            // Not the one-segment ad-5s playlist: hlsdemux2 1.22 may reach the end of a
            // one-segment manifest before it has exposed its pads, and then fails it
            // ("Can't push EOS on non-exposed pad", "Couldn't download fragments"). Nor a seek
            // into the last segment, after which it may end the stream at once.
            let (pipeline, messages) = try await GStreamerPipeline.playing("\(base)/content/index.m3u8")
            defer { pipeline.close() }
            let duration = try #require(pipeline.duration)
            // 0.52 s before the last segment (56.021333 s): 4.52 s of media.
            let clock = ContinuousClock()
            let seeked = clock.now
            try await messages.asyncDone(try pipeline.seek(to: try #require(MediaTime(seconds: 55.5))))
            let message = try await messages.first("EOS", within: .seconds(10)) { $0 == .endOfStream }
            #expect(message == .endOfStream)
            let waited = clock.now - seeked
            #expect(waited > .seconds(4.4) && waited < .seconds(6), "EOS \(waited) after seeking 4.52 s before the end")
            let position = try #require(Self.seconds(pipeline.position))
            #expect(abs(position - duration.seconds) < 0.1, "position \(position) s at EOS, duration \(duration.seconds) s")
        }
    }

    @Test("a playlist the server does not have gives a resource error")
    func missingPlaylist() async throws {
        try await FixtureServer.with { base in
            let pipeline = try GStreamerPipeline(uri: "\(base)/ads/no-such/index.m3u8", configuration: .headless)
            defer { pipeline.close() }
            let messages = pipeline.messages()
            do { try pipeline.play() } catch { #expect(error as? GStreamerPipelineError == .stateChangeFailed(to: .playing)) }
            let message = try await messages.first("an error", within: .seconds(5)) { _ in false }
            guard case .error(let error) = message else {
                Issue.record("expected an error, got \(message)")
                return
            }
            #expect(error.kind == .resource)
            #expect("\(error)".contains("no-such"), "description: \(error)")
        }
    }
}
