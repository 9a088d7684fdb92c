import PlayerInterface
import Testing

/// A background (splash) video (S3.6): no controls, loops while on screen, silenced while other
/// audio plays.
@Suite("BackgroundVideoStateMachine")
struct BackgroundVideoStateMachineTests {
    typealias Machine = BackgroundVideoStateMachine

    @Test("it plays only on screen, loops at its end and never shows controls")
    func playsAndLoops() {
        var machine = Machine()
        #expect(!machine.showsPlaybackControls)
        #expect(machine.handle(.appeared) == [.play])
        #expect(machine.handle(.playedToEnd) == [.seekToStart, .play])
        #expect(machine.handle(.disappeared) == [.pause])
        #expect(machine.handle(.playedToEnd) == [.seekToStart], "off screen it rewinds but does not play")
    }

    @Test("another app's audio mutes it and its end unmutes it, unless the app muted it itself")
    func silencedByOtherAudio() {
        var machine = Machine()
        _ = machine.handle(.appeared)
        #expect(machine.handle(.otherAudioBegan) == [.setMuted(true)])
        #expect(machine.isPlaying, "silenced, not paused")
        #expect(machine.handle(.otherAudioEnded) == [.setMuted(false)])
        #expect(machine.handle(.setMutedByApp(true)) == [.setMuted(true)])
        #expect(machine.handle(.otherAudioBegan) == [])
        #expect(machine.handle(.otherAudioEnded) == [], "the app's mute stays")
        #expect(machine.handle(.setMutedByApp(false)) == [.setMuted(false)])
    }
}
