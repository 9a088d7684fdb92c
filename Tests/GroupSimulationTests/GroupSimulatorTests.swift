import Foundation
import GroupSimulation
import Testing

/// The shipped scenarios produce the experiences the talks describe: who waits, who catches up,
/// by how much; and the group stays in step.
@Suite("Simulated group stories")
struct GroupSimulatorTests {
    @Test("S1.9, S1.10 live: the premium viewer never waits; the ad watchers play their own ads and come back without skipping content")
    func liveMixedGroup() throws {
        let report = try SimulationFixtures.run(scenario: "live-premium-and-ad-watchers")
        let alice = report.participant("alice"), bob = report.participant("bob"), charlie = report.participant("charlie")
        #expect(alice.waited.seconds < 1)
        #expect(alice.inBreaks == .zero)
        #expect(bob.waited.seconds < 2 && charlie.waited.seconds < 2)
        // Five breaks in five minutes: 15 s of ads each for Bob, 30 s for Charlie (whose clock
        // took longer to synchronise: he joined late, and his fifth break is still playing when
        // the five minutes end).
        #expect(abs(bob.inBreaks.seconds - 75) < 2)
        #expect(charlie.inBreaks.seconds > 140 && charlie.inBreaks.seconds < 152)
        #expect(bob.skipped < 0.5 && charlie.skipped < 0.5)
        #expect(report.skew.steadyPercentiles.p95 < 40)
        #expect(report.skew.steadyPercentiles.p99 < 80)
    }

    @Test("S1.11 VOD with the waiting policy: Alice waits 30 s at each of two breaks, Bob 15 s, Charlie not at all; nobody misses content")
    func vodGroupWaits() throws {
        let report = try SimulationFixtures.run(scenario: "vod-group-waits")
        let alice = report.participant("alice"), bob = report.participant("bob"), charlie = report.participant("charlie")
        #expect(abs(alice.waited.seconds - 60) < 3)
        #expect(abs(bob.waited.seconds - 30) < 3)
        #expect(charlie.waited.seconds < 2)
        for participant in report.participants {
            #expect(participant.skipped < 0.5, "\(participant.name) skipped \(participant.skipped) s")
            #expect(participant.finalPosition == 120)
        }
        #expect(report.notes.contains { $0.text.contains("waiting for bob") && $0.text.contains("charlie") })
        #expect(report.skew.steadyPercentiles.p95 < 40)
    }

    @Test("S1.2: the group waits at the start for the legal warning only the viewer in Germany gets")
    func legalWarning() throws {
        let report = try SimulationFixtures.run(scenario: "legal-warning")
        let alice = report.participant("alice"), dana = report.participant("dana")
        #expect(abs(alice.waited.seconds - 5) < 1)
        #expect(abs(dana.inBreaks.seconds - 5) < 0.5)
        #expect(alice.skipped == 0 && dana.skipped == 0)
        #expect(abs((alice.finalPosition ?? 0) - (dana.finalPosition ?? 1)) < 0.05)
    }

    @Test("S1.5: a seek into a stitched ad snaps the group to the ad's start; the ad watcher catches up by skipping")
    func stitchedSeekIntoBreak() throws {
        let report = try SimulationFixtures.run(scenario: "stitched-seek-into-break")
        let alice = report.participant("alice"), bob = report.participant("bob")
        // Bob seeks at 20 s to 45 s of his item, inside his ad at 40..55: film time 40 s.
        let afterSeek = alice.series.first { $0.time >= .seconds(21) }
        #expect(afterSeek.map { $0.coordinated >= 40 && $0.coordinated < 41.5 } == true)
        #expect(alice.skipped == 0)   // the group's seek is not catching up
        #expect(abs(bob.skipped - 30) < 1)   // two 15 s ads, each caught up
        #expect(abs((alice.finalPosition ?? 0) - (bob.finalPosition ?? 1)) < 0.05)
    }

    @Test("S2.10: a break whose content may not vary is played in sync by everyone; the differing ads are each one's own")
    func coWatchedBreak() throws {
        let report = try SimulationFixtures.run(scenario: "co-watched-break")
        let bob = report.participant("bob"), charlie = report.participant("charlie"), dana = report.participant("dana")
        #expect(abs(dana.inBreaks.seconds - 10) < 0.5)          // the shared trailer only
        #expect(abs(bob.inBreaks.seconds - 25) < 0.5)           // trailer + 15 s
        #expect(abs(charlie.inBreaks.seconds - 40) < 0.5)       // trailer + 30 s
        #expect(dana.skipped == 0)
        #expect(abs(bob.skipped - 15) < 0.5 && abs(charlie.skipped - 30) < 0.5)
        #expect(report.participants.allSatisfy { $0.finalPosition == 130 })   // 120 s of film + the 10 s trailer
        #expect(!report.notes.contains { $0.text.contains("differs") })
        #expect(report.skew.steadyPercentiles.p95 < 40)
    }

    @Test("the same scenario and seed give the same report; another seed gives other network draws")
    func determinism() throws {
        let first = try SimulationFixtures.run(scenario: "legal-warning")
        let second = try SimulationFixtures.run(scenario: "legal-warning")
        #expect(first.json == second.json)
    }

    @Test("a participant cut off by a partition falls back in step when the network heals, without resetting anyone")
    func partition() throws {
        let report = try SimulationFixtures.run(json: """
            { "name": "partition", "duration": "90s", "seed": 9,
              "network": { "latency": "50ms", "jitter": "20ms", "loss": 0.01,
                           "partitions": [ { "participant": "bob", "from": "20s", "until": "40s" } ] },
              "participants": [
                { "name": "alice", "viewer": "alice", "stream": "channel", "kind": "live" },
                { "name": "bob", "viewer": "alice", "stream": "channel", "kind": "live", "clock": { "offset": "70ms", "driftPPM": 100 } }
              ],
              "actions": [ { "at": "3s", "participant": "alice", "action": "play" },
                           { "at": "30s", "participant": "alice", "action": "pause" },
                           { "at": "35s", "participant": "alice", "action": "play" } ] }
            """)
        let alice = report.participant("alice"), bob = report.participant("bob")
        // Alice's pause and resume reach Bob after the partition heals: by the end they play together.
        #expect(abs((alice.finalPosition ?? 0) - (bob.finalPosition ?? 1)) < 0.05)
        #expect(alice.rewound == 0)
    }
}

@Suite("Simulation scenarios")
struct SimulationScenarioTests {
    @Test("durations read as numbers of seconds or text with units, negative ones too")
    func durations() {
        #expect(SimulatedDuration(text: "250ms")?.duration == .milliseconds(250))
        #expect(SimulatedDuration(text: "1m30s")?.duration == .seconds(90))
        #expect(SimulatedDuration(text: "2h")?.duration == .seconds(7200))
        #expect(SimulatedDuration(text: "-30ms")?.duration == .milliseconds(-30))
        #expect(SimulatedDuration(text: "12.5")?.duration == .milliseconds(12_500))
        #expect(SimulatedDuration(text: "soon") == nil)
        #expect(SimulatedDuration(.seconds(5430)).description == "1h30m30s")
    }

    @Test("a duration beyond what a scenario can hold is refused with its path instead of trapping")
    func hugeDurations() {
        func message(_ json: String) -> String? {
            do {
                _ = try SimulationScenario(json: Array(json.utf8))
                return nil
            } catch {
                return error.message
            }
        }
        // Found by the documents fuzzer (Fuzz/documents/scenario-duration-beyond-int64.json).
        let huge = message(#"{"name":"x","duration":"3m","network":{"jitter":-92233720368547758081},"participants":[{"name":"a"}]}"#)
        #expect(huge?.hasPrefix("network.jitter:") == true, "\(String(describing: huge))")
        #expect(SimulatedDuration(text: "1e300") == nil)
        #expect(SimulatedDuration(text: "99999999999999999h") == nil)
        #expect(SimulatedDuration(text: "nan") == nil)
    }

    @Test("a bad scenario is refused with the path of the problem")
    func errors() {
        func message(_ json: String) -> String? {
            do {
                _ = try SimulationScenario(json: Array(json.utf8))
                return nil
            } catch {
                return error.message
            }
        }
        #expect(message(#"{"name":"x","duration":"1m","participants":[]}"#) == "participants: at least one is needed")
        #expect(message(#"{"name":"x","participants":[{"name":"a"}]}"#) == "duration: missing")
        #expect(message(#"{"name":"x","duration":"often","participants":[{"name":"a"}]}"#)?.hasPrefix("duration: \"often\" is not a duration") == true)
        #expect(message(#"{"name":"x","duration":"1m","participants":[{"name":"a"},{"name":"a"}]}"#) == "participants[1].name: \"a\" is used twice")
        #expect(message(#"{"name":"x","duration":"1m","participants":[{"name":"a","kind":"radio"}]}"#) == "participants[0].kind: \"radio\" is neither \"vod\" nor \"live\"")
        #expect(message(#"{"name":"x","duration":"1m","participants":[{"name":"a"}],"actions":[{"at":1,"participant":"b","action":"play"}]}"#)
            == "actions[0].participant: no participant is called \"b\"")
        #expect(message(#"{"name":"x","duration":"1m","participants":[{"name":"a"}],"actions":[{"at":1,"participant":"a","action":"seek"}]}"#)
            == "actions[0].to: a seek needs a target")
    }
}

@Suite("Simulated asset requirements")
struct SimulatedAssetRequirementTests {
    @Test("S1.7 live stitched: different ad durations at the same break are reported, once per pair; equal ones are not")
    func liveStitchedMismatch() throws {
        let report = try SimulationFixtures.run(scenario: "stitched-live-mismatch", duration: .seconds(40))
        let mismatches = report.notes.filter { $0.text.hasPrefix("stitched break") }
        #expect(mismatches.contains { $0.participant == "bob" && $0.text.contains("for charlie") })
        #expect(mismatches.contains { $0.participant == "charlie" && $0.text.contains("for bob") })
        #expect(!mismatches.contains { $0.participant == "bob" && $0.text.contains("for bob2") })
        #expect(!mismatches.contains { $0.participant == "bob2" && $0.text.contains("for bob ") })
        // Once per pair: Charlie reports Bob and Bob2, each once.
        #expect(mismatches.filter { $0.participant == "charlie" }.count == 2)
    }
}
