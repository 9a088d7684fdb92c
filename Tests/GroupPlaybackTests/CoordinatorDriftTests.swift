import GroupCoordination
import GroupPlayback
import GroupPlaybackTesting
import GroupWire
import MediaTime
import Testing

@Suite struct CoordinatorDriftTests {
    @Test("offsets inside the tolerance are left alone", arguments: [0, 5, -12, 19, -19])
    func tolerance(milliseconds: Int) {
        var corrector = DriftCorrector()
        #expect(corrector.decide(offset: .milliseconds(milliseconds), at: .seconds(10)) == .none)
        #expect(corrector.correctionCount == 0)
    }

    @Test("offsets between the tolerance and the seek threshold are corrected by a rate change of at most 5 %",
          arguments: [20, 60, 249, -20, -249])
    func rateCorrection(milliseconds: Int) {
        var corrector = DriftCorrector()
        guard case .adjustRate(let multiplier) = corrector.decide(offset: .milliseconds(milliseconds), at: .seconds(10)) else {
            Issue.record("no rate correction")
            return
        }
        // Ahead slows down, behind speeds up, within 5 %.
        #expect((multiplier < 1) == (milliseconds > 0))
        #expect(abs(multiplier - 1) <= 0.05)
        #expect(abs(abs(multiplier - 1) - min(abs(Double(milliseconds)) / 5_000, 0.05)) < 1e-12)
    }

    @Test("offsets at or above the seek threshold are corrected by a seek", arguments: [250, 1_000, -250, -30_000])
    func seekCorrection(milliseconds: Int) {
        var corrector = DriftCorrector()
        #expect(corrector.decide(offset: .milliseconds(milliseconds), at: .seconds(10)) == .seek)
        #expect(corrector.correctionCount == 1)
    }

    @Test("a rate correction runs until the offset has settled, not just until it is back inside the tolerance")
    func hysteresis() {
        var corrector = DriftCorrector()
        #expect(corrector.decide(offset: .milliseconds(40), at: .seconds(1)) == .adjustRate(multiplier: 0.992))
        #expect(corrector.decide(offset: .milliseconds(15), at: .seconds(2)) == .none)
        #expect(corrector.isCorrecting)
        #expect(corrector.decide(offset: .milliseconds(4), at: .seconds(3)) == .adjustRate(multiplier: 1))
        #expect(!corrector.isCorrecting)
        #expect(corrector.decide(offset: .milliseconds(15), at: .seconds(4)) == .none)
        #expect(corrector.correctionCount == 1)
    }

    @Test("the thresholds are configurable")
    func configurable() {
        var configuration = DriftCorrector.Configuration()
        configuration.tolerance = .milliseconds(40)
        configuration.seekThreshold = .seconds(1)
        configuration.maximumRateAdjustment = 0.005
        var corrector = DriftCorrector(configuration: configuration)
        #expect(corrector.decide(offset: .milliseconds(30), at: .seconds(1)) == .none)
        #expect(corrector.decide(offset: .milliseconds(500), at: .seconds(1)) == .adjustRate(multiplier: 0.995))
    }

    @Test("a player whose clock runs 100 ppm fast stays within 25 ms of the group for two hours with few corrections")
    func steadyDrift() {
        var group = CoordinatorTestGroup()
        group.add("alice")
        group.add("bob")
        group.players["bob"]!.clockRate = 1.0001
        group.run(for: .seconds(1))
        group.perform("alice") { $0.coordinateRateChange(to: 1, at: $1) }
        group.run(for: .seconds(2))
        var worst = MediaTime.zero
        for _ in 0..<7_200 {
            group.run(for: .seconds(1))
            let position = group.position("bob")
            group.perform("bob") { $0.observeLocalPlayback(.item(position), at: $1) }
            worst = MediaTime.max(worst, (group.position("bob") - group.position("alice")).magnitude)
        }
        let corrections = group.coordinators["bob"]!.driftCorrector.correctionCount
        #expect(worst < t("0.025"), "worst offset \(worst)")
        // Without the learned trim this drift needs a correction every few minutes.
        #expect(corrections <= 12, "\(corrections) corrections")
        #expect(group.controls["bob"]!.allSatisfy { control in
            if case .adjustRate(let multiplier) = control.1.command { return abs(multiplier - 1) <= 0.05 }
            return true
        })
    }

    @Test("the learned trim survives the group's commands: a drifting player stays in sync across seeks")
    func trimSurvivesCommands() {
        var group = CoordinatorTestGroup()
        group.add("alice")
        group.add("bob")
        group.players["bob"]!.clockRate = 1.0001
        group.run(for: .seconds(1))
        group.perform("alice") { $0.coordinateRateChange(to: 1, at: $1) }
        var worst = MediaTime.zero
        for second in 0..<3_600 {
            if second % 600 == 300 { group.perform("alice") { $0.coordinateSeek(to: .item(t(Int64(second * 2))), at: $1) } }
            group.run(for: .seconds(1))
            let position = group.position("bob")
            group.perform("bob") { $0.observeLocalPlayback(.item(position), at: $1) }
            worst = MediaTime.max(worst, (group.position("bob") - group.position("alice")).magnitude)
        }
        #expect(worst < t("0.025"), "worst offset \(worst)")
        // One correction learns the drift; the seeks re-anchor the player without undoing it.
        #expect(group.coordinators["bob"]!.driftCorrector.correctionCount == 1)
    }

    @Test("a player that fell far behind is put back on the group's position by a seek")
    func seekWhenFarBehind() {
        var group = CoordinatorTestGroup()
        group.add("alice")
        group.add("bob")
        group.run(for: .seconds(1))
        group.perform("alice") { $0.coordinateRateChange(to: 1, at: $1) }
        group.run(for: .seconds(10))
        let behind = group.position("alice") - t(2)
        let actions = group.perform("bob") { $0.observeLocalPlayback(.item(behind), at: $1) }
        let commands = actions.compactMap { action -> PlaybackControlCommand? in
            if case .control(let control) = action { return control.command }
            return nil
        }
        #expect(commands == [.play(rate: 1, position: .item(t("9.7")), groupTime: group.now)])
    }
}
