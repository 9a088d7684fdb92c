import HLSInterstitials
import MediaTime
import PlayerInterface
import Testing

/// The player view controller over a player the app owns (S3.1), with the standard controls, the
/// app's own or none, and the standard behaviours kept whichever draws them (S3.5).
@Suite("PlayerViewControllerStateMachine")
struct PlayerViewControllerStateMachineTests {
    typealias Machine = PlayerViewControllerStateMachine
    static let tags = TransportBarTests.tags
    static let locked = [Timeline.interstitial("locked", at: "30", "DURATION=10,X-TIMELINE-OCCUPIES=\"RANGE\",X-SKIP-CONTROL-OFFSET=0,X-RESTRICT=\"SKIP\"")]

    /// A controller showing the app's player 7, which has published a snapshot at `position`.
    static func showing(_ style: Machine.ControlsStyle, at position: IntegratedTimeline.Position, tags: [String] = tags,
                        paused: Bool = false) throws -> Machine {
        var machine = Machine(controlsStyle: style)
        _ = machine.handle(.playerReplaced(id: 7), at: .zero)
        _ = machine.handle(.playerChanged(id: 7, snapshot: try Timeline.snapshot(tags, at: position), isPaused: paused), at: .zero)
        return machine
    }

    static func commands(_ actions: [Machine.Action]) -> [Machine.PlayerCommand] {
        actions.compactMap { if case .send(let command, _) = $0 { command } else { nil } }
    }

    @Test("commands go to the player the app handed over and to no other; before it, after it is taken away, nothing is sent")
    func appOwnsThePlayer() throws {
        var machine = Machine()
        #expect(machine.playerID == nil)
        #expect(Self.commands(machine.handle(.command(.playPause), at: .zero)).isEmpty, "no player: nothing to command")
        #expect(machine.handle(.command(.step(by: time("5"))), at: .zero).contains(.refused(.noTimeline)))

        _ = machine.handle(.playerReplaced(id: 7), at: .zero)
        _ = machine.handle(.playerChanged(id: 7, snapshot: try Timeline.snapshot(Self.tags, at: .primary(time("6"))), isPaused: false), at: .zero)
        let step = machine.handle(.command(.step(by: time("2"))), at: .seconds(1))
        #expect(step.contains(.send(.seek(.primary(time("8"))), playerID: 7)))
        #expect(machine.handle(.command(.playPause), at: .seconds(1)).contains(.send(.pause, playerID: 7)))

        _ = machine.handle(.playerReplaced(id: nil), at: .seconds(2))
        #expect(Self.commands(machine.handle(.command(.playPause), at: .seconds(2))).isEmpty)
        #expect(machine.transportBar == nil, "the bar goes with the player")
    }

    @Test("a replaced player's late states are ignored, and the bar waits for the new player's first snapshot")
    func replacedPlayer() throws {
        var machine = try Self.showing(.standard, at: .primary(time("20")))
        _ = machine.handle(.playerReplaced(id: 8), at: .seconds(1))
        let late = machine.handle(.playerChanged(id: 7, snapshot: try Timeline.snapshot(Self.tags, at: .primary(time("21"))), isPaused: true), at: .seconds(1))
        #expect(late.isEmpty)
        #expect(machine.transportBar == nil)
        let first = machine.handle(.playerChanged(id: 8, snapshot: try Timeline.snapshot(Self.tags, at: .primary(time("3"))), isPaused: false), at: .seconds(2))
        #expect(first.contains { if case .standardControls(.redraw) = $0 { true } else { false } })
        #expect(machine.transportBar?.playhead == time("3"))
        #expect(Self.commands(machine.handle(.command(.skipBreak), at: .seconds(2))).isEmpty)
    }

    @Test("the standard controls draw the bar; custom controls get the same model and the standard bar is never drawn; with none nothing is drawn")
    func whoDraws() throws {
        let snapshot = try Timeline.snapshot(Self.tags, at: .primary(time("6")))
        for style in Machine.ControlsStyle.allCases {
            var machine = Machine(controlsStyle: style)
            _ = machine.handle(.playerReplaced(id: 1), at: .zero)
            let actions = machine.handle(.playerChanged(id: 1, snapshot: snapshot, isPaused: false), at: .zero)
            let standard = actions.filter { if case .standardControls = $0 { true } else { false } }
            let custom = actions.filter { if case .customControls = $0 { true } else { false } }
            switch style {
            case .standard:
                #expect(standard.first == .standardControls(.redraw(TransportBar(snapshot: snapshot))))
                #expect(custom.isEmpty)
            case .custom:
                #expect(custom.first == .customControls(.redraw(TransportBar(snapshot: snapshot))))
                #expect(standard.isEmpty)
            case .none:
                #expect(standard.isEmpty && custom.isEmpty)
            }
        }
    }

    @Test("inside an X-RESTRICT=SKIP break the custom controls are held to the rules as the standard ones are: no skip, no forward step, a backward one allowed")
    func restrictionsWhoeverDraws() throws {
        for style in Machine.ControlsStyle.allCases {
            var machine = try Self.showing(style, at: .interstitial(eventID: "locked", offset: time("4")), tags: Self.locked)
            #expect(machine.handle(.command(.skipBreak), at: .seconds(1)).contains(.refused(.restricted(eventID: "locked"))), "\(style)")
            let forward = machine.handle(.command(.step(by: time("10"))), at: .seconds(1))
            #expect(forward.contains(.refused(.restricted(eventID: "locked"))), "\(style)")
            #expect(Self.commands(forward).isEmpty, "\(style): nothing reaches the player")
            #expect(!Self.commands(machine.handle(.command(.step(by: time("-2"))), at: .seconds(1))).isEmpty, "\(style)")
        }
    }

    @Test("the controls come up on activity and go after the timeout while playing, stay while paused; with no controls neither they nor a wake")
    func controlsVisibility() throws {
        var machine = try Self.showing(.custom, at: .primary(time("6")))
        #expect(machine.handle(.userActivity, at: .seconds(10)) == [.show(.controls), .scheduleWake(at: .seconds(15))])
        #expect(machine.handle(.wake, at: .seconds(15)) == [.hide(.controls)])
        #expect(machine.visibleLayers == [.persistentElements])

        let paused = machine.handle(.playerChanged(id: 7, snapshot: nil, isPaused: true), at: .seconds(20))
        #expect(paused.contains(.show(.controls)), "pausing brings the controls up")
        #expect(machine.handle(.wake, at: .seconds(40)).isEmpty, "and keeps them while paused")

        var bare = try Self.showing(.none, at: .primary(time("6")))
        #expect(bare.handle(.userActivity, at: .seconds(1)).isEmpty)
        #expect(bare.visibleLayers == [.persistentElements])
        #expect(bare.handle(.command(.playPause), at: .seconds(1)) == [.send(.pause, playerID: 7)], "a command the app passes on still acts")
    }

    @Test("a scrub with custom controls moves their playhead and seeks the app's player where it was let go")
    func customScrub() throws {
        var machine = try Self.showing(.custom, at: .primary(time("6")))
        _ = machine.handle(.command(.beginScrub), at: .seconds(1))
        let moved = machine.handle(.command(.moveScrub(byFraction: 0.1)), at: .seconds(1))
        #expect(moved.contains { if case .customControls(.showScrubPreview) = $0 { true } else { false } })
        let committed = machine.handle(.command(.commitScrub), at: .seconds(2))
        #expect(Self.commands(committed).count == 1)
        #expect(committed.contains(.customControls(.hideScrubPreview)))
    }
}
