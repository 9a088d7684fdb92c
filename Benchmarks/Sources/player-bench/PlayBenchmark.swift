internal import MediaTime
internal import PlayerEngine
internal import Synchronization
internal import VirtualTime

/// Plays the benchmark stream to its end on virtual time, `rounds` times, and measures the CPU
/// time and wall time of each play.
///
/// Each round makes a fresh clock, executor, in-memory network and player; the network is filled
/// before the measurement starts (serving is not the player's work). What is measured runs from
/// making the player to releasing it: loading and parsing the playlists and asset lists, probing
/// every segment's media, the buffer, the schedule, the breaks, every event. A round whose play
/// does not reach the end with every break and segment expected fails the benchmark.
///
///     RESULT peer=interlude-player bench=single rounds=5 cpu_median_s=0.412 cpu_min_s=0.398 ...
struct PlayBenchmark {
    /// The stream.
    var stream: BenchmarkStream
    /// How many plays to measure.
    var rounds: Int
    /// The network every load sees.
    var conditions: MemoryResourceLoader<ManualClock>.Conditions

    /// Where the in-memory network serves the stream (nothing listens there).
    static let origin = "http://127.0.0.1:8080/bench/"
    /// The virtual time after which a play that has not ended counts as stuck.
    static let limit = Duration.seconds(86_400)

    /// A failed round: what went wrong.
    struct Failure: Error, CustomStringConvertible {
        /// The problems, one per line.
        var description: String
    }

    /// Runs the rounds and returns the result line.
    func run() throws(Failure) -> String {
        var cpu: [Double] = []
        var wall: [Double] = []
        var counts = PlayTally.Counts()
        let realClock = ContinuousClock()
        for round in 1...rounds {
            let clock = ManualClock()
            let executor = ManualTaskExecutor()
            let loader = MemoryResourceLoader(clock: clock, conditions: conditions)
            stream.serve(on: loader, origin: Self.origin)
            let tally = PlayTally()
            let before = ProcessResources.now()
            let started = realClock.now
            Self.play(stream: stream, clock: clock, executor: executor, loader: loader, tally: tally)
            let elapsed = realClock.now - started
            let after = ProcessResources.now()
            counts = tally.snapshot
            let problems = PlayTally.problems(counts, stream: stream)
            guard problems.isEmpty else {
                throw Failure(description: "round \(round): " + problems.joined(separator: "\n  "))
            }
            cpu.append(after.cpuSeconds - before.cpuSeconds)
            wall.append(Format.seconds(elapsed))
            withExtendedLifetime(loader) {}
        }
        let virtualSeconds = Format.seconds(counts.lastEventTime)
        return "RESULT peer=interlude-player bench=single rounds=\(rounds) "
            + "cpu_median_s=\(Format.fixed(Format.median(cpu), decimals: 3)) cpu_min_s=\(Format.fixed(cpu.min() ?? 0, decimals: 3)) "
            + "cpu_max_s=\(Format.fixed(cpu.max() ?? 0, decimals: 3)) wall_median_s=\(Format.fixed(Format.median(wall), decimals: 3)) "
            + "virtual_s=\(Format.fixed(virtualSeconds, decimals: 1)) speedup=\(Int(virtualSeconds / Format.median(wall))) "
            + "segments=\(counts.contentSegments) ad_segments=\(counts.adSegments) other_loads=\(counts.otherLoads) "
            + "breaks=\(counts.breaks.count) events=\(counts.events) warnings=\(counts.warnings.count) "
            + "cpu_rounds=\(cpu.map { Format.fixed($0, decimals: 3) }.joined(separator: ","))"
    }

    /// Plays the stream once, not measured, and returns its trace: one JSON line per event
    /// (`PlayerEvent.traceLine`, as `interlude play --trace` writes them), loads included.
    func trace() -> [String] {
        let clock = ManualClock()
        let executor = ManualTaskExecutor()
        let loader = MemoryResourceLoader(clock: clock, conditions: conditions)
        stream.serve(on: loader, origin: Self.origin)
        let lines = TraceLines()
        let player = Player(clock: clock, loader: loader, executor: executor)
        player.addEventHandler { event in lines.append(event.traceLine) }
        let tally = PlayTally()
        tally.watch(player)
        player.replaceCurrentItem(with: PlayerItem(url: Self.origin + BenchmarkStream.playlistPath, primaryID: "bench"))
        player.play()
        VirtualTimeDriver(clock: clock, executor: executor).run(until: { tally.isOver }, limit: ManualClock.Instant(offset: Self.limit))
        return lines.values
    }

    /// Makes a player, plays the stream on it to the end (or ``limit``), and releases it.
    @inline(never)
    static func play(stream: BenchmarkStream, clock: ManualClock, executor: ManualTaskExecutor, loader: MemoryResourceLoader<ManualClock>, tally: PlayTally) {
        let player = Player(clock: clock, loader: loader, executor: executor)
        tally.watch(player)
        player.replaceCurrentItem(with: PlayerItem(url: origin + BenchmarkStream.playlistPath, primaryID: "bench"))
        player.play()
        VirtualTimeDriver(clock: clock, executor: executor).run(until: { tally.isOver }, limit: ManualClock.Instant(offset: limit))
        player.replaceCurrentItem(with: nil)
        executor.runUntilIdle()
    }
}

/// Trace lines collected from a player's event handler.
private final class TraceLines: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ line: String) { storage.withLock { $0.append(line) } }
    var values: [String] { storage.withLock { $0 } }
}
