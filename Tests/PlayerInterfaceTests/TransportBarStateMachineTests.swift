import HLSInterstitials
import MediaTime
import PlayerInterface
import Testing

/// The transport bar's machine: what is redrawn when (S2.8), scrubbing with refinement (S3.10) and
/// the restrictions of the current break (X-RESTRICT), on the timeline of ``TransportBarTests``.
@Suite("TransportBarStateMachine")
struct TransportBarStateMachineTests {
    typealias Machine = TransportBarStateMachine
    static let tags = TransportBarTests.tags

    static func snapshot(_ position: IntegratedTimeline.Position, tags: [String] = tags) throws -> IntegratedTimeline.Snapshot {
        try Timeline.snapshot(tags, at: position)
    }

    /// A machine that has drawn the bar at `position`.
    static func machine(at position: IntegratedTimeline.Position, tags: [String] = tags) throws -> Machine {
        var machine = Machine()
        _ = machine.handle(.snapshot(try snapshot(position, tags: tags)))
        return machine
    }

    // MARK: - Redrawing (S2.8)

    @Test("the first snapshot draws the bar and sets the controls")
    func firstSnapshot() throws {
        var machine = Machine()
        let snapshot = try Self.snapshot(.primary(time("6")))
        #expect(machine.handle(.snapshot(snapshot)) == [.redraw(TransportBar(snapshot: snapshot)), .updateControls(nil)])
    }

    @Test("a snapshot in which only time moved moves the playhead and redraws nothing")
    func timeOnly() throws {
        var machine = try Self.machine(at: .primary(time("6")))
        #expect(machine.handle(.snapshot(try Self.snapshot(.primary(time("7"))))) == [.movePlayhead(time("7"), breakRemaining: nil)])
        #expect(machine.handle(.snapshot(try Self.snapshot(.primary(time("7"))))) == [], "nothing moved, nothing to do")
    }

    @Test("entering a break updates the controls without redrawing the bar; its countdown rides on the playhead")
    func currentSegmentChanged() throws {
        var machine = try Self.machine(at: .primary(time("29")))
        let entered = machine.handle(.snapshot(try Self.snapshot(.interstitial(eventID: "ad", offset: .zero))))
        let controls = try #require(entered.compactMap { if case .updateControls(let current) = $0 { current } else { nil } }.first)
        #expect(controls.eventID == "ad")
        #expect(!controls.isSkippable)
        #expect(entered.contains(.movePlayhead(time("30"), breakRemaining: time("10"))))
        #expect(!entered.contains { if case .redraw = $0 { true } else { false } })
        #expect(machine.handle(.snapshot(try Self.snapshot(.interstitial(eventID: "ad", offset: time("3"))))) == [
            .movePlayhead(time("33"), breakRemaining: time("7")),
        ])
    }

    @Test("the skip button's window opening updates the controls though the segment is the same")
    func skipWindowOpens() throws {
        var machine = try Self.machine(at: .interstitial(eventID: "ad", offset: time("4")))
        let actions = machine.handle(.snapshot(try Self.snapshot(.interstitial(eventID: "ad", offset: time("5")))))
        #expect(actions.count == 2)
        guard case .updateControls(let current?) = actions.first else {
            Issue.record("expected the controls first, got \(actions)")
            return
        }
        #expect(current.isSkippable)
        #expect(actions.last == .movePlayhead(time("35"), breakRemaining: time("5")))
    }

    @Test("a snapshot whose segments changed redraws the bar, with the new break on it")
    func segmentsChanged() throws {
        var machine = try Self.machine(at: .primary(time("6")))
        let more = Self.tags + [Timeline.interstitial("late", at: "45", "DURATION=5,X-RESUME-OFFSET=0")]
        let actions = machine.handle(.snapshot(try Self.snapshot(.primary(time("6")), tags: more)))
        guard actions.count == 1, case .redraw(let bar) = actions[0] else {
            Issue.record("expected one redraw, got \(actions)")
            return
        }
        #expect(bar.marks.map(\.eventID) == ["dot", "ad", "late"])
    }

    // MARK: - Scrubbing (S3.10)

    @Test("a scrub moves by the fraction of the bar, finer once refined, and its commit seeks through the integrated timeline")
    func scrubAndCommit() throws {
        var machine = try Self.machine(at: .primary(time("6")))
        #expect(machine.handle(.beginScrub) == [.showScrubPreview(.init(target: time("6"), refinement: .highSpeed, playsBreakFirst: nil, isHeldByRestriction: false))])
        #expect(machine.isScrubbing)
        #expect(machine.handle(.moveScrub(byFraction: 0.5)) == [.showScrubPreview(.init(target: time("36"), refinement: .highSpeed, playsBreakFirst: nil, isHeldByRestriction: false))])
        _ = machine.handle(.refineScrub(.quarterSpeed))
        #expect(machine.handle(.moveScrub(byFraction: 0.1)) == [.showScrubPreview(.init(target: time("37.5"), refinement: .quarterSpeed, playsBreakFirst: nil, isHeldByRestriction: false))])
        #expect(machine.bar?.playhead == time("37.5"), "the thumb is drawn at the target")
        // 37.5 on the integrated timeline is 7.5 s into the range break.
        #expect(machine.handle(.commitScrub) == [.hideScrubPreview, .seek(.interstitial(eventID: "ad", offset: time("7.5")))])
        #expect(!machine.isScrubbing)
    }

    @Test("while scrubbing, snapshots do not move the thumb; a cancelled scrub puts the playhead back and seeks nowhere")
    func scrubCancelled() throws {
        var machine = try Self.machine(at: .primary(time("6")))
        _ = machine.handle(.beginScrub)
        _ = machine.handle(.moveScrub(byFraction: 0.25))
        #expect(machine.handle(.snapshot(try Self.snapshot(.primary(time("7"))))) == [])
        #expect(machine.bar?.playhead == time("21"))
        #expect(machine.handle(.cancelScrub) == [.hideScrubPreview, .movePlayhead(time("7"), breakRemaining: nil)])
        #expect(machine.handle(.commitScrub) == [], "the session is over")
    }

    @Test("a scrub is clamped to the bar's ends")
    func scrubClamped() throws {
        var machine = try Self.machine(at: .primary(time("6")))
        _ = machine.handle(.beginScrub)
        #expect(machine.handle(.moveScrub(byFraction: -1)).first == .showScrubPreview(.init(target: .zero, refinement: .highSpeed, playsBreakFirst: nil, isHeldByRestriction: false)))
        _ = machine.handle(.moveScrub(byFraction: 3))
        #expect(machine.bar?.playhead == time("60"))
    }

    // MARK: - Restrictions

    static let jumpTags = [Timeline.interstitial("jump", at: "20", "DURATION=5,X-TIMELINE-OCCUPIES=\"RANGE\",X-RESTRICT=\"JUMP\"")]

    @Test("a scrub past an X-RESTRICT=JUMP break previews it and its commit plays the break first, then the target")
    func jumpRestriction() throws {
        var machine = try Self.machine(at: .primary(time("6")), tags: Self.jumpTags)
        _ = machine.handle(.beginScrub)
        let preview = machine.handle(.moveScrub(byFraction: 44.0 / 60.0))
        #expect(preview == [.showScrubPreview(.init(target: time("50"), refinement: .highSpeed, playsBreakFirst: "jump", isHeldByRestriction: false))])
        #expect(machine.handle(.commitScrub) == [.hideScrubPreview, .playBreakFirst(eventID: "jump", then: .primary(time("50")))])
        // A seek that stays before the break is a plain seek.
        #expect(machine.handle(.step(by: time("10"))) == [.seek(.primary(time("16")))])
    }

    static let skipTags = [Timeline.interstitial("locked", at: "30", "DURATION=10,X-TIMELINE-OCCUPIES=\"RANGE\",X-SKIP-CONTROL-OFFSET=0,X-RESTRICT=\"SKIP\"")]

    @Test("inside an X-RESTRICT=SKIP break: skip refused, a forward step refused, a scrub held at the current time, backward allowed")
    func skipRestriction() throws {
        var machine = try Self.machine(at: .interstitial(eventID: "locked", offset: time("2")), tags: Self.skipTags)
        #expect(machine.handle(.skipBreak) == [.refused(.restricted(eventID: "locked"))])
        #expect(machine.handle(.step(by: time("10"))) == [.refused(.restricted(eventID: "locked"))])
        _ = machine.handle(.beginScrub)
        #expect(machine.handle(.moveScrub(byFraction: 0.2)) == [.showScrubPreview(.init(target: time("32"), refinement: .highSpeed, playsBreakFirst: nil, isHeldByRestriction: true))])
        #expect(machine.handle(.moveScrub(byFraction: -0.2)) == [.showScrubPreview(.init(target: time("20"), refinement: .highSpeed, playsBreakFirst: nil, isHeldByRestriction: false))])
        #expect(machine.handle(.commitScrub) == [.hideScrubPreview, .seek(.primary(time("20")))])
    }

    @Test("skip is refused before the skip control's offset and outside a break, and asked of the player once it is open")
    func skip() throws {
        var machine = Machine()
        #expect(machine.handle(.skipBreak) == [.refused(.noTimeline)])
        _ = machine.handle(.snapshot(try Self.snapshot(.primary(time("6")))))
        #expect(machine.handle(.skipBreak) == [.refused(.notInBreak)])
        _ = machine.handle(.snapshot(try Self.snapshot(.interstitial(eventID: "ad", offset: time("2")))))
        #expect(machine.handle(.skipBreak) == [.refused(.notSkippable(eventID: "ad"))])
        _ = machine.handle(.snapshot(try Self.snapshot(.interstitial(eventID: "ad", offset: time("6")))))
        #expect(machine.handle(.skipBreak) == [.skipCurrentBreak(eventID: "ad")])
    }
}
