import MediaTime
import Testing
import VideoBackend

/// The switch's deadlines worked out from primary's position reports, on host times given by
/// the test.
@Suite("InterstitialSwitchStateMachine")
struct InterstitialSwitchStateMachineTests {
    typealias Machine = InterstitialSwitchStateMachine

    static let scheduledBreak = Machine.Break(start: MediaTime(seconds: 20), duration: MediaTime(seconds: 3))

    /// A machine for ``scheduledBreak`` told primary is at 18 s at host time 100 s (the switch
    /// due at 102 s), and with `switched`, woken at 102 s: the asset plays until 105 s.
    static func machine(switched: Bool) -> Machine {
        var machine = Machine(scheduledBreak: scheduledBreak)
        _ = machine.handle(.primaryPosition(MediaTime(seconds: 18), at: .seconds(100)))
        if switched { _ = machine.handle(.wake(at: .seconds(102))) }
        return machine
    }

    @Test("the first report prerolls the asset and puts the switch where primary reaches the break's start")
    func firstReport() {
        var machine = Machine(scheduledBreak: Self.scheduledBreak)
        let actions = machine.handle(.primaryPosition(MediaTime(seconds: 18), at: .seconds(100)))
        #expect(actions == [.prerollAsset, .scheduleWake(at: .seconds(102))])
        #expect(machine.phase == .primary(switchAt: .seconds(102)))
    }

    @Test("a break further away than the preload lead prerolls its asset only that far ahead, once")
    func preloadLead() {
        var machine = Machine(scheduledBreak: Self.scheduledBreak, preloadLead: .seconds(5))
        #expect(machine.handle(.primaryPosition(.zero, at: .seconds(100))) == [.scheduleWake(at: .seconds(115))])
        #expect(!machine.isAssetRequested)
        #expect(machine.handle(.primaryPosition(MediaTime(seconds: 10), at: .seconds(110))) == [.scheduleWake(at: .seconds(115))])
        #expect(machine.handle(.wake(at: .seconds(115))) == [.prerollAsset, .scheduleWake(at: .seconds(120))])
        #expect(machine.isAssetRequested)
        #expect(machine.handle(.primaryPosition(MediaTime(seconds: 16), at: .seconds(116))) == [.scheduleWake(at: .seconds(120))])
    }

    @Test("with no lead the asset is prerolled just as it is switched to")
    func noLead() {
        var machine = Machine(scheduledBreak: Self.scheduledBreak, preloadLead: .zero)
        #expect(machine.handle(.primaryPosition(MediaTime(seconds: 18), at: .seconds(100))) == [.scheduleWake(at: .seconds(102))])
        #expect(machine.handle(.wake(at: .seconds(102))) == [.prerollAsset, .switchToAsset, .seekPrimary(to: MediaTime(seconds: 20)), .scheduleWake(at: .seconds(105))])
    }

    @Test("each report re-anchors the deadline, so a primary that fell behind switches later")
    func reanchors() throws {
        var machine = Self.machine(switched: false)
        // One second later primary has played only 0.9 s (a stall): the switch moves 0.1 s later.
        let position = try #require(MediaTime(decimal: "18.9"))
        #expect(machine.handle(.primaryPosition(position, at: .seconds(101))) == [.scheduleWake(at: .milliseconds(102_100))])
        // A wake at the old deadline switches nothing; it asks again for the new one.
        #expect(machine.handle(.wake(at: .seconds(102))) == [.scheduleWake(at: .milliseconds(102_100))])
        #expect(machine.phase == .primary(switchAt: .milliseconds(102_100)))
    }

    @Test("at the deadline: pause primary and play the asset, seek primary to the resumption point, wake at the scheduled end")
    func switches() {
        var machine = Machine(scheduledBreak: Machine.Break(start: MediaTime(seconds: 20), duration: MediaTime(seconds: 3), resumptionOffset: MediaTime(seconds: 3)))
        _ = machine.handle(.primaryPosition(MediaTime(seconds: 18), at: .seconds(100)))
        _ = machine.handle(.assetPrerolled)
        #expect(machine.isAssetPrerolled)
        #expect(machine.handle(.wake(at: .milliseconds(102_001))) == [.switchToAsset, .seekPrimary(to: MediaTime(seconds: 23)), .scheduleWake(at: .seconds(105))])
        #expect(machine.phase == .asset(switchedAt: .seconds(102), endsAt: .seconds(105)))
        // Reports from the paused primary change nothing.
        #expect(machine.handle(.primaryPosition(MediaTime(seconds: 20), at: .seconds(103))) == [])
        #expect(machine.handle(.wake(at: .seconds(105))) == [.switchToPrimary])
        #expect(machine.phase == .resumed(at: .seconds(105)))
        #expect(machine.isFinished)
    }

    @Test("a report that arrives past the deadline switches at once, with the end counted from the deadline")
    func lateReport() {
        var machine = Self.machine(switched: false)
        let actions = machine.handle(.primaryPosition(MediaTime(seconds: 20), at: .milliseconds(102_050)))
        #expect(actions == [.switchToAsset, .seekPrimary(to: MediaTime(seconds: 20)), .scheduleWake(at: .milliseconds(105_050))])
    }

    @Test("an asset that ends before the scheduled end brings primary back at once; the later wake does nothing")
    func assetEndsEarly() {
        var machine = Self.machine(switched: true)
        #expect(machine.handle(.assetEnded(at: .milliseconds(104_500))) == [.switchToPrimary])
        #expect(machine.phase == .resumed(at: .milliseconds(104_500)))
        #expect(machine.handle(.wake(at: .seconds(105))) == [])
    }

    @Test("a primary already past the break's start misses it and plays on; an end of stream before the switch does nothing")
    func missed() {
        var machine = Machine(scheduledBreak: Self.scheduledBreak)
        #expect(machine.handle(.assetEnded(at: .seconds(1))) == [])
        #expect(machine.handle(.primaryPosition(MediaTime(seconds: 21), at: .seconds(100))) == [])
        #expect(machine.phase == .missed)
        #expect(machine.isFinished)
    }

    @Test("an asset that fails before the switch abandons the break: primary plays on, nothing is switched")
    func failsBeforeSwitch() {
        var machine = Self.machine(switched: false)
        #expect(machine.handle(.assetFailed(at: .milliseconds(100_300))) == [])
        #expect(machine.phase == .abandoned(at: .milliseconds(100_300)))
        #expect(machine.isFinished)
        #expect(machine.handle(.wake(at: .seconds(102))) == [])
    }

    @Test("an asset that fails while it plays brings primary back at once")
    func failsDuringAsset() {
        var machine = Self.machine(switched: true)
        #expect(machine.handle(.assetFailed(at: .seconds(103))) == [.switchToPrimary])
        #expect(machine.phase == .abandoned(at: .seconds(103)))
    }

    @Test("a pre-roll (primary at the break's start when it first reports) prerolls the asset and switches once it has prerolled, not before; its end counts from the switch")
    func preRoll() {
        var machine = Machine(scheduledBreak: Machine.Break(start: .zero, duration: MediaTime(seconds: 5)))
        #expect(machine.handle(.primaryPosition(.zero, at: .seconds(100))) == [.prerollAsset])
        #expect(machine.switchesOnPreroll)
        #expect(machine.phase == .primary(switchAt: .seconds(100)), "due, waiting for the asset")
        #expect(machine.handle(.primaryPosition(.zero, at: .milliseconds(100_100))) == [], "still prerolling")
        #expect(machine.handle(.assetPrerolled) == [])
        #expect(machine.handle(.wake(at: .milliseconds(100_300)))
            == [.switchToAsset, .seekPrimary(to: .zero), .scheduleWake(at: .milliseconds(105_300))])
        #expect(machine.phase == .asset(switchedAt: .milliseconds(100_300), endsAt: .milliseconds(105_300)))
    }

    @Test("a mid-roll switches on its deadline whether or not its asset has prerolled")
    func midRollDoesNotWaitForPreroll() {
        var machine = Self.machine(switched: false)
        #expect(!machine.switchesOnPreroll)
        #expect(machine.handle(.wake(at: .seconds(102))).contains(.switchToAsset))
    }
}
