extension PlaylistGenerator {
    /// The number of segments of the live DVR playlist: 24 hours of 2-second segments.
    static let liveSegmentCount = 43_200

    /// A 24-hour live DVR window of a linear channel: 43,200 two-second segments, each with its
    /// EXT-X-PROGRAM-DATE-TIME, and 2,000 EXT-X-DATERANGE tags spread through it: 600 interstitials
    /// and 700 SCTE-35 ad breaks, each written as the splice-out tag (PLANNED-DURATION, SCTE35-OUT)
    /// and, where the break ends, the splice-in tag with the same ID (DURATION, END-DATE, SCTE35-IN).
    ///
    /// About 4.5 MB.
    func makeLiveDVRPlaylist(interstitials: Int = 600, spliceBreaks: Int = 700, stream: UInt64 = 2) -> String {
        var random = makeRandomNumbers(stream: stream)
        let windowStart = Self.millisecondsSince1970(year: 2026, month: 11, day: 29, hour: 5, minute: 0, second: 0)
        let segmentMilliseconds = 2000
        let firstSequenceNumber = 1_800_000 + random.next(below: 100_000)
        let segmentCount = Self.liveSegmentCount

        // 1,300 events at even spacing (66 s) with up to 14 s of jitter, interstitials and SCTE-35
        // breaks interleaved at random; no break lasts more than 45 s, so breaks never overlap.
        var isInterstitial = Array(repeating: true, count: interstitials) + Array(repeating: false, count: spliceBreaks)
        let maximumBreakMilliseconds = isInterstitial.count > 1_300 ? 30_000 : 45_000
        random.shuffle(&isInterstitial)
        var tags: [Int: [String]] = [:]
        for (event, interstitial) in isInterstitial.enumerated() {
            let segment = 10 + event * (segmentCount - 40) / isInterstitial.count + random.next(below: 8)
            let startDate = windowStart + Int64(segment * segmentMilliseconds)
            if interstitial {
                tags[segment, default: []].append(
                    liveInterstitial(event: event, startDate: startDate, maximumMilliseconds: maximumBreakMilliseconds, random: &random))
            } else {
                let durationMilliseconds = random.pick([15_000, 30_000, 30_000, 45_000])
                let spliceID = "splice-\(1_073_741_824 + event * 7)"
                let startText = Self.iso8601(millisecondsSince1970: startDate)
                tags[segment, default: []].append(
                    "#EXT-X-DATERANGE:ID=\"\(spliceID)\",START-DATE=\"\(startText)\","
                        + "PLANNED-DURATION=\(Self.seconds(milliseconds: durationMilliseconds)),"
                        + "SCTE35-OUT=0xFC30\(random.hexadecimal(byteCount: 40 + random.next(below: 24)))"
                )
                let endSegment = segment + (durationMilliseconds + segmentMilliseconds - 1) / segmentMilliseconds
                tags[endSegment, default: []].append(
                    "#EXT-X-DATERANGE:ID=\"\(spliceID)\",START-DATE=\"\(startText)\","
                        + "END-DATE=\"\(Self.iso8601(millisecondsSince1970: startDate + Int64(durationMilliseconds)))\","
                        + "DURATION=\(Self.seconds(milliseconds: durationMilliseconds)),"
                        + "SCTE35-IN=0xFC30\(random.hexadecimal(byteCount: 20 + random.next(below: 8)))"
                )
            }
        }
        precondition(tags.keys.allSatisfy { $0 < segmentCount }, "a date range falls after the last segment")

        var text = """
            #EXTM3U
            #EXT-X-VERSION:6
            #EXT-X-TARGETDURATION:2
            #EXT-X-MEDIA-SEQUENCE:\(firstSequenceNumber)
            #EXT-X-DISCONTINUITY-SEQUENCE:0
            #EXT-X-INDEPENDENT-SEGMENTS

            """
        text.reserveCapacity(4_800_000)
        let duration = Self.seconds(milliseconds: segmentMilliseconds)
        for index in 0..<segmentCount {
            if let segmentTags = tags[index] {
                for tag in segmentTags { text += tag + "\n" }
            }
            text += "#EXT-X-PROGRAM-DATE-TIME:\(Self.iso8601(millisecondsSince1970: windowStart + Int64(index * segmentMilliseconds)))\n"
            text += "#EXTINF:\(duration),\n"
            text += "live/news-7/1080p/\(firstSequenceNumber + index).ts\n"
        }
        return text
    }

    /// A live interstitial: a replacement ad pod from the ad server, or a channel promo.
    private func liveInterstitial(event: Int, startDate: Int64, maximumMilliseconds: Int, random: inout SplitMix64) -> String {
        var attributes = [
            "ID=\"ad-\(event)\"",
            "CLASS=\"com.apple.hls.interstitial\"",
            "START-DATE=\"\(Self.iso8601(millisecondsSince1970: startDate))\"",
        ]
        if random.chance(1, in: 5) {
            attributes += [
                "DURATION=10.000",
                "X-ASSET-URI=\"https://cdn.example.com/promos/news-7/promo-\(100 + random.next(below: 900)).m3u8\"",
                "X-RESUME-OFFSET=10.000",
                "X-SNAP=\"OUT,IN\"",
                "X-TIMELINE-STYLE=\"PRIMARY\"",
                "X-CONTENT-MAY-VARY=\"NO\"",
            ]
        } else {
            // Primary resumes where live would be after the break: the offset equals the duration.
            let duration = Self.seconds(milliseconds: random.pick([15_000, 30_000, 30_000, 45_000].filter { $0 <= maximumMilliseconds }))
            attributes += [
                "DURATION=\(duration)",
                "X-ASSET-LIST=\"https://ads.example.com/v1/live/news-7/asset-list.json?break=\(event)&dur=\(duration)\"",
                "X-RESUME-OFFSET=\(duration)",
                "X-PLAYOUT-LIMIT=\(duration)",
                "X-SNAP=\"OUT,IN\"",
                "X-RESTRICT=\"SKIP,JUMP\"",
                "X-TIMELINE-OCCUPIES=\"RANGE\"",
                "X-CONTENT-MAY-VARY=\"YES\"",
            ]
            if random.chance(1, in: 3) { attributes.append("CUE=\"ONCE\"") }
        }
        return "#EXT-X-DATERANGE:" + attributes.joined(separator: ",")
    }
}
