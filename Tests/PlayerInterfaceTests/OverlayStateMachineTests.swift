import PlayerInterface
import Testing

/// Overlays (S3.5): persistent elements always on, controls on activity with a timeout, a custom
/// overlay revealed on demand with a hint, on virtual host time.
@Suite("OverlayStateMachine")
struct OverlayStateMachineTests {
    typealias Machine = OverlayStateMachine

    @Test("activity shows the controls with the hint of the custom overlay; they hide after the timeout of no activity")
    func controlsAndHint() {
        var machine = Machine(hasCustomOverlay: true, controlsTimeout: .seconds(5))
        #expect(machine.visibleLayers == [.persistentElements])
        #expect(machine.handle(.userActivity, at: .seconds(10)) == [.show(.controls), .show(.hint), .scheduleWake(at: .seconds(15))])
        #expect(machine.handle(.userActivity, at: .seconds(12)) == [.scheduleWake(at: .seconds(17))], "activity keeps them up")
        #expect(machine.handle(.wake, at: .seconds(15)) == [], "the earlier deadline moved")
        #expect(machine.handle(.wake, at: .seconds(17)) == [.hide(.hint), .hide(.controls)])
        #expect(machine.visibleLayers == [.persistentElements])
    }

    @Test("the custom overlay is revealed on demand, takes the place of the controls, and its dismissal brings them back")
    func revealOnDemand() {
        var machine = Machine(hasCustomOverlay: true)
        _ = machine.handle(.userActivity, at: .zero)
        #expect(machine.handle(.revealOverlay, at: .seconds(1)) == [.hide(.hint), .hide(.controls), .show(.customOverlay)])
        #expect(machine.visibleLayers == [.persistentElements, .customOverlay])
        #expect(machine.handle(.userActivity, at: .seconds(2)) == [], "the overlay takes the input")
        #expect(machine.handle(.wake, at: .seconds(60)) == [], "the overlay does not time out")
        #expect(machine.handle(.dismissOverlay, at: .seconds(61)) == [.hide(.customOverlay), .show(.controls), .show(.hint), .scheduleWake(at: .seconds(66))])
    }

    @Test("without a custom overlay there is no hint and nothing to reveal")
    func noCustomOverlay() {
        var machine = Machine(hasCustomOverlay: false)
        #expect(machine.handle(.userActivity, at: .zero) == [.show(.controls), .scheduleWake(at: .seconds(5))])
        #expect(machine.handle(.revealOverlay, at: .seconds(1)) == [])
        #expect(machine.visibleLayers == [.persistentElements, .controls])
    }

    @Test("while paused the controls stay up; resuming starts the timeout again")
    func paused() {
        var machine = Machine(hasCustomOverlay: false)
        #expect(machine.handle(.playbackPaused, at: .seconds(3)) == [.show(.controls), .scheduleWake(at: .seconds(8))])
        #expect(machine.handle(.wake, at: .seconds(8)) == [])
        #expect(machine.visibleLayers.contains(.controls))
        #expect(machine.handle(.playbackResumed, at: .seconds(20)) == [.scheduleWake(at: .seconds(25))])
        #expect(machine.handle(.wake, at: .seconds(25)) == [.hide(.controls)])
    }

    @Test("the persistent elements are on screen in every state")
    func persistent() {
        var machine = Machine(hasCustomOverlay: true)
        let inputs: [Machine.Input] = [.userActivity, .revealOverlay, .wake, .dismissOverlay, .playbackPaused, .wake, .playbackResumed, .wake]
        for (second, input) in inputs.enumerated() {
            _ = machine.handle(input, at: .seconds(second * 10))
            #expect(machine.visibleLayers.first == .persistentElements)
        }
    }
}
