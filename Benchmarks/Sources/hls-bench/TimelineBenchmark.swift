internal import HLSInterstitials
internal import HLSPlaylist
internal import MediaTime

/// Times what a player does with a parsed playlist before it can draw a transport bar: build the
/// interstitial events from the DATERANGE tags, lay them on the primary timeline (schedule) and
/// take an integrated-timeline snapshot. Parsing is not timed (the parse benchmark does that).
///
/// It reports the schedule and snapshot alone (from events and a primary timeline made
/// beforehand), the whole build from the parsed playlist, and the same work for a live reload: the window slides by one segment and one new
/// interstitial appears, and the new primary timeline continues the previous one.
///
///     RESULT peer=interlude file=live-24h-2000-interstitials.m3u8 events=2000 segments=43200 build_median_us=… reload_median_us=…
struct TimelineBenchmark {
    var fileName: String
    var bytes: [UInt8]
    var minimumSeconds: Double
    var minimumIterations: Int

    func run() throws -> String {
        guard case .media(let playlist) = try PlaylistParser.parse(bytes).playlist else {
            throw PlaylistFile.Failure(description: "\(fileName) is not a media playlist")
        }
        let reloaded = Self.reload(of: playlist)

        func build() -> IntegratedTimeline.Snapshot {
            let events = InterstitialEvent.events(in: playlist).events
            let schedule = InterstitialSchedule(primary: PrimaryTimeline(playlist: playlist), events: events)
            return IntegratedTimeline.Snapshot(schedule: schedule)
        }
        let previous = PrimaryTimeline(playlist: playlist)
        let previousEvents = InterstitialEvent.events(in: playlist).events
        func rebuild() -> IntegratedTimeline.Snapshot {
            let events = InterstitialEvent.events(in: reloaded, reusing: previousEvents).events
            let schedule = InterstitialSchedule(primary: PrimaryTimeline(playlist: reloaded, continuing: previous), events: events)
            return IntegratedTimeline.Snapshot(schedule: schedule)
        }
        // The schedule and the snapshot alone, from events and a primary timeline already made
        // (a player makes those once per playlist load or reload).
        let events = InterstitialEvent.events(in: playlist).events
        let primary = PrimaryTimeline(playlist: playlist)
        func schedule() -> IntegratedTimeline.Snapshot {
            IntegratedTimeline.Snapshot(schedule: InterstitialSchedule(primary: primary, events: events))
        }
        let first = build()
        let scheduled = time(schedule)
        let built = time(build)
        let reload = time(rebuild)
        Blackhole.checksum &+= first.segments.count
        return "RESULT peer=interlude file=\(fileName) events=\(events.count) segments=\(playlist.segments.count) "
            + "schedule_snapshot_median_us=\(ParseBenchmark.format(scheduled.median, decimals: 1)) schedule_snapshot_min_us=\(ParseBenchmark.format(scheduled.minimum, decimals: 1)) "
            + "build_median_us=\(ParseBenchmark.format(built.median, decimals: 1)) build_min_us=\(ParseBenchmark.format(built.minimum, decimals: 1)) "
            + "reload_median_us=\(ParseBenchmark.format(reload.median, decimals: 1)) reload_min_us=\(ParseBenchmark.format(reload.minimum, decimals: 1))"
    }

    private func time(_ body: () -> IntegratedTimeline.Snapshot) -> (median: Double, minimum: Double) {
        for _ in 0..<3 { Blackhole.checksum &+= body().segments.count }
        let clock = ContinuousClock()
        var samples: [Duration] = []
        var measured = Duration.zero
        let minimum = Duration.nanoseconds(Int64(minimumSeconds * 1e9))
        while measured < minimum || samples.count < minimumIterations {
            let start = clock.now
            let snapshot = body()
            let elapsed = clock.now - start
            Blackhole.checksum &+= snapshot.segments.count
            samples.append(elapsed)
            measured += elapsed
        }
        samples.sort()
        return (ParseBenchmark.microseconds(samples[samples.count / 2]), ParseBenchmark.microseconds(samples[0]))
    }

    /// The next reload of a live playlist: the oldest segment leaves the window, a new one joins,
    /// and an interstitial is announced on it.
    static func reload(of playlist: MediaPlaylist) -> MediaPlaylist {
        var next = playlist
        guard let last = playlist.segments.last, let lastDate = playlist.programDateTimes().last ?? nil else { return next }
        next.segments.removeFirst()
        next.mediaSequence += 1
        var segment = MediaSegment(uri: "next-\(playlist.mediaSequence + playlist.segments.count).ts", duration: last.duration)
        segment.programDateTime = lastDate.adding(last.duration)
        var range = DateRange(id: "reload-break", className: DateRange.interstitialClass, startDate: lastDate.adding(last.duration))
        range.duration = MediaTime(seconds: 30)
        range.assetList = "https://ads.example.com/reload.json"
        range.timelineOccupies = .range
        segment.dateRanges = [range]
        next.segments.append(segment)
        return next
    }
}
