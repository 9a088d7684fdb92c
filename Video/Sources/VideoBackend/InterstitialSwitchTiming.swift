public import MediaTime

/// How well a break was switched, from what the sinks rendered (``RenderLog``s of primary's and
/// the asset's video and audio) and the break's schedule.
///
/// The schedule's host times come from primary's own frames: while it plays at rate 1, a frame
/// of stream time `s` rendered at host time `h` puts stream time `t` at `h + (t − s)`. So the
/// break's start is where primary's last frame before it says the start would have been shown,
/// and its end that plus the break's duration; no clock other than the sinks' is involved.
public struct InterstitialSwitchTiming: Sendable, Hashable, CustomStringConvertible {
    /// The first asset frame's host time less the scheduled start (positive: late).
    public var assetVideoLateness: Duration
    /// The first asset audio buffer's host time less the first asset frame's.
    public var assetAudioLead: Duration
    /// How far the asset's audio is ahead of its video in presentation (median over the asset's
    /// buffers of host − stream time, audio less video); 0 when in sync.
    public var assetAVOffset: Duration
    /// The first frame after the break's host time less the scheduled end.
    public var primaryVideoLateness: Duration
    /// The first primary audio buffer after the break's host time less the first frame's.
    public var primaryAudioLead: Duration
    /// As ``assetAVOffset``, over primary's buffers after the break.
    public var primaryAVOffset: Duration
    /// The first asset frame's host time less primary's last frame's before it: one frame
    /// interval (40 ms at 25 fps) when the switch costs nothing.
    public var gapIntoAsset: Duration
    /// Primary's first frame after the break's host time less the asset's last frame's.
    public var gapOutOfAsset: Duration
    /// The stream time of primary's first frame after the break.
    public var resumedAt: MediaTime
    /// The stream time of primary's last frame before the break.
    public var lastFrameBefore: MediaTime

    /// The timing of `scheduledBreak` from the four logs; `nil` when a log lacks what is needed
    /// (no primary frame before the break, no asset frame, no primary frame after it).
    ///
    /// - Complexity: O(n log n) in the number of buffers (the medians).
    public init?(
        scheduledBreak: InterstitialSwitchStateMachine.Break,
        primaryVideo: [RenderedBuffer], primaryAudio: [RenderedBuffer],
        assetVideo: [RenderedBuffer], assetAudio: [RenderedBuffer]
    ) {
        guard let firstAssetFrame = assetVideo.first, let lastAssetFrame = assetVideo.last, let firstAssetAudio = assetAudio.first else { return nil }
        let switchHost = firstAssetFrame.hostTime
        guard let before = primaryVideo.last(where: { $0.hostTime < switchHost }),
            let firstAfter = primaryVideo.first(where: { $0.hostTime > switchHost }),
            let firstAudioAfter = primaryAudio.first(where: { $0.hostTime > switchHost })
        else { return nil }
        let scheduledStart = before.hostTime + Duration(rounding: scheduledBreak.start - before.streamTime)
        let scheduledEnd = scheduledStart + Duration(rounding: scheduledBreak.duration)
        assetVideoLateness = firstAssetFrame.hostTime - scheduledStart
        assetAudioLead = firstAssetAudio.hostTime - firstAssetFrame.hostTime
        assetAVOffset = Self.offset(audio: assetAudio, video: assetVideo)
        primaryVideoLateness = firstAfter.hostTime - scheduledEnd
        primaryAudioLead = firstAudioAfter.hostTime - firstAfter.hostTime
        primaryAVOffset = Self.offset(
            audio: primaryAudio.filter { $0.hostTime > switchHost },
            video: primaryVideo.filter { $0.hostTime > switchHost }
        )
        gapIntoAsset = firstAssetFrame.hostTime - before.hostTime
        gapOutOfAsset = firstAfter.hostTime - lastAssetFrame.hostTime
        resumedAt = firstAfter.streamTime
        lastFrameBefore = before.streamTime
    }

    /// Median of host − stream time for audio, less the same for video.
    static func offset(audio: [RenderedBuffer], video: [RenderedBuffer]) -> Duration {
        func median(_ buffers: [RenderedBuffer]) -> Duration {
            let offsets = buffers.map { $0.hostTime - Duration(rounding: $0.streamTime) }.sorted()
            return offsets.isEmpty ? .zero : offsets[offsets.count / 2]
        }
        return median(audio) - median(video)
    }

    /// Each figure in milliseconds, to a tenth, on one line.
    public var description: String {
        func ms(_ duration: Duration) -> String {
            let tenths = Int((Double(duration / .microseconds(1)) / 100).rounded())
            return "\(tenths < 0 ? "-" : "+")\(abs(tenths) / 10).\(abs(tenths) % 10) ms"
        }
        return "asset: first frame \(ms(assetVideoLateness)) vs schedule (\(ms(gapIntoAsset)) after primary's last), audio \(ms(assetAudioLead)) vs video, A/V offset \(ms(assetAVOffset)); "
            + "primary: first frame \(ms(primaryVideoLateness)) vs schedule (\(ms(gapOutOfAsset)) after the asset's last) at \(resumedAt.seconds) s (last before \(lastFrameBefore.seconds) s), "
            + "audio \(ms(primaryAudioLead)) vs video, A/V offset \(ms(primaryAVOffset))"
    }
}
