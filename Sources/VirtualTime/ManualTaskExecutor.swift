import Synchronization

/// A task executor that runs jobs only when told to, on the calling thread: with a
/// ``ManualClock`` it makes asynchronous code deterministic. Tasks created with
/// `Task(executorPreference:)` (and the default actors and nonisolated functions they call) run
/// here.
///
///     let executor = ManualTaskExecutor()
///     let task = Task(executorPreference: executor) { await work() }
///     executor.runUntilIdle()   // runs everything that is ready, synchronously
public final class ManualTaskExecutor: TaskExecutor, Sendable {
    private let queue = Mutex<[UnownedJob]>([])

    /// An empty executor.
    public init() {}

    /// Queues a job; it runs at the next ``runUntilIdle()``.
    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        queue.withLock { $0.append(unowned) }
    }

    /// How many jobs are waiting.
    public var pendingJobs: Int { queue.withLock { $0.count } }

    /// Runs jobs until none is ready, including the jobs that running ones enqueue. Returns how
    /// many ran.
    @discardableResult
    public func runUntilIdle() -> Int {
        var count = 0
        while true {
            let next = queue.withLock { jobs -> UnownedJob? in jobs.isEmpty ? nil : jobs.removeFirst() }
            guard let job = next else { return count }
            job.runSynchronously(on: asUnownedTaskExecutor())
            count += 1
        }
    }
}

/// Drives code on virtual time: runs the executor until idle, then moves the clock to the next
/// sleeper's deadline, and so on, until a time limit.
public struct VirtualTimeDriver: Sendable {
    /// The clock.
    public let clock: ManualClock
    /// The executor.
    public let executor: ManualTaskExecutor

    /// A driver for `clock` and `executor`.
    public init(clock: ManualClock = ManualClock(), executor: ManualTaskExecutor = ManualTaskExecutor()) {
        self.clock = clock
        self.executor = executor
    }

    /// Runs everything that is ready, then advances from deadline to deadline up to `instant`,
    /// running what each wake-up makes ready; the clock ends at `instant`.
    public func run(until instant: ManualClock.Instant) {
        executor.runUntilIdle()
        while clock.advanceToNextDeadline(notAfter: instant) {
            executor.runUntilIdle()
        }
        clock.advance(to: instant)
        executor.runUntilIdle()
    }

    /// Runs for `duration` of virtual time from now.
    public func run(for duration: Duration) {
        run(until: clock.now.advanced(by: duration))
    }
}
