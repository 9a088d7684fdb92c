import Foundation
import GroupSimulation
import Testing

@Suite("Group simulator")
struct GroupSimulatorTests {
    @Test func vodDefaultPolicy() throws {
        let report = try SimulationFixtures.run("""
            { "name": "t", "duration": "4m",
              "network": { "latency": "50ms", "jitter": "20ms", "loss": 0.01 },
              "participants": [
                { "name": "alice", "viewer": "alice", "stream": "movie", "kind": "vod" },
                { "name": "bob", "viewer": "bob", "stream": "movie", "kind": "vod", "clock": { "offset": "80ms", "driftPPM": 100 } },
                { "name": "charlie", "viewer": "charlie", "stream": "movie", "kind": "vod", "clock": { "offset": "-30ms", "driftPPM": -100 } }
              ],
              "actions": [ { "at": "3s", "participant": "alice", "action": "play" } ] }
            """)
        print(report.text)
    }
}
