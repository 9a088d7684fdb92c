import HLSInterstitials
import HLSPlaylist
import MediaTime
import TestSupport
import Testing

/// A live stream reloaded again and again, its schedule and snapshot built from the previous ones
/// (``InterstitialSchedule/init(primary:events:options:reusing:)``,
/// ``IntegratedTimeline/Snapshot/init(schedule:position:reusing:)``): after every reload they must
/// equal the ones built from scratch, written the same way (units and timescales, not only
/// instants). A failure names its seed and reload.
@Suite("Live reloads built from the previous schedule")
struct LiveReloadReuseTests {
    /// One interstitial of the simulated stream: the segment its tag precedes, and the tag's text.
    struct Event {
        var segment: Int
        var tag: String
    }

    /// The stream: a window of segments from `first`, their durations by media sequence number,
    /// the events announced so far, and the asset lists the player has.
    struct Stream {
        var first = 1_000
        var durations: [Int: String] = [:]
        var count = 0
        var events: [String: Event] = [:]
        var assetLists: [String: InterstitialSchedule.AssetListState] = [:]
        var nextEvent = 0
        /// A segment from which every date is 60 s later (a discontinuity before it).
        var jump: Int?
        /// Dates written on every segment, or only on the first.
        var datesEverySegment = true

        /// The date of a segment's start: two-second steps from a fixed origin, whatever the
        /// EXTINF durations say, so that uneven durations leave dates inside and between segments.
        func date(of segment: Int) -> PlaylistDate {
            var date = Fixture.epoch.adding(MediaTime(seconds: 2) * Int64(segment))
            if let jump, segment >= jump { date = date.adding(MediaTime(seconds: 60)) }
            return date
        }

        var text: String {
            var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:3", "#EXT-X-MEDIA-SEQUENCE:\(first)"]
            let tags = Dictionary(grouping: events.values, by: \.segment)
            for segment in first..<(first + count) {
                if segment == jump { lines.append("#EXT-X-DISCONTINUITY") }
                if datesEverySegment || segment == first || segment == jump {
                    lines.append("#EXT-X-PROGRAM-DATE-TIME:\(date(of: segment).iso8601String)")
                }
                for event in (tags[segment] ?? []).sorted(by: { $0.tag < $1.tag }) { lines.append(event.tag) }
                lines.append("#EXTINF:\(durations[segment]!),")
                lines.append("s\(segment).ts")
            }
            return lines.joined(separator: "\n") + "\n"
        }

        var playlist: MediaPlaylist { try! MediaPlaylist(parsing: text) }

        mutating func append(using random: inout SeededGenerator) {
            durations[first + count] = random.chance(0.8) ? "2" : random.pick(["1.5", "2.5", "2.002", "3"])
            count += 1
        }

        /// A tag announcing a break somewhere in the window or a little after it.
        mutating func announce(using random: inout SeededGenerator, id: String? = nil, on segment: Int? = nil) {
            let id = id ?? "e\(nextEvent)"
            if id == "e\(nextEvent)" { nextEvent += 1 }
            let segment = segment ?? Int.random(in: first..<(first + count), using: &random)
            let quarterSeconds = Int.random(in: -4...(random.chance(0.1) ? 80 : 12), using: &random)
            let start = date(of: segment).adding(MediaTime(value: Int64(quarterSeconds), timescale: 4))
            let duration = random.pick(["4", "6", "10", "30", "7.5"])
            var tag = "#EXT-X-DATERANGE:ID=\"\(id)\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"\(start.iso8601String)\",DURATION=\(duration)"
            tag += random.chance(0.7) ? ",X-ASSET-LIST=\"https://ads.example.com/\(id).json\"" : ",X-ASSET-URI=\"https://ads.example.com/\(id).m3u8\""
            if random.chance(0.5) { tag += ",X-SNAP=\"\(random.pick(["OUT", "IN", "OUT,IN"]))\"" }
            if random.chance(0.5) { tag += ",X-RESUME-OFFSET=\(random.pick(["0", duration, "3"]))" }
            if random.chance(0.5) { tag += ",X-TIMELINE-OCCUPIES=\"RANGE\"" }
            if random.chance(0.15) { tag += ",X-PLAYOUT-LIMIT=5" }
            if random.chance(0.05) { tag += ",CUE=\"PRE\"" }
            events[id] = Event(segment: segment, tag: tag)
        }

        /// One reload's worth of change.
        mutating func change(using random: inout SeededGenerator) {
            for _ in 0..<Int.random(in: 0...2, using: &random) where count > 4 {
                durations[first] = nil
                first += 1
                count -= 1
            }
            for _ in 0..<Int.random(in: 0...3, using: &random) { append(using: &random) }
            // Tags go with the segment they precede.
            events = events.filter { $0.value.segment >= first }
            if random.chance(0.6) { announce(using: &random, on: first + count - 1) }
            if random.chance(0.2) { announce(using: &random) }
            if random.chance(0.1), let id = events.keys.sorted().first { events[id] = nil }
            if random.chance(0.1), let id = events.keys.sorted().last {
                // The same ID with other attributes: a new event.
                announce(using: &random, id: id, on: events[id]!.segment)
            }
            if random.chance(0.25), let id = events.keys.sorted().randomElement(using: &random) {
                assetLists[id] = random.chance(0.8)
                    ? .resolved(AssetList(assets: [AssetList.Asset(uri: "\(id)-a.m3u8", duration: time(random.pick(["5", "12.5", "20"])))]))
                    : .failed("HTTP 500")
            }
            if jump == nil, random.chance(0.05) { jump = first + count }
        }
    }

    /// What a player holds after a load.
    struct Loaded {
        var events: [InterstitialEvent]
        var primary: PrimaryTimeline
        var schedule: InterstitialSchedule
        var snapshot: IntegratedTimeline.Snapshot
    }

    /// The reload built from `previous`, checked against the same reload built from scratch.
    static func reload(_ stream: Stream, after previous: Loaded, context: String) -> Loaded {
        let playlist = stream.playlist
        let options = InterstitialSchedule.Options(assetLists: stream.assetLists)
        let events = InterstitialEvent.events(in: playlist, reusing: previous.events).events
        let primary = PrimaryTimeline(playlist: playlist, continuing: previous.primary)
        let schedule = InterstitialSchedule(primary: primary, events: events, options: options, reusing: previous.schedule)
        let snapshot = IntegratedTimeline.Snapshot(schedule: schedule, reusing: previous.snapshot)

        let freshEvents = InterstitialEvent.events(in: playlist).events
        let fresh = InterstitialSchedule(primary: primary, events: freshEvents, options: options)
        let freshSnapshot = IntegratedTimeline.Snapshot(schedule: fresh)
        #expect(events == freshEvents, "\(context): events")
        #expect(schedule == fresh, "\(context): schedule")
        #expect("\(schedule.items)" == "\(fresh.items)", "\(context): schedule items as written")
        #expect(snapshot == freshSnapshot, "\(context): snapshot")
        #expect("\(snapshot.segments)" == "\(freshSnapshot.segments)", "\(context): segments as written")
        return Loaded(events: events, primary: primary, schedule: schedule, snapshot: snapshot)
    }

    static func firstLoad(_ stream: Stream) -> Loaded {
        let playlist = stream.playlist
        let events = InterstitialEvent.events(in: playlist).events
        let primary = PrimaryTimeline(playlist: playlist)
        let schedule = InterstitialSchedule(primary: primary, events: events, options: InterstitialSchedule.Options(assetLists: stream.assetLists))
        return Loaded(events: events, primary: primary, schedule: schedule, snapshot: IntegratedTimeline.Snapshot(schedule: schedule))
    }

    @Test("after every reload of a seeded random live stream the reused schedule and snapshot equal a fresh build",
          arguments: 1...60 as ClosedRange<UInt64>)
    func randomReloads(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var stream = Stream()
        stream.datesEverySegment = random.chance(0.8)
        for _ in 0..<40 { stream.append(using: &random) }
        for _ in 0..<8 { stream.announce(using: &random) }
        var loaded = Self.firstLoad(stream)
        for step in 1...25 {
            stream.change(using: &random)
            loaded = Self.reload(stream, after: loaded, context: "seed \(seed), reload \(step)")
        }
    }

    /// A steady stream: 2 s segments, a break every 20 s, one reload after another.
    static func steadyStream() -> Stream {
        var random = SeededGenerator(seed: 7)
        var stream = Stream()
        for _ in 0..<120 { stream.durations[stream.first + stream.count] = "2"; stream.count += 1 }
        for segment in stride(from: stream.first + 2, to: stream.first + stream.count, by: 10) {
            stream.announce(using: &random, on: segment)
        }
        return stream
    }

    @Test("a date maps to the covering segment's start plus the offset into it, in a window dated without gaps and after it slides",
          arguments: 1...20 as ClosedRange<UInt64>)
    func datesWithoutGaps(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let durations = (0..<60).map { _ in random.pick(["2", "2", "1.5", "2.5", "0.75"]) }
        // Dates that follow the EXTINF durations exactly, written on every segment.
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:3", "#EXT-X-MEDIA-SEQUENCE:500"]
        var date = Fixture.epoch
        for (index, duration) in durations.enumerated() {
            lines += ["#EXT-X-PROGRAM-DATE-TIME:\(date.iso8601String)", "#EXTINF:\(duration),", "s\(index).ts"]
            date = date.adding(time(duration))
        }
        let playlist = try MediaPlaylist(parsing: lines.joined(separator: "\n") + "\n")
        var slid = playlist
        slid.segments.removeFirst(3)
        slid.mediaSequence += 3
        let first = PrimaryTimeline(playlist: playlist)
        for timeline in [first, PrimaryTimeline(playlist: slid, continuing: first)] {
            let dates = timeline.segmentDates.map { $0! }
            for _ in 0..<200 {
                // To the millisecond, to the tenth of a millisecond, and a little outside the window.
                let scale: Int64 = random.chance(0.5) ? 1_000 : 10_000
                let offset = MediaTime(value: Int64.random(in: (-5 * scale)...(130 * scale), using: &random), timescale: Int32(scale))
                let target = Fixture.epoch.adding(offset)
                let expected: MediaTime
                if let covering = dates.lastIndex(where: { !(target < $0) }) {
                    expected = timeline.segmentStarts[covering] + target.timeIntervalSince(dates[covering])
                } else {
                    expected = timeline.segmentStarts[0] + target.timeIntervalSince(dates[0])
                }
                let mapped = try #require(timeline.time(for: target))
                #expect(mapped == expected, "seed \(seed): \(target.iso8601String)")
                #expect(mapped.debugDescription == expected.debugDescription, "seed \(seed): \(target.iso8601String) as written")
            }
        }
    }

    @Test("a reload that slides the window and announces one break keeps the other breaks and segments as they were")
    func reloadKeepsUnchangedBreaks() throws {
        var random = SeededGenerator(seed: 11)
        var stream = Self.steadyStream()
        let loaded = Self.firstLoad(stream)
        stream.durations[stream.first] = nil
        stream.first += 1
        stream.count -= 1
        stream.append(using: &random)
        stream.announce(using: &random, on: stream.first + stream.count - 1)
        let next = Self.reload(stream, after: loaded, context: "slide")

        let earlier = loaded.schedule.breaks
        let kept = next.schedule.breaks.filter { scheduled in earlier.contains { $0.isStored(like: scheduled) } }
        // Every break but the new one is the earlier break itself.
        #expect(earlier.count == 12)
        #expect(kept.count == next.schedule.breaks.count - 1)
        #expect(next.schedule.breaks.last.map { scheduled in !earlier.contains { $0.isStored(like: scheduled) } } == true, "the new break is new")
        let keptSegments = next.snapshot.segments.filter { segment in loaded.snapshot.segments.contains { $0 == segment } }.count
        #expect(keptSegments >= next.snapshot.segments.count - 4, "only the segments around the slide and the new break change")
    }

    @Test("a resolved asset list changes its break and what follows it, and nothing else is taken wrongly")
    func assetListResolved() throws {
        var stream = Self.steadyStream()
        let loaded = Self.firstLoad(stream)
        let target = try #require(loaded.schedule.breaks.dropFirst(3).first)
        stream.assetLists[target.id] = .resolved(AssetList(assets: [AssetList.Asset(uri: "a.m3u8", duration: time("45"))]))
        let next = Self.reload(stream, after: loaded, context: "asset list")
        let changed = try #require(next.schedule.scheduledBreak(id: target.id))
        #expect(changed.assetListState == stream.assetLists[target.id])
        #expect(changed.assets?.first?.uri == "a.m3u8")
        #expect(!changed.isStored(like: target))
    }

    @Test("a server that re-dates the segments it keeps gets a schedule mapped through the new dates")
    func reDatedSegments() throws {
        let stream = Self.steadyStream()
        let loaded = Self.firstLoad(stream)
        // The same media sequence numbers, every date 10 s later: nothing may be taken as it was.
        let text = stream.text.split(separator: "\n").map { line -> String in
            guard line.hasPrefix("#EXT-X-PROGRAM-DATE-TIME:"), let date = PlaylistDate(iso8601: line.dropFirst(25)) else { return String(line) }
            return "#EXT-X-PROGRAM-DATE-TIME:\(date.adding(MediaTime(seconds: 10)).iso8601String)"
        }.joined(separator: "\n") + "\n"
        let playlist = try MediaPlaylist(parsing: text)
        let events = InterstitialEvent.events(in: playlist, reusing: loaded.events).events
        let primary = PrimaryTimeline(playlist: playlist, continuing: loaded.primary)
        let schedule = InterstitialSchedule(primary: primary, events: events, reusing: loaded.schedule)
        let fresh = InterstitialSchedule(primary: primary, events: InterstitialEvent.events(in: playlist).events)
        #expect(schedule == fresh)
        #expect(schedule.breaks.first?.start != loaded.schedule.breaks.first?.start, "the breaks moved with the dates")
    }
}
