import PlayerInterface
import Testing

/// Presentation (S3.2, S3.3, S3.7): full-screen transitions with their outcome, automatic full
/// screen, picture in picture on backgrounding and the restore completion, on virtual host time.
@Suite("PresentationStateMachine")
struct PresentationStateMachineTests {
    typealias Machine = PresentationStateMachine

    /// The transition a will-begin, will-end or will-start action announces.
    static func announced(_ actions: [Machine.Action]) throws -> Machine.Transition {
        guard actions.count == 1 else { throw Failure("expected one announcement, got \(actions)") }
        switch actions[0] {
        case .willBeginFullScreenPresentation(let transition), .willEndFullScreenPresentation(let transition),
            .willStartPictureInPicture(let transition):
            return transition
        default:
            throw Failure("expected an announcement, got \(actions)")
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// A machine that is full screen and playing.
    static func fullScreen(_ configuration: Machine.Configuration = .init()) throws -> Machine {
        var machine = Machine(configuration: configuration)
        _ = machine.handle(.playbackBegan, at: .zero)
        let transition = try announced(machine.handle(.enterFullScreen, at: .zero))
        _ = machine.handle(.transitionFinished(id: transition.id, cancelled: false), at: .zero)
        try #require(machine.mode == .fullScreen)
        return machine
    }

    @Test("entering full screen announces will-begin, stays inline until the transition completes, then is full screen")
    func enterFullScreen() throws {
        var machine = Machine()
        let actions = machine.handle(.enterFullScreen, at: .zero)
        let transition = try Self.announced(actions)
        #expect(actions == [.willBeginFullScreenPresentation(transition)])
        #expect(transition.from == .inline && transition.to == .fullScreen && transition.trigger == .user)
        #expect(machine.mode == .inline)
        #expect(machine.handle(.enterFullScreen, at: .zero) == [], "one transition at a time")
        #expect(machine.handle(.transitionFinished(id: transition.id, cancelled: false), at: .seconds(1)) == [.transitionEnded(transition, .completed)])
        #expect(machine.mode == .fullScreen)
        #expect(machine.transition == nil)
    }

    @Test("an interactive dismissal the user abandons ends its will-end cancelled and the view stays full screen")
    func abandonedDismissal() throws {
        var machine = try Self.fullScreen()
        let transition = try Self.announced(machine.handle(.beginInteractiveDismissal, at: .seconds(3)))
        #expect(transition.trigger == .interactiveGesture)
        #expect(transition.to == .inline)
        #expect(machine.handle(.transitionFinished(id: transition.id, cancelled: true), at: .seconds(4)) == [.transitionEnded(transition, .cancelled)])
        #expect(machine.mode == .fullScreen)
        // Completed the second time.
        let again = try Self.announced(machine.handle(.beginInteractiveDismissal, at: .seconds(5)))
        #expect(machine.handle(.transitionFinished(id: again.id, cancelled: false), at: .seconds(6)) == [.transitionEnded(again, .completed)])
        #expect(machine.mode == .inline)
    }

    @Test("a finish for a transition that is not in flight is ignored")
    func staleFinish() throws {
        var machine = Machine()
        let first = try Self.announced(machine.handle(.enterFullScreen, at: .zero))
        #expect(machine.handle(.transitionFinished(id: first.id + 7, cancelled: false), at: .zero) == [])
        #expect(machine.transition == first)
        _ = machine.handle(.transitionFinished(id: first.id, cancelled: false), at: .zero)
        #expect(machine.handle(.transitionFinished(id: first.id, cancelled: true), at: .zero) == [], "already finished")
        #expect(machine.mode == .fullScreen)
    }

    @Test("with automatic full screen, playback beginning enters it and reaching the end leaves it")
    func automaticFullScreen() throws {
        var machine = Machine(configuration: .init(entersFullScreenWhenPlaybackBegins: true, exitsFullScreenWhenPlaybackEnds: true))
        let enter = try Self.announced(machine.handle(.playbackBegan, at: .zero))
        #expect(enter.trigger == .playbackBegan && enter.to == .fullScreen)
        _ = machine.handle(.transitionFinished(id: enter.id, cancelled: false), at: .zero)
        let exit = try Self.announced(machine.handle(.playbackEnded, at: .seconds(60)))
        #expect(exit.trigger == .playbackEnded && exit.to == .inline)

        var manual = Machine()
        #expect(manual.handle(.playbackBegan, at: .zero) == [], "not configured: no automatic full screen")
    }

    @Test("reaching the end after the user scrubbed there does not leave full screen; after a seek elsewhere it does")
    func scrubbedToEnd() throws {
        var machine = try Self.fullScreen(.init(exitsFullScreenWhenPlaybackEnds: true))
        _ = machine.handle(.userSeekFinished(reachedEnd: true), at: .seconds(10))
        #expect(machine.handle(.playbackEnded, at: .seconds(10)) == [])
        #expect(machine.mode == .fullScreen)
        _ = machine.handle(.userSeekFinished(reachedEnd: false), at: .seconds(11))
        _ = machine.handle(.playbackBegan, at: .seconds(11))
        let exit = try Self.announced(machine.handle(.playbackEnded, at: .seconds(40)))
        #expect(exit.trigger == .playbackEnded)
    }

    @Test("going to the background while playing starts picture in picture and never pauses; without it the video pauses")
    func backgroundPictureInPicture() throws {
        var machine = try Self.fullScreen()
        let actions = machine.handle(.appDidEnterBackground, at: .seconds(5))
        let start = try Self.announced(actions)
        #expect(start.to == .pictureInPicture && start.from == .fullScreen && start.trigger == .appBackgrounded)
        #expect(!actions.contains { if case .pause = $0 { true } else { false } })
        #expect(machine.handle(.transitionFinished(id: start.id, cancelled: false), at: .seconds(5)) == [.transitionEnded(start, .completed)])
        #expect(machine.mode == .pictureInPicture)

        var noPiP = try Self.fullScreen(.init(allowsPictureInPicturePlayback: false))
        #expect(noPiP.handle(.appDidEnterBackground, at: .seconds(5)) == [.pause(.backgroundedWithoutPictureInPicture)])
        #expect(noPiP.mode == .fullScreen)

        var paused = Machine()
        #expect(paused.handle(.appDidEnterBackground, at: .zero) == [], "nothing playing: nothing to keep on screen")
    }

    @Test("picture in picture that fails to start leaves the view where it was")
    func pictureInPictureFails() throws {
        var machine = Machine()
        _ = machine.handle(.playbackBegan, at: .zero)
        let start = try Self.announced(machine.handle(.appDidEnterBackground, at: .zero))
        #expect(machine.handle(.transitionFinished(id: start.id, cancelled: true), at: .zero) == [.transitionEnded(start, .cancelled)])
        #expect(machine.mode == .inline)
    }

    /// A machine in picture in picture started from full screen at 5 s.
    static func inPictureInPicture() throws -> Machine {
        var machine = try fullScreen()
        let start = try announced(machine.handle(.appDidEnterBackground, at: .seconds(5)))
        _ = machine.handle(.transitionFinished(id: start.id, cancelled: false), at: .seconds(5))
        return machine
    }

    @Test("restoring asks the delegate to restore its interface and goes back to full screen when it completes")
    func restore() throws {
        var machine = try Self.inPictureInPicture()
        let actions = machine.handle(.restoreFromPictureInPicture, at: .seconds(20))
        guard case .restoreUserInterface(let request) = actions.first else {
            Issue.record("expected a restore request, got \(actions)")
            return
        }
        #expect(request.returnTo == .fullScreen)
        #expect(request.deadline == .seconds(25))
        #expect(actions == [.restoreUserInterface(request), .scheduleWake(at: .seconds(25))])
        #expect(machine.handle(.restoreCompleted(id: request.id, restored: true), at: .seconds(21)) == [.pictureInPictureStopped(restored: true)])
        #expect(machine.mode == .fullScreen)
        #expect(machine.handle(.wake, at: .seconds(25)) == [], "answered: the wake has nothing to do")
    }

    @Test("a restore completion never called times out at the deadline: reported, stopped unrestored, a late completion ignored")
    func restoreNeverCompleted() throws {
        var machine = try Self.inPictureInPicture()
        let actions = machine.handle(.appWillEnterForeground, at: .seconds(20))
        guard case .restoreUserInterface(let request) = actions.first else {
            Issue.record("expected a restore request, got \(actions)")
            return
        }
        #expect(machine.handle(.wake, at: .milliseconds(24_999)) == [], "a wake before the deadline changes nothing")
        #expect(machine.mode == .pictureInPicture)
        #expect(machine.handle(.wake, at: .seconds(25)) == [.restoreTimedOut(request), .pictureInPictureStopped(restored: false)])
        #expect(machine.mode == .inline)
        #expect(machine.handle(.restoreCompleted(id: request.id, restored: true), at: .seconds(30)) == [])
        #expect(machine.mode == .inline)
    }

    @Test("closing the picture-in-picture window stops it unrestored and pauses, as the user asked")
    func closePictureInPicture() throws {
        var machine = try Self.inPictureInPicture()
        #expect(machine.handle(.closePictureInPicture, at: .seconds(8)) == [.pictureInPictureStopped(restored: false), .pause(.pictureInPictureClosed)])
        #expect(machine.mode == .inline)
    }
}
