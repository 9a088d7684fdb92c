import PlayerInterface
import Testing

/// The poster frame (S3.9): removed once the first frame is ready, including when it already was
/// when observation began.
@Suite("PosterFrameStateMachine")
struct PosterFrameStateMachineTests {
    typealias Machine = PosterFrameStateMachine

    @Test("the poster stays until readiness turns true, then comes down once")
    func removedOnFirstFrame() {
        var machine = Machine(hasPoster: true)
        #expect(machine.handle(.observationStarted(isReadyForDisplay: false)) == [])
        #expect(machine.isPosterShown)
        #expect(machine.handle(.readinessChanged(isReadyForDisplay: true)) == [.removePoster])
        #expect(!machine.isPosterShown)
        #expect(machine.handle(.readinessChanged(isReadyForDisplay: false)) == [], "a stall later does not bring it back")
        #expect(machine.handle(.readinessChanged(isReadyForDisplay: true)) == [])
    }

    @Test("a first frame already ready when observation begins takes the poster down at once, with no change ever reported")
    func initialValue() {
        var machine = Machine(hasPoster: true)
        #expect(machine.handle(.observationStarted(isReadyForDisplay: true)) == [.removePoster])
        #expect(!machine.isPosterShown)
    }

    @Test("a new item brings its poster back until its own first frame")
    func nextItem() {
        var machine = Machine(hasPoster: true)
        _ = machine.handle(.observationStarted(isReadyForDisplay: true))
        #expect(machine.handle(.itemChanged(hasPoster: true)) == [.showPoster])
        #expect(machine.handle(.readinessChanged(isReadyForDisplay: true)) == [.removePoster])
        #expect(machine.handle(.itemChanged(hasPoster: false)) == [])
        #expect(!machine.isPosterShown)
    }

    @Test("without a poster nothing is shown or removed")
    func noPoster() {
        var machine = Machine(hasPoster: false)
        #expect(machine.handle(.observationStarted(isReadyForDisplay: true)) == [])
        #expect(!machine.isPosterShown)
    }
}
