import Synchronization
import Testing
import VirtualTime

/// A default actor that records when it ticked, on whatever clock it is given.
actor Ticker {
    private(set) var ticks: [ManualClock.Instant] = []

    func run(clock: ManualClock, every interval: Duration, count: Int) async throws {
        for _ in 0..<count {
            try await clock.sleep(for: interval)
            ticks.append(clock.now)
        }
    }
}

final class Recorder: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ value: String) { storage.withLock { $0.append(value) } }
    var values: [String] { storage.withLock { $0 } }
}

@Suite("Virtual time")
struct ManualClockTests {
    @Test("a ticker fires once per virtual second and only when the clock moves", arguments: [1, 3, 10])
    func tickerFires(count: Int) async throws {
        let clock = ManualClock()
        let executor = ManualTaskExecutor()
        let ticker = Ticker()
        let task = Task(executorPreference: executor) {
            try await ticker.run(clock: clock, every: .seconds(1), count: count)
        }
        executor.runUntilIdle()
        for expected in 1...count {
            #expect(clock.pendingSleeps == 1)
            clock.advance(by: .milliseconds(999))
            executor.runUntilIdle()
            #expect(await ticker.ticks.count == expected - 1)
            clock.advance(by: .milliseconds(1))
            executor.runUntilIdle()
            #expect(await ticker.ticks.count == expected)
        }
        try await task.value
        #expect(await ticker.ticks == (1...count).map { ManualClock.Instant(offset: .seconds($0)) })
    }

    @Test("sleepers wake in deadline order, ties in the order they slept")
    func wakeOrder() async throws {
        let clock = ManualClock()
        let executor = ManualTaskExecutor()
        let order = Recorder()
        let tasks = [("c", 3), ("a", 1), ("b1", 2), ("b2", 2)].map { name, seconds in
            Task(executorPreference: executor) {
                try await clock.sleep(for: .seconds(seconds))
                order.append(name)
            }
        }
        executor.runUntilIdle()
        #expect(clock.pendingSleeps == 4)
        clock.advance(by: .seconds(5))
        executor.runUntilIdle()
        for task in tasks { try await task.value }
        #expect(order.values == ["a", "b1", "b2", "c"])
    }

    @Test("cancelling a sleeping task wakes it with CancellationError")
    func cancellation() async {
        let clock = ManualClock()
        let executor = ManualTaskExecutor()
        let task = Task(executorPreference: executor) { try await clock.sleep(for: .seconds(60)) }
        executor.runUntilIdle()
        task.cancel()
        executor.runUntilIdle()
        #expect(clock.pendingSleeps == 0)
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test("the driver steps from deadline to deadline so loops see every intermediate time")
    func driverSteps() async throws {
        let driver = VirtualTimeDriver()
        let ticker = Ticker()
        let task = Task(executorPreference: driver.executor) {
            try await ticker.run(clock: driver.clock, every: .milliseconds(250), count: 8)
        }
        driver.run(for: .seconds(10))
        try await task.value
        #expect(await ticker.ticks.map(\.offset) == (1...8).map { .milliseconds(250 * $0) })
        #expect(driver.clock.now.offset == .seconds(10))
    }

    @Test("a sleep until a past deadline returns at once")
    func pastDeadline() async throws {
        let clock = ManualClock(now: ManualClock.Instant(offset: .seconds(10)))
        try await clock.sleep(until: ManualClock.Instant(offset: .seconds(5)), tolerance: nil)
        #expect(clock.pendingSleeps == 0)
    }
}
