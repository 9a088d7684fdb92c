import HLSInterstitials
import HLSPlaylist
import MediaTime
import StreamOrigin
import Testing

@Suite("Live playlists")
struct LivePlaylistTests {
    static let viewers = ["alice", "bob", "charlie", "dana"]
    static let streams = ["channel", "channel-stitched"]

    @Test("ten minutes of reloads every 2 s: every playlist and delta update validates against the one before, with no findings",
          arguments: streams, viewers)
    func reloadsValidate(stream: String, viewer: String) throws {
        let origin = try defaultOrigin()
        var previous: MediaPlaylist?
        for time in stride(from: Int64(4), through: 604, by: 2) {
            let now = live(time)
            let response = origin.get("/live/\(stream)/\(viewer)/main.m3u8", at: now)
            let findings = PlaylistValidator.validate(response.body, previous: previous).map { "\($0)" }
            #expect(findings.isEmpty, "t=\(time): \(findings)")
            let full = try MediaPlaylist(parsing: response.body)
            #expect(full.isLive)

            let deltaResponse = origin.get("/live/\(stream)/\(viewer)/main.m3u8?_HLS_skip=YES", at: now)
            let deltaFindings = PlaylistValidator.validate(deltaResponse.body, previous: previous).map { "\($0)" }
            #expect(deltaFindings.isEmpty, "t=\(time) delta: \(deltaFindings)")
            if let previous {
                // A client holding the previous playlist rebuilds the full one from the delta update.
                let delta = try MediaPlaylist(parsing: deltaResponse.body)
                let expanded = try previous.applying(deltaUpdate: delta)
                #expect(expanded.segments.map(\.uri) == full.segments.map(\.uri), "t=\(time)")
                #expect(expanded.mediaSequence == full.mediaSequence)
                #expect(expanded.discontinuitySequenceNumbers == full.discontinuitySequenceNumbers, "t=\(time)")
                #expect(expanded.programDateTimes() == full.programDateTimes(), "t=\(time)")
                #expect(Set(expanded.dateRanges.map(\.id)) == Set(full.dateRanges.map(\.id)), "t=\(time)")
            }
            previous = full
        }
    }

    @Test("the window slides with the injected clock: media sequence, program date-times and the live edge advance segment by segment")
    func windowAdvances() throws {
        let origin = try defaultOrigin()
        let at100 = try origin.servedMediaPlaylist("/live/channel/bob/main.m3u8", at: live(100))
        #expect(at100.mediaSequence == 10)
        #expect(at100.segments.count == 15)
        #expect(at100.duration == seconds(60))
        #expect(at100.segments.map(\.uri) == (10..<25).map { "/media/content/\($0).ts" })
        #expect(at100.programDateTimes().first == live(40))
        #expect(at100.programDateTimes().last == live(96), "the last segment ends at the live edge, 100 s after the start")

        let justBefore = try origin.servedMediaPlaylist("/live/channel/bob/main.m3u8", at: liveStart.adding(MediaTime(value: 103_999, timescale: 1000)))
        #expect(justBefore.segments == at100.segments, "no segment is published before it ends")

        let at104 = try origin.servedMediaPlaylist("/live/channel/bob/main.m3u8", at: live(104))
        #expect(at104.mediaSequence == 11)
        #expect(at104.programDateTimes().first == live(44))
        #expect(at104.segments.last?.uri == "/media/content/25.ts")

        let hourLater = try origin.servedMediaPlaylist("/live/channel/bob/main.m3u8", at: live(3_700))
        #expect(hourLater.mediaSequence == 910)
        #expect(hourLater.segments.last?.uri == "/media/content/924.ts")
        #expect(hourLater.programDateTimes().last == live(3_696))
        #expect(hourLater.discontinuitySequence == 0, "looped content keeps continuous time stamps: no discontinuities")
    }

    @Test("media sequence numbers, dates and discontinuity sequence numbers of a segment never change from one reload to the next",
          arguments: streams, viewers)
    func stableNumbering(stream: String, viewer: String) throws {
        let origin = try defaultOrigin()
        var seen: [Int: (uri: String, date: PlaylistDate?, discontinuity: Int)] = [:]
        for time in stride(from: Int64(60), through: 400, by: 3) {
            let playlist = try origin.servedMediaPlaylist("/live/\(stream)/\(viewer)/main.m3u8", at: live(time))
            let dates = playlist.programDateTimes()
            let discontinuities = playlist.discontinuitySequenceNumbers
            for index in playlist.segments.indices {
                let number = playlist.mediaSequenceNumber(ofSegmentAt: index)
                let entry = (playlist.segments[index].uri, dates[index], discontinuities[index])
                if let earlier = seen[number] {
                    #expect(earlier.uri == entry.0 && earlier.date == entry.1 && earlier.discontinuity == entry.2, "MSN \(number) at t=\(time)")
                }
                seen[number] = entry
            }
        }
        #expect(seen.count > 80)
    }

    @Test("interstitials: a break is announced with the last segment before it and kept while any of its dates maps to a segment")
    func interstitialAnnouncement() throws {
        let origin = try defaultOrigin()
        let before = try origin.servedMediaPlaylist("/live/channel/bob/main.m3u8", at: live(19))
        #expect(before.dateRanges.isEmpty)
        let announced = try origin.servedMediaPlaylist("/live/channel/bob/main.m3u8", at: live(20))
        #expect(announced.trailingDateRanges.map(\.id) == ["ad-0"])
        #expect(announced.trailingDateRanges.first?.startDate == live(20))
        // ad-0 covers 20…50 s (PLANNED-DURATION 30); the window drops below 50 s once it starts after 50 s.
        let kept = try origin.servedMediaPlaylist("/live/channel/bob/main.m3u8", at: live(108))
        #expect(kept.programDateTimes().first == live(48))
        #expect(kept.dateRanges.map(\.id) == ["ad-0", "ad-1"])
        let dropped = try origin.servedMediaPlaylist("/live/channel/bob/main.m3u8", at: live(116))
        #expect(dropped.dateRanges.map(\.id) == ["ad-1"])
    }

    @Test("interstitials: with no X-RESUME-OFFSET every viewer resumes at the live edge, whatever their ads last (S1.9, S1.10)",
          arguments: [("alice", Int64(0)), ("bob", 15), ("charlie", 30), ("dana", 0)])
    func liveResumption(viewer: String, adSeconds: Int64) throws {
        let origin = try defaultOrigin()
        let playlist = try origin.servedMediaPlaylist("/live/channel/\(viewer)/main.m3u8", at: live(100))
        let (events, errors) = InterstitialEvent.events(in: playlist)
        #expect(errors.isEmpty)
        var lists: [String: InterstitialSchedule.AssetListState] = [:]
        for event in events {
            let response = origin.get(try #require(event.assetListURI), at: live(100))
            #expect(response.status == 200)
            lists[event.identifier] = .resolved(try AssetList(json: response.body))
        }
        let schedule = InterstitialSchedule(primary: PrimaryTimeline(playlist: playlist), events: events,
                                            options: InterstitialSchedule.Options(assetLists: lists))
        let scheduled = try #require(schedule.scheduledBreak(id: "ad-1"))
        #expect(scheduled.playoutDuration == seconds(adSeconds))
        #expect(scheduled.resumptionOffset == seconds(adSeconds), "primary skips what played during the ads: back at the live edge")
        #expect(scheduled.event.timelineOccupancy == .fill)
    }

    /// Each viewer's stitched pod, in seconds.
    static let pods: [(String, Int64)] = [("alice", 0), ("bob", 15), ("charlie", 30), ("dana", 0)]

    @Test("stitched: every complete pod in the window is the viewer's decision, starting at its break's date; content resumes on the grid",
          arguments: pods)
    func stitchedLive(viewer: String, podSeconds: Int64) throws {
        let origin = try defaultOrigin()
        var podsSeen = 0
        for time in stride(from: Int64(20), through: 500, by: 4) {
            let playlist = try origin.servedMediaPlaylist("/live/channel-stitched/\(viewer)/main.m3u8", at: live(time))
            let ads = StitchedAds(playlist: playlist)
            let timeline = PrimaryTimeline(playlist: playlist)
            for range in ads.ranges {
                // A pod whose CUE-OUT left the window starts before it (ElapsedTime before its
                // first segment): it is checked in the windows that still show its CUE-OUT.
                guard let index = timeline.segmentStarts.firstIndex(of: range.start) else {
                    #expect(range.start < timeline.start, "t=\(time)")
                    continue
                }
                guard playlist.segments[index].adMarkers.contains(where: { if case .cueOut = $0 { true } else { false } }) else { continue }
                let date = try #require(timeline.segmentDates[index])
                let offset = date.timeIntervalSince(liveStart) - seconds(20)
                #expect(offset.value % (60 * Int64(offset.timescale)) == 0, "a pod starts on a break: \(date)")
                // A pod whose CUE-IN is in the window is complete: it lasts exactly the viewer's ads.
                if let end = timeline.segmentStarts.firstIndex(of: range.end), playlist.segments[end].adMarkers.contains(.cueIn) {
                    #expect(range.duration == seconds(podSeconds), "t=\(time)")
                    podsSeen += 1
                }
            }
            if podSeconds == 0 {
                #expect(ads.ranges.isEmpty)
                #expect(playlist.segments.allSatisfy { !$0.isDiscontinuity && $0.adMarkers.isEmpty })
            }
        }
        #expect(podSeconds == 0 ? podsSeen == 0 : podsSeen > 20)
    }

    @Test("stitched: the pod replaces the content up to the next segment boundary, so the viewer stays at the live edge")
    func stitchedReplacement() throws {
        let origin = try defaultOrigin()
        let bob = try origin.servedMediaPlaylist("/live/channel-stitched/bob/main.m3u8", at: live(100))
        let alice = try origin.servedMediaPlaylist("/live/channel-stitched/alice/main.m3u8", at: live(100))
        #expect(bob.segments.last?.uri == alice.segments.last?.uri, "everyone's live edge is the same content segment")
        #expect(bob.programDateTimes().last == alice.programDateTimes().last)
        let uris = bob.segments.map(\.uri)
        // bob's 15 s pod at 80 s replaces content 80…96 s (4 segments): 19 and 20…23 are gone.
        #expect(uris.contains("/ads/media/spot-15s/0.ts"))
        #expect(!uris.contains("/media/content/20.ts") && !uris.contains("/media/content/23.ts"))
        #expect(uris.contains("/media/content/24.ts"))
    }

    @Test("before its first segment a live stream answers 503, and a break more than an interval ahead is not known yet")
    func beforeTheStart() throws {
        let origin = try defaultOrigin()
        let early = origin.get("/live/channel/bob/main.m3u8", at: live(3))
        #expect(early.status == 503)
        #expect(String(decoding: early.body, as: UTF8.self).contains("\"error\":\"not-yet-available\""))
        #expect(origin.get("/ads/channel/bob/ad-2.json", at: live(100)).status == 200)
        #expect(origin.get("/ads/channel/bob/ad-3.json", at: live(100)).status == 404)
    }

    @Test("_HLS_skip=YES returns a delta update only on streams that offer them")
    func deltaOnlyWhenOffered() throws {
        let origin = try origin(json: """
            {"viewers": [{"id": "v"}], "streams": [{"id": "plain", "kind": "live", "mode": "interstitials", "windowSeconds": 60}]}
            """)
        let playlist = try origin.servedMediaPlaylist("/live/plain/v/main.m3u8?_HLS_skip=YES", at: live(200))
        #expect(playlist.skip == nil)
        #expect(playlist.serverControl == nil)
        let offered = try defaultOrigin().servedMediaPlaylist("/live/channel/bob/main.m3u8?_HLS_skip=YES", at: live(200))
        #expect(offered.serverControl?.canSkipUntil == seconds(24), "six target durations")
        #expect(offered.skip?.skippedSegments == 9, "the 36 s older than the skip boundary")
        #expect(offered.duration == seconds(24))
        #expect(offered.mediaSequence == 35, "EXT-X-MEDIA-SEQUENCE still numbers the first skipped segment")
    }

    @Test("other shapes stay valid reload after reload: a break at the very start, 8-second segments, no breaks at all",
          arguments: [
              #""segmentDurationSeconds": 4, "repeatingBreak": {"id": "ad", "firstAtSeconds": 0, "everySeconds": 40}"#,
              #""segmentDurationSeconds": 8, "repeatingBreak": {"id": "ad", "firstAtSeconds": 16, "everySeconds": 48}"#,
              #""segmentDurationSeconds": 4"#,
          ])
    func otherShapes(shape: String) throws {
        for mode in ["stitched", "interstitials"] {
            let origin = try origin(json: """
                {"ads": [{"id": "a", "media": "ads/ad-10s"}, {"id": "b", "media": "ads/ad-15s"}],
                 "viewers": [{"id": "v", "pod": ["a", "b"]}],
                 "streams": [{"id": "s", "kind": "live", "mode": "\(mode)", "windowSeconds": 48, "deltaUpdates": true, \(shape)}]}
                """)
            var previous: MediaPlaylist?
            for time in stride(from: Int64(8), through: 400, by: 3) {
                let response = origin.get("/live/s/v/main.m3u8", at: live(time))
                let findings = PlaylistValidator.validate(response.body, previous: previous).map { "\($0)" }
                #expect(findings.isEmpty, "\(mode) t=\(time): \(findings)")
                let playlist = try MediaPlaylist(parsing: response.body)
                for segment in playlist.segments.suffix(2) {
                    #expect(try measuredDuration(origin, segment.uri, at: live(time)) == segment.duration)
                }
                if let previous {
                    let delta = try MediaPlaylist(parsing: origin.get("/live/s/v/main.m3u8?_HLS_skip=YES", at: live(time)).body)
                    #expect(try previous.applying(deltaUpdate: delta).segments.map(\.uri) == playlist.segments.map(\.uri))
                }
                previous = playlist
            }
        }
    }
}
