internal import HLSPlaylist
internal import MediaTime
internal import PlayerEngine
internal import VirtualTime

/// Plays the benchmark stream on many players at once in this process, on one virtual clock, and
/// measures the memory they take: resident memory (`VmRSS`, and its peak `VmHWM`) and the heap in
/// use (glibc `mallinfo2`), with every player in the middle of the stream, with every player at
/// its end, and after they are released.
///
/// The players share one in-memory network (a CDN, as it were), filled before the baseline is
/// taken, so the fixture bytes are not counted against the players; they start `stagger` apart so
/// that they are at different points of the stream (breaks, loads and timers do not all fall due
/// together). A play of the stream once before the baseline keeps one-time allocations of the
/// runtime out of the figures. `playlist_model_bytes` is what one parsed copy of the primary
/// playlist weighs, the largest part of a player. `MemoryResourceLoader` keeps a log of every request it served; its
/// size is measured after the players are released and reported on its own (`loader_log_bytes`),
/// and subtracted, in proportion to the requests served by then, from the mid-stream per-player
/// heap.
///
///     RESULT peer=interlude-player bench=memory players=100 ... heap_per_player_mid_bytes=… rss_peak_bytes=…
struct MemoryBenchmark {
    /// The stream.
    var stream: BenchmarkStream
    /// How many players.
    var players: Int
    /// Virtual time between one player's start and the next's.
    var stagger: Duration
    /// The network every load sees.
    var conditions: MemoryResourceLoader<ManualClock>.Conditions

    /// Runs the benchmark and returns the result line.
    func run() throws(PlayBenchmark.Failure) -> String {
        try warmUp()
        let modelBytes = playlistModelBytes()
        let clock = ManualClock()
        let executor = ManualTaskExecutor()
        let driver = VirtualTimeDriver(clock: clock, executor: executor)
        let loader = MemoryResourceLoader(clock: clock, conditions: conditions)
        stream.serve(on: loader, origin: PlayBenchmark.origin)
        let finished = PlayTally.Finishers()
        let base = ProcessResources.now()

        var fleet: [(player: Player, tally: PlayTally)] = []
        fleet.reserveCapacity(players)
        for index in 0..<players {
            driver.run(until: ManualClock.Instant(offset: stagger * index))
            fleet.append(Self.start(stream: stream, clock: clock, executor: executor, loader: loader, finished: finished))
        }

        // The players' average position is the middle of the stream.
        let playLength = Duration.seconds((stream.contentDuration + stream.adDuration).seconds)
        driver.run(until: ManualClock.Instant(offset: stagger * (players - 1) / 2 + playLength / 2))
        let middle = ProcessResources.now()
        let requestsAtMiddle = loader.requests.count
        let breaksAtMiddle = fleet.reduce(0) { $0 + $1.tally.snapshot.breaks.count }

        driver.run(until: { finished.value == players }, limit: ManualClock.Instant(offset: PlayBenchmark.limit))
        let end = ProcessResources.now()
        let requestsAtEnd = loader.requests.count
        for (index, member) in fleet.enumerated() {
            let problems = PlayTally.problems(member.tally.snapshot, stream: stream)
            guard problems.isEmpty else { throw PlayBenchmark.Failure(description: "player \(index): " + problems.joined(separator: "\n  ")) }
        }
        let virtualEnd = clock.now.offset

        for member in fleet { member.player.replaceCurrentItem(with: nil) }
        executor.runUntilIdle()
        fleet = []
        executor.runUntilIdle()
        let released = ProcessResources.now()

        // What is left over the baseline once the players are gone is the loader's request log.
        let logBytes = max(0, released.heapBytes - base.heapBytes)
        let logAtMiddle = requestsAtEnd > 0 ? logBytes * requestsAtMiddle / requestsAtEnd : 0
        let perPlayerMiddle = (middle.heapBytes - base.heapBytes - logAtMiddle) / players
        let perPlayerEnd = (end.heapBytes - released.heapBytes) / players
        let cpu = end.cpuSeconds - base.cpuSeconds
        withExtendedLifetime(loader) {}
        return "RESULT peer=interlude-player bench=memory players=\(players) stagger_s=\(Format.fixed(Format.seconds(stagger), decimals: 1)) "
            + "virtual_s=\(Format.fixed(Format.seconds(virtualEnd), decimals: 1)) breaks_at_middle=\(breaksAtMiddle) "
            + "cpu_s=\(Format.fixed(cpu, decimals: 3)) cpu_per_player_s=\(Format.fixed(cpu / Double(players), decimals: 3)) "
            + "rss_base_bytes=\(base.residentBytes) rss_middle_bytes=\(middle.residentBytes) rss_end_bytes=\(end.residentBytes) "
            + "rss_peak_bytes=\(end.peakResidentBytes) heap_base_bytes=\(base.heapBytes) heap_middle_bytes=\(middle.heapBytes) "
            + "heap_end_bytes=\(end.heapBytes) heap_released_bytes=\(released.heapBytes) loader_log_bytes=\(logBytes) "
            + "heap_per_player_middle_bytes=\(perPlayerMiddle) heap_per_player_end_bytes=\(perPlayerEnd) "
            + "playlist_model_bytes=\(modelBytes)"
    }

    /// One play of the stream before anything is measured.
    private func warmUp() throws(PlayBenchmark.Failure) {
        _ = try PlayBenchmark(stream: stream, rounds: 1, conditions: conditions).run()
    }

    /// The heap one parsed primary playlist keeps alive, parsed as the engine parses it (lenient,
    /// from the bytes the network serves, which the players share): the part of each player's
    /// heap that is its copy of the playlist model.
    private func playlistModelBytes() -> Int {
        let bytes = stream.resources[0].bytes
        let options = ParseOptions(mode: .lenient, playlistURI: PlayBenchmark.origin + BenchmarkStream.playlistPath)
        _ = try? PlaylistParser.parse(bytes, options: options)
        let before = ProcessResources.now().heapBytes
        let playlist = try? PlaylistParser.parse(bytes, options: options).playlist
        return withExtendedLifetime(playlist) { ProcessResources.now().heapBytes - before }
    }

    /// Makes a player, starts the stream on it, and returns it with its tally.
    private static func start(stream: BenchmarkStream, clock: ManualClock, executor: ManualTaskExecutor, loader: MemoryResourceLoader<ManualClock>, finished: PlayTally.Finishers) -> (Player, PlayTally) {
        let player = Player(clock: clock, loader: loader, executor: executor)
        let tally = PlayTally(finishers: finished)
        tally.watch(player)
        player.replaceCurrentItem(with: PlayerItem(url: PlayBenchmark.origin + BenchmarkStream.playlistPath))
        player.play()
        return (player, tally)
    }
}
