import MediaTime
import Testing
import VideoBackend
import VideoTestSupport

/// Real playback of the repository's fixtures through playbin3, headless (`fakesink sync=true`
/// for video and audio, so the clock runs as on screen). These run in real time: each waits at
/// most about a second of media, and every wait has a deadline.
@Suite("GStreamerPipeline")
struct GStreamerPipelineTests {
    static let media = FixtureServer.media

    /// A single MPEG-TS segment: the 5-second ad (H.264 320x180 at 25 fps, keyframe every
    /// second, AAC), 5.021 s long. Played from a file, its stream time runs from 0.7 s (the first
    /// PTS less the first PCR) to 5.7 s.
    static let clipURI = "file://\(media)/ads/ad-5s/seg-000.ts"

    static func seconds(_ time: MediaTime?) -> Double? { time.map(\.seconds) }

    /// Where `pipeline` is now, and how far it then plays, in seconds, over one second of the
    /// host clock: (start position, media seconds advanced, host seconds elapsed).
    static func advance(of pipeline: GStreamerPipeline) async throws -> (start: Double, advanced: Double, elapsed: Double) {
        let clock = ContinuousClock()
        let start = (clock.now, try #require(seconds(pipeline.position)))
        try await Task.sleep(for: .seconds(1))
        let end = (clock.now, try #require(seconds(pipeline.position)))
        return (start.1, end.1 - start.1, Double((end.0 - start.0) / .milliseconds(1)) / 1000)
    }

    @Test("reaches PLAYING on a real MPEG-TS segment and reports its duration")
    func reachesPlaying() async throws {
        let (pipeline, _) = try await GStreamerPipeline.playing(Self.clipURI)
        defer { pipeline.close() }
        let duration = try #require(Self.seconds(pipeline.duration))
        #expect(abs(duration - 5.021) < 0.15, "duration \(duration) s (tsdemux's estimate)")
        let position = try #require(Self.seconds(pipeline.position))
        #expect(position >= 0.6 && position < 1, "position \(position) s just after PLAYING")
    }

    @Test("the position advances with the clock while playing")
    func positionFollowsTheClock() async throws {
        let (pipeline, _) = try await GStreamerPipeline.playing(Self.clipURI)
        defer { pipeline.close() }
        let (_, advanced, elapsed) = try await Self.advance(of: pipeline)
        #expect(abs(advanced - elapsed) < 0.05, "advanced \(advanced) s in \(elapsed) s")
    }

    @Test("a paused pipeline's position stands still")
    func pausedPositionStandsStill() async throws {
        let (pipeline, messages) = try await GStreamerPipeline.playing(Self.clipURI)
        defer { pipeline.close() }
        try pipeline.pause()
        try await messages.reach(.paused)
        let before = try #require(Self.seconds(pipeline.position))
        try await Task.sleep(for: .milliseconds(300))
        let after = try #require(Self.seconds(pipeline.position))
        #expect(abs(after - before) < 0.001, "moved from \(before) to \(after) while paused")
    }

    @Test("an accurate seek while paused lands within 50 ms of its target, between keyframes")
    func accurateSeek() async throws {
        let pipeline = try GStreamerPipeline(uri: Self.clipURI, configuration: .headless)
        defer { pipeline.close() }
        let messages = pipeline.messages()
        try pipeline.pause()
        // Prerolled: the ASYNC_DONE that comes just after the state change to PAUSED.
        try await messages.asyncDone(nil)
        // Keyframes are 1 s apart: 3.37 is well past one, where a key-unit seek would snap back.
        let seek = try pipeline.seek(to: try #require(MediaTime(seconds: 3.37)))
        try await messages.asyncDone(seek)
        let position = try #require(Self.seconds(pipeline.position))
        #expect(abs(position - 3.37) < 0.05, "landed at \(position) s")
        // And playback goes on from there.
        try pipeline.play()
        try await messages.reach(.playing)
        try await Task.sleep(for: .milliseconds(200))
        let later = try #require(Self.seconds(pipeline.position))
        #expect(later > 3.5 && later < 4, "at \(later) s 0.2 s after playing from 3.37 s")
    }

    @Test("the ASYNC_DONE that ends a seek names it; the preroll's names none")
    func asyncDoneNamesItsSeek() async throws {
        let pipeline = try GStreamerPipeline(uri: Self.clipURI, configuration: .headless)
        defer { pipeline.close() }
        let messages = pipeline.messages()
        try pipeline.pause()
        try await messages.asyncDone(nil)
        let first = try pipeline.seek(to: MediaTime(seconds: 2))
        try await messages.asyncDone(first)
        let second = try pipeline.seek(to: MediaTime(seconds: 3))
        #expect(second != first)
        try await messages.asyncDone(second)
        #expect(abs(try #require(Self.seconds(pipeline.position)) - 3) < 0.05)
    }

    @Test("at rate 2 the position advances about twice as fast as the clock")
    func doubleRate() async throws {
        let (pipeline, messages) = try await GStreamerPipeline.playing(Self.clipURI)
        defer { pipeline.close() }
        try await messages.asyncDone(try pipeline.setRate(2))
        #expect(pipeline.rate == 2)
        // Past the restart after the flush, when the clock runs again.
        try await Task.sleep(for: .milliseconds(100))
        let (_, advanced, elapsed) = try await Self.advance(of: pipeline)
        #expect(abs(advanced / elapsed - 2) < 0.1, "advanced \(advanced) s in \(elapsed) s")
    }

    @Test("a seek keeps the rate set before it")
    func seekKeepsRate() async throws {
        let (pipeline, messages) = try await GStreamerPipeline.playing(Self.clipURI)
        defer { pipeline.close() }
        try await messages.asyncDone(try pipeline.setRate(2))
        try await messages.asyncDone(try pipeline.seek(to: MediaTime(seconds: 1)))
        try await Task.sleep(for: .milliseconds(100))
        let (_, advanced, elapsed) = try await Self.advance(of: pipeline)
        #expect(abs(advanced / elapsed - 2) < 0.1, "advanced \(advanced) s in \(elapsed) s")
    }

    @Test("a rate change right after a seek plays from the seek's target at the new rate")
    func rateRightAfterSeek() async throws {
        let (pipeline, messages) = try await GStreamerPipeline.playing(Self.clipURI)
        defer { pipeline.close() }
        // While the seek flushes there is no position to change the rate at.
        try pipeline.seek(to: MediaTime(seconds: 2))
        try await messages.asyncDone(try pipeline.setRate(2))
        try await Task.sleep(for: .milliseconds(100))
        let (start, advanced, elapsed) = try await Self.advance(of: pipeline)
        // From the seek's target, not from where the pipeline was before it (under 1 s).
        #expect(start >= 2 && start < 3, "at \(start) s after seeking to 2 s")
        #expect(abs(advanced / elapsed - 2) < 0.1, "advanced \(advanced) s in \(elapsed) s")
    }

    @Test("end of stream arrives when the clip ends, and the position then stands still")
    func endOfStream() async throws {
        let (pipeline, messages) = try await GStreamerPipeline.playing(Self.clipURI)
        defer { pipeline.close() }
        // tsdemux's duration is an estimate from the bit rate, and its stream time starts at the
        // first PTS less the first PCR (0.7 s here), so the media ends near 5.7 s.
        try pipeline.seek(to: MediaTime(seconds: 5))
        let clock = ContinuousClock()
        let seeked = clock.now
        let message = try await messages.first("EOS", within: .seconds(5)) { $0 == .endOfStream }
        #expect(message == .endOfStream)
        let waited = clock.now - seeked
        #expect(waited > .milliseconds(300) && waited < .seconds(2), "EOS \(waited) after seeking to 5 s")
        let atEnd = try #require(Self.seconds(pipeline.position))
        #expect(atEnd > 5.3, "position \(atEnd) s at EOS")
        try await Task.sleep(for: .milliseconds(200))
        let later = try #require(Self.seconds(pipeline.position))
        #expect(abs(later - atEnd) < 0.001, "position moved from \(atEnd) to \(later) after EOS")
    }

    @Test("a missing file gives a resource error whose description names the file")
    func missingFile() async throws {
        let path = "\(Self.media)/ads/no-such-clip.ts"
        let pipeline = try GStreamerPipeline(uri: "file://\(path)", configuration: .headless)
        defer { pipeline.close() }
        let messages = pipeline.messages()
        // playbin3 may refuse the change at once or post the error while prerolling; the bus
        // carries the error either way.
        do { try pipeline.play() } catch { #expect(error == .stateChangeFailed(to: .playing)) }
        let message = try await messages.first("an error", within: .seconds(5)) { _ in false }
        guard case .error(let error) = message else {
            Issue.record("expected an error, got \(message)")
            return
        }
        #expect(error.kind == .resource)
        #expect(error.isFatal)
        // GStreamer's message is "Resource not found."; its debug details name the file.
        #expect(error.debugDetails?.contains(path) == true, "debug details: \(error.debugDetails ?? "none")")
        #expect("\(error)".contains("no-such-clip.ts"), "description: \(error)")
    }

    @Test("close finishes every message stream and later commands throw closed")
    func close() async throws {
        let pipeline = try GStreamerPipeline(uri: Self.clipURI, configuration: .headless)
        let messages = pipeline.messages()
        try pipeline.pause()
        try await messages.reach(.paused)
        pipeline.close()
        var afterClose: [PipelineMessage] = []
        for await message in messages { afterClose.append(message) }  // ends: the stream is finished
        #expect(!afterClose.contains(.endOfStream))
        #expect(throws: GStreamerPipelineError.closed) { try pipeline.play() }
        #expect(throws: GStreamerPipelineError.closed) { try pipeline.seek(to: .zero) }
        var late = pipeline.messages().makeAsyncIterator()
        #expect(await late.next() == nil)
    }

    @Test("a video sink given as a launch description is the one the video goes through")
    func sinkDescription() async throws {
        // identity fails the stream after 5 buffers: its error shows the video reached it.
        let configuration = GStreamerPipeline.Configuration(
            videoSink: .description("identity name=gate error-after=5 ! fakesink sync=true"),
            audioSink: .fake
        )
        let pipeline = try GStreamerPipeline(uri: Self.clipURI, configuration: configuration)
        defer { pipeline.close() }
        let messages = pipeline.messages()
        try pipeline.play()
        let message = try await messages.first("an error", within: .seconds(5)) { _ in false }
        guard case .error(let error) = message else {
            Issue.record("expected an error, got \(message)")
            return
        }
        #expect(error.sourceName == "gate", "\(error)")
    }

    @Test("a sink description that does not parse is refused with the parser's reason")
    func invalidSink() {
        #expect {
            _ = try GStreamerPipeline(uri: Self.clipURI, configuration: .init(videoSink: .description("no-such-element-x"), audioSink: .fake))
        } throws: { error in
            guard case GStreamerPipelineError.invalidSinkDescription("no-such-element-x", let reason) = error else { return false }
            return reason.contains("no-such-element-x")
        }
    }

    @Test("only positive finite rates are accepted, and only once prerolled")
    func unsupportedRates() throws {
        let pipeline = try GStreamerPipeline(uri: Self.clipURI, configuration: .headless)
        defer { pipeline.close() }
        #expect(throws: GStreamerPipelineError.unsupportedRate(0)) { try pipeline.setRate(0) }
        #expect(throws: GStreamerPipelineError.unsupportedRate(-1)) { try pipeline.setRate(-1) }
        // A supported rate, but nothing is prerolled yet to play it from.
        #expect(throws: GStreamerPipelineError.seekRefused) { try pipeline.setRate(2) }
        #expect(pipeline.rate == 1)
    }
}
