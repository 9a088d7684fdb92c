import Synchronization
import Testing
import VirtualTime

/// `interlude play --speed` and `interlude join --drift` run on a scaled clock.
@Suite("Scaled clock")
struct ScaledClockTests {
    @Test("a scaled clock runs its multiple of the base clock, and sleepers wake when it has run far enough")
    func scaledClock() {
        let base = ManualClock()
        let executor = ManualTaskExecutor()
        let clock = ScaledClock(base: base, speed: 4)
        let woke = Flag()
        let task = Task(executorPreference: executor) {
            try? await clock.sleep(for: .seconds(8))
            woke.set()
        }
        executor.runUntilIdle()
        base.advance(by: .seconds(1))
        executor.runUntilIdle()
        #expect(clock.now.offset == .seconds(4))
        #expect(!woke.isSet)
        base.advance(by: .milliseconds(999))
        executor.runUntilIdle()
        #expect(!woke.isSet, "7.996 s of the 8 s asked for")
        base.advance(by: .milliseconds(1))
        executor.runUntilIdle()
        #expect(woke.isSet)
        task.cancel()
    }
}

/// A flag set from a task.
private final class Flag: Sendable {
    private let value = Atomic(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}
