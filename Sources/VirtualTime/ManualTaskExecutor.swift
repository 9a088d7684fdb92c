import Dispatch
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
    private let arrivals = DispatchSemaphore(value: 0)

    /// An empty executor.
    public init() {}

    /// Queues a job; it runs at the next ``runUntilIdle()``.
    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        queue.withLock { $0.append(unowned) }
        arrivals.signal()
    }

    /// Blocks the calling thread until a job is queued (by another thread: a load over a real
    /// network finishing) or `timeout` passes; returns whether a job is waiting.
    public func waitForJob(timeout: Duration) -> Bool {
        let (seconds, attoseconds) = timeout.components
        let deadline = DispatchTime.now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        // Signals from jobs already run may be left over: wait until a job is really there.
        while pendingJobs == 0 {
            if arrivals.wait(timeout: deadline) == .timedOut { return pendingJobs > 0 }
        }
        return true
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

extension VirtualTimeDriver {
    /// Runs until `isDone` says so or nothing is left to do: runs what is ready, waits (in real
    /// time, up to `realWait`) while `isWaitingForOutsideWork` (loads over a real network), else
    /// moves the clock to the next deadline. Returns whether `isDone` became true.
    @discardableResult
    public func run(
        until isDone: () -> Bool,
        limit: ManualClock.Instant? = nil,
        isWaitingForOutsideWork: () -> Bool = { false },
        realWait: Duration = .seconds(30)
    ) -> Bool {
        while true {
            executor.runUntilIdle()
            if isDone() { return true }
            if isWaitingForOutsideWork() {
                if executor.waitForJob(timeout: realWait) { continue }
                return false
            }
            guard clock.advanceToNextDeadline(notAfter: limit) else { return isDone() }
        }
    }
}
