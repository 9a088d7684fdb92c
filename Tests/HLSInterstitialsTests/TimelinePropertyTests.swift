import HLSInterstitials
import HLSPlaylist
import MediaTime
import TestSupport
import Testing

/// Seeded random VOD playlists with random interstitials: every snapshot must be contiguous on the
/// integrated and playout timelines, its durations must add up, and mapping an integrated time to
/// what plays there and back must give the time again. A failure names its seed.
@Suite("Integrated timeline properties")
struct TimelinePropertyTests {
    static let seeds: ClosedRange<UInt64> = 1...400

    /// A random case: the playlist text and the asset-list answers.
    struct Case {
        var playlist: MediaPlaylist
        var assetLists: [String: InterstitialSchedule.AssetListState]
    }

    static func makeCase(seed: UInt64) throws -> Case {
        var random = SeededGenerator(seed: seed)
        let durations = ["2", "4", "6", "6", "6.006", "9.009", "3.5", "10"]
        let segments = (0..<Int.random(in: 1...15, using: &random)).map { _ in random.pick(durations) }
        let end = segments.reduce(MediaTime.zero) { $0 + time($1) }
        var tags: [String] = []
        var assetLists: [String: InterstitialSchedule.AssetListState] = [:]
        var starts: [String] = []
        for index in 0..<Int.random(in: 0...8, using: &random) {
            let id = "e\(index)"
            // A start anywhere from a little before the primary to a little after it, to the ms;
            // often the start of an earlier event, to make same-start groups.
            let start: String
            if !starts.isEmpty, random.chance(0.3) {
                start = random.pick(starts)
            } else {
                let millis = Int.random(in: -3_000...(Int(end.seconds * 1000) + 3_000), using: &random)
                start = MediaTime(value: Int64(millis), timescale: 1000).decimalString()
            }
            starts.append(start)
            var attributes: [String] = []
            if random.chance(0.8) { attributes.append("DURATION=\(Int.random(in: 0...20, using: &random))") }
            if random.chance(0.2) { attributes.append("PLANNED-DURATION=\(Int.random(in: 1...20, using: &random)).5") }
            switch Int.random(in: 0..<5, using: &random) {
            case 0: attributes.append("X-RESUME-OFFSET=0")
            case 1: attributes.append("X-RESUME-OFFSET=\(Int.random(in: 1...15, using: &random)).25")
            case 2: attributes.append("X-RESUME-OFFSET=-\(Int.random(in: 1...12, using: &random))")
            default: break
            }
            if random.chance(0.25) { attributes.append("X-PLAYOUT-LIMIT=\(Int.random(in: 1...15, using: &random))") }
            if random.chance(0.5) { attributes.append("X-TIMELINE-OCCUPIES=\"RANGE\"") }
            if random.chance(0.2) { attributes.append("X-SNAP=\"\(random.pick(["OUT", "IN", "OUT,IN"]))\"") }
            if random.chance(0.1) { attributes.append("CUE=\"\(random.pick(["PRE", "POST", "ONCE"]))\"") }
            if random.chance(0.4) {
                attributes.append("X-ASSET-LIST=\"lists/\(id).json\"")
                switch Int.random(in: 0..<4, using: &random) {
                case 0: assetLists[id] = .failed("simulated")
                case 1: assetLists[id] = .resolved(AssetList(assets: []))
                case 2:
                    let assets = (0..<Int.random(in: 1...3, using: &random)).map { number in
                        AssetList.Asset(uri: "https://ads.example.com/\(id)/\(number).m3u8",
                                        duration: random.chance(0.9) ? time("\(Int.random(in: 1...15, using: &random)).5") : nil)
                    }
                    assetLists[id] = .resolved(AssetList(assets: assets))
                default: break
                }
            }
            tags.append(Fixture.interstitial(id, at: start, attributes.joined(separator: ",")))
        }
        return Case(playlist: try Fixture.playlist(segments: segments, tags: tags), assetLists: assetLists)
    }

    private static func snapshot(_ random: Case) -> IntegratedTimeline.Snapshot {
        IntegratedTimeline.Snapshot(schedule: Fixture.schedule(random.playlist, options: .init(assetLists: random.assetLists)))
    }

    @Test("segments are contiguous on the integrated and playout timelines and their durations add up")
    func contiguousAndAdditive() throws {
        for seed in Self.seeds {
            let snapshot = Self.snapshot(try Self.makeCase(seed: seed))
            let segments = snapshot.segments
            try #require(!segments.isEmpty, "seed \(seed): no segments")
            #expect(segments[0].timeMapping.target.start == .zero, "seed \(seed): a VOD timeline starts at 0")
            for (previous, next) in zip(segments, segments.dropFirst()) {
                #expect(next.timeMapping.target.start == previous.timeMapping.target.end, "seed \(seed): integrated gap or overlap")
                #expect(next.playoutRange.start == previous.playoutRange.end, "seed \(seed): playout gap or overlap")
            }
            var integrated = MediaTime.zero
            var playout = MediaTime.zero
            for segment in segments {
                let target = segment.timeMapping.target
                integrated += target.duration
                playout += segment.playoutRange.duration
                switch segment.segmentType {
                case .primary:
                    #expect(target.duration == segment.timeMapping.source.duration, "seed \(seed): primary plays at rate 1")
                    #expect(segment.playoutRange.duration == target.duration, "seed \(seed)")
                    #expect(segment.primaryRange == segment.timeMapping.source, "seed \(seed)")
                case .interstitial:
                    let scheduled = try #require(segment.eventID.flatMap { snapshot.schedule.scheduledBreak(id: $0) })
                    let length = scheduled.duration ?? .zero
                    #expect(segment.playoutRange.duration == length, "seed \(seed): a break plays out its full duration")
                    #expect(target.duration == (scheduled.event.timelineOccupancy == .fill ? length : .zero),
                            "seed \(seed): a point takes nothing, a range its duration")
                }
            }
            #expect(integrated == snapshot.duration, "seed \(seed): integrated durations add up to the snapshot's")
            #expect(playout == snapshot.playoutDuration, "seed \(seed): playout durations add up")
            let ids = segments.compactMap(\.eventID)
            #expect(Set(ids).count == ids.count, "seed \(seed): a break is scheduled once")
        }
    }

    @Test("an integrated time maps to what plays there and back to the same time")
    func roundTrip() throws {
        var checked = 0
        var replayed = 0
        for seed in Self.seeds {
            let snapshot = Self.snapshot(try Self.makeCase(seed: seed))
            var random = SeededGenerator(seed: seed &* 7919)
            let start = snapshot.segments[0].timeMapping.target.start
            let end = try #require(snapshot.segments.last).timeMapping.target.end
            // Random times on the timeline, plus every segment boundary.
            var times = snapshot.segments.flatMap { [$0.timeMapping.target.start, $0.timeMapping.target.end] }
            if start < end {
                let span = (end - start).converted(toTimescale: 1000)?.value ?? 0
                for _ in 0..<40 { times.append(start + MediaTime(value: Int64.random(in: 0...span, using: &random), timescale: 1000)) }
            }
            for integratedTime in times {
                let position = try #require(snapshot.position(atTimelineTime: integratedTime), "seed \(seed): \(integratedTime) is on the timeline")
                let back = try #require(snapshot.timelineTime(for: position), "seed \(seed): \(position) is on the timeline")
                checked += 1
                if case .primary(let primaryTime) = position,
                    snapshot.segments.filter({ $0.segmentType == .primary && $0.timeMapping.source.contains(primaryTime) }).count > 1
                {
                    // A negative resumption offset plays this primary time twice; a primary position
                    // names its first showing.
                    if back < integratedTime { replayed += 1 }
                    #expect(back <= integratedTime, "seed \(seed): \(position) resolves to its first showing")
                    #expect(snapshot.position(atTimelineTime: back) == position, "seed \(seed)")
                } else {
                    #expect(back == integratedTime, "seed \(seed): \(integratedTime) → \(position) → \(back)")
                }
            }
        }
        #expect(checked > 10_000)
        #expect(replayed > 0, "the generator should produce replayed primary (negative offsets)")
    }

    @Test("the generator covers the interesting cases")
    func coverage() throws {
        var fills = 0, points = 0, groups = 0, negative = 0, empty = 0
        for seed in Self.seeds {
            let schedule = Self.snapshot(try Self.makeCase(seed: seed)).schedule
            let breaks = schedule.breaks
            fills += breaks.filter { $0.event.timelineOccupancy == .fill && ($0.duration ?? .zero) > .zero }.count
            points += breaks.filter { $0.event.timelineOccupancy == .singlePoint }.count
            negative += breaks.filter { $0.resumptionOffset < .zero }.count
            empty += breaks.filter(\.playsNothing).count
            groups += zip(breaks, breaks.dropFirst()).filter { $0.start == $1.start }.count
        }
        #expect(fills > 100)
        #expect(points > 100)
        #expect(groups > 20)
        #expect(negative > 20)
        #expect(empty > 20)
    }
}
