/// A background (splash) video (S3.6): decoration behind an app's own interface, like an
/// `AVPlayerViewController` with `showsPlaybackControls` off over a looping item. It has no
/// controls, loops, plays only while on screen, and yields to the user's audio: while another app
/// plays audio (the session's hint to silence secondary audio,
/// `AVAudioSession.silenceSecondaryAudioHintNotification`, begins) it is muted, and it is unmuted
/// when that hint ends, unless the app muted it on purpose.
public struct BackgroundVideoStateMachine: Sendable {
    /// What can happen.
    public enum Input: Sendable, Hashable {
        /// The view came on screen.
        case appeared
        /// The view left the screen.
        case disappeared
        /// The item played to its end.
        case playedToEnd
        /// Another app's audio began (the hint to silence secondary audio began).
        case otherAudioBegan
        /// Another app's audio ended.
        case otherAudioEnded
        /// The app muted (`true`) or unmuted its video.
        case setMutedByApp(Bool)
    }

    /// What the view and the player must do.
    public enum Action: Sendable, Hashable {
        /// Play at the default rate.
        case play
        /// Pause.
        case pause
        /// Go back to the start (to loop).
        case seekToStart
        /// Mute or unmute the player's audio.
        case setMuted(Bool)
    }

    /// Whether the video is on screen and playing.
    public private(set) var isPlaying = false
    private var isOtherAudioPlaying = false
    private var isMutedByApp = false
    private var isMuted = false

    /// An off-screen video, unmuted.
    public init() {}

    /// Never: a background video shows no playback controls.
    public var showsPlaybackControls: Bool { false }

    /// Handles one input.
    public mutating func handle(_ input: Input) -> [Action] {
        switch input {
        case .appeared:
            guard !isPlaying else { return [] }
            isPlaying = true
            return [.play]
        case .disappeared:
            guard isPlaying else { return [] }
            isPlaying = false
            return [.pause]
        case .playedToEnd:
            return isPlaying ? [.seekToStart, .play] : [.seekToStart]
        case .otherAudioBegan:
            isOtherAudioPlaying = true
            return updateMute()
        case .otherAudioEnded:
            isOtherAudioPlaying = false
            return updateMute()
        case .setMutedByApp(let muted):
            isMutedByApp = muted
            return updateMute()
        }
    }

    private mutating func updateMute() -> [Action] {
        let muted = isOtherAudioPlaying || isMutedByApp
        guard muted != isMuted else { return [] }
        isMuted = muted
        return [.setMuted(muted)]
    }
}
