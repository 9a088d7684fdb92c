import GroupPlayback
import HLSInterstitials
import MediaTime
import PlayerEngine
import Testing
import VirtualTime

/// Real players coordinated over the in-memory network (50 ms ± 20 ms one way, 1% loss), with a
/// group clock an hour away from the host clocks, all on virtual time.
@Suite("Player playback coordinator")
struct ShellPlayerPlaybackCoordinatorTests {
    @Test("a play by one participant starts both together, and they stay together")
    func playStartsTogether() {
        let rig = ShellGroupRig(["alice", "bob"])
        rig.start()
        rig.load()
        rig.run(until: 3)
        #expect(rig.members.allSatisfy { $0.coordinator.isConnected })
        #expect(rig.members.allSatisfy { $0.coordinator.currentItemIdentifier == "movie" })
        #expect(rig["alice"].player.timeControlStatus == .paused && rig["bob"].player.timeControlStatus == .paused)
        rig["alice"].player.play()
        rig.run(until: 4)
        #expect(rig["bob"].player.timeControlStatus == .playing)
        let startSkew = rig.skew
        let steadySkew = rig.maximumSkew(until: 60)
        print("play together: skew \(startSkew) ms at start, max \(steadySkew) ms over 56 s; positions \(rig["alice"].seconds) \(rig["bob"].seconds)")
        #expect(startSkew < 10)
        #expect(steadySkew < 10)
        #expect(rig["alice"].seconds > 55 && rig["alice"].seconds < 57.5)
        // Bob's start was Alice's command.
        #expect(rig["bob"].commands.contains { if case .play = $0.command { return $0.originator == "alice" } else { return false } })
        rig.stop()
    }
}
