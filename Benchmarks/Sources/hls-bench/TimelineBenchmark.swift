internal import HLSInterstitials
internal import HLSPlaylist
internal import MediaTime

/// Times what a player does with a parsed playlist before it can draw a transport bar: build the
/// interstitial events from the DATERANGE tags, lay them on the primary timeline (schedule) and
/// take an integrated-timeline snapshot. Parsing is not timed (the parse benchmark does that).
///
/// It reports the schedule and snapshot alone (from events and a primary timeline made
/// beforehand), the whole build from the parsed playlist, and a live reload: the window slides by
/// one segment and one new interstitial appears. The reload is timed as a player makes it (events,
/// primary timeline, schedule and snapshot each built from the previous load's) beside its peer,
/// the same reload with the schedule and snapshot built whole, and in its parts.
///
///     RESULT peer=interlude file=live-24h-2000-interstitials.m3u8 events=2000 segments=43200 schedule_snapshot_median_us=… reload_median_us=… reload_whole_median_us=… …
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

        // What the player holds from the first load.
        let events = InterstitialEvent.events(in: playlist).events
        let primary = PrimaryTimeline(playlist: playlist)
        let schedule = InterstitialSchedule(primary: primary, events: events)
        let snapshot = IntegratedTimeline.Snapshot(schedule: schedule)

        // The schedule and the snapshot alone, from events and a primary timeline already made
        // (a player makes those once per playlist load or reload).
        func scheduleSnapshot() -> IntegratedTimeline.Snapshot {
            IntegratedTimeline.Snapshot(schedule: InterstitialSchedule(primary: primary, events: events))
        }
        func build() -> IntegratedTimeline.Snapshot {
            let events = InterstitialEvent.events(in: playlist).events
            let schedule = InterstitialSchedule(primary: PrimaryTimeline(playlist: playlist), events: events)
            return IntegratedTimeline.Snapshot(schedule: schedule)
        }
        // The reload, each step from the previous load's result.
        func reload() -> IntegratedTimeline.Snapshot {
            let next = InterstitialEvent.events(in: reloaded, reusing: events).events
            let timeline = PrimaryTimeline(playlist: reloaded, continuing: primary)
            let rescheduled = InterstitialSchedule(primary: timeline, events: next, reusing: schedule)
            return IntegratedTimeline.Snapshot(schedule: rescheduled, reusing: snapshot)
        }
        // Its peer: the same reload with the schedule and the snapshot built whole.
        func reloadWhole() -> IntegratedTimeline.Snapshot {
            let next = InterstitialEvent.events(in: reloaded, reusing: events).events
            let timeline = PrimaryTimeline(playlist: reloaded, continuing: primary)
            return IntegratedTimeline.Snapshot(schedule: InterstitialSchedule(primary: timeline, events: next))
        }
        // The reload's parts.
        let reloadedEvents = InterstitialEvent.events(in: reloaded, reusing: events).events
        let reloadedPrimary = PrimaryTimeline(playlist: reloaded, continuing: primary)
        func reloadScheduleSnapshot() -> IntegratedTimeline.Snapshot {
            let rescheduled = InterstitialSchedule(primary: reloadedPrimary, events: reloadedEvents, reusing: schedule)
            return IntegratedTimeline.Snapshot(schedule: rescheduled, reusing: snapshot)
        }
        func reloadScheduleSnapshotWhole() -> IntegratedTimeline.Snapshot {
            IntegratedTimeline.Snapshot(schedule: InterstitialSchedule(primary: reloadedPrimary, events: reloadedEvents))
        }

        guard reload() == reloadWhole() else {
            throw PlaylistFile.Failure(description: "the reload built from the previous load differs from the one built whole")
        }
        Blackhole.checksum &+= snapshot.segments.count
        let scheduled = time { scheduleSnapshot().segments.count }
        let built = time { build().segments.count }
        let reloadFigure = time { reload().segments.count }
        let reloadWholeFigure = time { reloadWhole().segments.count }
        let eventsFigure = time { InterstitialEvent.events(in: reloaded, reusing: events).events.count }
        let primaryFigure = time { PrimaryTimeline(playlist: reloaded, continuing: primary).segmentStarts.count }
        let partFigure = time { reloadScheduleSnapshot().segments.count }
        let partWholeFigure = time { reloadScheduleSnapshotWhole().segments.count }

        func fields(_ name: String, _ figure: (median: Double, minimum: Double)) -> String {
            "\(name)_median_us=\(ParseBenchmark.format(figure.median, decimals: 1)) \(name)_min_us=\(ParseBenchmark.format(figure.minimum, decimals: 1))"
        }
        return "RESULT peer=interlude file=\(fileName) events=\(events.count) segments=\(playlist.segments.count) "
            + [
                fields("schedule_snapshot", scheduled), fields("build", built),
                fields("reload", reloadFigure), fields("reload_whole", reloadWholeFigure),
                "reload_speedup=\(ParseBenchmark.format(reloadWholeFigure.median / reloadFigure.median, decimals: 2))",
                fields("reload_events", eventsFigure), fields("reload_primary", primaryFigure),
                fields("reload_schedule_snapshot", partFigure), fields("reload_schedule_snapshot_whole", partWholeFigure),
                "reload_schedule_snapshot_speedup=\(ParseBenchmark.format(partWholeFigure.median / partFigure.median, decimals: 2))",
            ].joined(separator: " ")
    }

    /// The median and the fastest time of `body`, in microseconds, after three untimed calls, once
    /// both minimums are reached. What `body` makes is released after the clock stops.
    private func time(_ body: () -> Int) -> (median: Double, minimum: Double) {
        for _ in 0..<3 { Blackhole.checksum &+= body() }
        let clock = ContinuousClock()
        var samples: [Duration] = []
        var measured = Duration.zero
        let minimum = Duration.nanoseconds(Int64(minimumSeconds * 1e9))
        while measured < minimum || samples.count < minimumIterations {
            let start = clock.now
            let count = body()
            let elapsed = clock.now - start
            Blackhole.checksum &+= count
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
