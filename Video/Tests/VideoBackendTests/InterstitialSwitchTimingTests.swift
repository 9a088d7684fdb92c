import MediaTime
import Testing
import VideoBackend

/// Switch timing worked out from render logs made by the test.
@Suite("InterstitialSwitchTiming")
struct InterstitialSwitchTimingTests {
    /// Buffers every `spacing` of stream time from `from`, rendered from `host` on.
    static func buffers(from: Duration, count: Int, spacing: Duration, host: Duration) -> [RenderedBuffer] {
        (0..<count).map { index in
            let offset = spacing * index
            return RenderedBuffer(hostTime: host + offset, streamTime: MediaTime(from + offset))
        }
    }

    @Test("lateness is measured against the start primary's own frames put the break at, and the end against that plus its duration")
    func lateness() throws {
        let scheduledBreak = InterstitialSwitchStateMachine.Break(start: MediaTime(seconds: 10), duration: MediaTime(seconds: 2))
        // Primary: frames from 9 s rendered from host 100 s, so 10 s is due at host 101 s; it
        // stops after its frame at 9.96 s and comes back at host 103.030 s from 10 s.
        let before = Self.buffers(from: .seconds(9), count: 25, spacing: .milliseconds(40), host: .seconds(100))
        let after = Self.buffers(from: .seconds(10), count: 25, spacing: .milliseconds(40), host: .milliseconds(103_030))
        let primaryAudio = Self.buffers(from: .seconds(9), count: 47, spacing: .microseconds(21_333), host: .seconds(100))
            + Self.buffers(from: .seconds(10), count: 47, spacing: .microseconds(21_333), host: .milliseconds(103_030))
        // The asset: its first frame 20 ms late, its audio from 10 ms before it, 5 ms ahead.
        let assetVideo = Self.buffers(from: .zero, count: 50, spacing: .milliseconds(40), host: .milliseconds(101_020))
        let assetAudio = Self.buffers(from: .milliseconds(5), count: 94, spacing: .microseconds(21_333), host: .milliseconds(101_010))
        let timing = try #require(InterstitialSwitchTiming(
            scheduledBreak: scheduledBreak, primaryVideo: before + after, primaryAudio: primaryAudio, assetVideo: assetVideo, assetAudio: assetAudio
        ))
        #expect(timing.assetVideoLateness == .milliseconds(20))
        #expect(timing.assetAudioLead == .milliseconds(-10))
        #expect(timing.assetAVOffset == .milliseconds(-15))
        #expect(timing.primaryVideoLateness == .milliseconds(30))
        #expect(timing.primaryAudioLead == .zero)
        #expect(timing.primaryAVOffset == .zero)
        // Primary's last frame before at 100.960 s, the asset's first at 101.020 s; the asset's
        // last at 102.980 s, primary's first after at 103.030 s.
        #expect(timing.gapIntoAsset == .milliseconds(60))
        #expect(timing.gapOutOfAsset == .milliseconds(50))
        #expect(timing.resumedAt == MediaTime(seconds: 10))
        #expect(timing.lastFrameBefore == MediaTime(.milliseconds(9_960)))
        #expect("\(timing)".hasPrefix("asset: first frame +20.0 ms vs schedule (+60.0 ms after primary's last), audio -10.0 ms vs video"))
    }

    @Test("no timing without an asset frame or a primary frame after the break")
    func incomplete() {
        let scheduledBreak = InterstitialSwitchStateMachine.Break(start: MediaTime(seconds: 10), duration: MediaTime(seconds: 2))
        let primary = Self.buffers(from: .seconds(9), count: 25, spacing: .milliseconds(40), host: .seconds(100))
        #expect(InterstitialSwitchTiming(scheduledBreak: scheduledBreak, primaryVideo: primary, primaryAudio: primary, assetVideo: [], assetAudio: []) == nil)
        let asset = Self.buffers(from: .zero, count: 5, spacing: .milliseconds(40), host: .seconds(101))
        #expect(InterstitialSwitchTiming(scheduledBreak: scheduledBreak, primaryVideo: primary, primaryAudio: primary, assetVideo: asset, assetAudio: asset) == nil)
    }
}
