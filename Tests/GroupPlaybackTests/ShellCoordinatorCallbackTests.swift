import Dispatch
import Foundation
import GroupCoordination
import GroupPlayback
import PlayerEngine
import Synchronization
import Testing

/// The coordinator's shell lets go of its lock before it commands the player.
@Suite("Player playback coordinator, calling out")
struct ShellCoordinatorCallbackTests {
    @Test("a player handler that waits for another thread reading the coordinator, while the coordinator commands the player, does not deadlock")
    func handlerReadsCoordinatorFromAnotherThread() {
        let rig = ShellGroupRig(["alice", "bob"])
        let bob = rig["bob"]
        let readings = Mutex<[[CoordinatedPlaybackSuspension.Reason]]>([])
        let timedOut = Atomic(false)
        bob.player.addEventHandler { [coordinator = bob.coordinator] event in
            guard case .rateChanged(_, .coordinator) = event.kind else { return }
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                let reasons = coordinator.suspensionReasons
                _ = coordinator.groupStatus
                readings.withLock { $0.append(reasons) }
                done.signal()
            }
            if done.wait(timeout: .now() + 10) == .timedOut { timedOut.store(true, ordering: .relaxed) }
        }
        ShellPlayerPlaybackCoordinatorTests.playing(rig, until: 6)
        let didTimeOut = timedOut.load(ordering: .relaxed)
        #expect(!didTimeOut, "the coordinator held its lock while it commanded the player")
        // Bob started because Alice did, and could be read while he did.
        #expect(bob.player.timeControlStatus == .playing)
        #expect(readings.withLock { $0 }.contains([]))
        rig.stop()
    }
}
