extension PlaylistGenerator {
    /// A two-hour VOD media playlist of a 29.97 fps title: 6.006-second segments with the odd
    /// shorter one where the encoder cut at a scene change, AES-128 keys rotated every ten minutes,
    /// and 40 HLS interstitials (Appendix D): a pre-roll, a post-roll and 38 mid-rolls, each with a
    /// PROGRAM-DATE-TIME on the segment it starts at.
    ///
    /// About 114 kB.
    func makeVODPlaylist() -> String {
        var random = makeRandomNumbers(stream: 1)
        let programStart = Self.millisecondsSince1970(year: 2026, month: 11, day: 30, hour: 20, minute: 0, second: 0)
        let programMilliseconds = 7_200_000
        let title = "title-1234"

        // Segment durations: whole frames at 30000/1001, so a 180-frame segment is 6.006 s.
        var durations: [Int] = []
        var startTimes: [Int] = []
        var elapsed = 0
        while elapsed < programMilliseconds {
            let frames = random.chance(1, in: 12) ? random.pick([60, 90, 120, 150]) : 180
            let milliseconds = min(frames * 1001 / 30, programMilliseconds - elapsed)
            startTimes.append(elapsed)
            durations.append(milliseconds)
            elapsed += milliseconds
        }
        let targetDuration = durations.map { ($0 + 500) / 1000 }.max() ?? 1

        // Breaks: the pre- and post-roll before the first segment, 38 mid-rolls spread over the
        // programme with some jitter, each before the segment it starts at.
        var breaks: [Int: [String]] = [:]
        breaks[0, default: []].append(
            interstitial(id: "preroll", cue: "PRE", startDate: programStart, title: title, pod: 0, random: &random)
        )
        breaks[0, default: []].append(
            interstitial(
                id: "postroll", cue: "POST", startDate: programStart + Int64(startTimes[startTimes.count - 1]), title: title,
                pod: 39, random: &random
            )
        )
        for pod in 1...38 {
            let nominal = pod * programMilliseconds / 39 + random.next(below: 60_000) - 30_000
            let segment = startTimes.firstIndex { $0 >= nominal } ?? startTimes.count - 1
            breaks[segment, default: []].append(
                interstitial(
                    id: "midroll-\(pod < 10 ? "0" : "")\(pod)", cue: random.chance(1, in: 4) ? "ONCE" : nil,
                    startDate: programStart + Int64(startTimes[segment]), title: title, pod: pod, random: &random
                )
            )
        }

        var text = """
            #EXTM3U
            #EXT-X-VERSION:6
            #EXT-X-TARGETDURATION:\(targetDuration)
            #EXT-X-MEDIA-SEQUENCE:0
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-INDEPENDENT-SEGMENTS

            """
        text.reserveCapacity(160_000)
        for (index, duration) in durations.enumerated() {
            if index % 100 == 0 {
                let key = index / 100
                text += "#EXT-X-KEY:METHOD=AES-128,URI=\"https://keys.example.com/\(title)/key-\(key < 10 ? "0" : "")\(key).bin\","
                    + "IV=0x\(random.hexadecimal(byteCount: 16))\n"
            }
            if let tags = breaks[index] {
                for tag in tags { text += tag + "\n" }
            }
            if index == 0 || breaks[index] != nil {
                text += "#EXT-X-PROGRAM-DATE-TIME:\(Self.iso8601(millisecondsSince1970: programStart + Int64(startTimes[index])))\n"
            }
            text += "#EXTINF:\(Self.seconds(milliseconds: duration)),\n"
            let number = String(index)
            text += "https://cdn.example.com/vod/\(title)/1080p/segment_\(String(repeating: "0", count: max(0, 5 - number.count)))\(number).ts\n"
        }
        text += "#EXT-X-ENDLIST\n"
        return text
    }

    /// One interstitial EXT-X-DATERANGE, in one of the shapes ad servers and packagers write: an
    /// ad pod behind an asset list, a skippable pod, or a single promo asset.
    private func interstitial(
        id: String, cue: String?, startDate: Int64, title: String, pod: Int, random: inout SplitMix64
    ) -> String {
        var attributes = [
            "ID=\"\(id)\"",
            "CLASS=\"com.apple.hls.interstitial\"",
            "START-DATE=\"\(Self.iso8601(millisecondsSince1970: startDate))\"",
        ]
        if let cue { attributes.append("CUE=\"\(cue)\"") }
        switch random.next(below: 6) {
        case 0:
            // A promo: one asset, part of the programme's look, the same for every viewer.
            let durationMilliseconds = random.pick([10_010, 15_015, 20_020])
            attributes += [
                "DURATION=\(Self.seconds(milliseconds: durationMilliseconds))",
                "X-ASSET-URI=\"https://cdn.example.com/promos/promo-\(1000 + random.next(below: 9000))/master.m3u8\"",
                "X-RESUME-OFFSET=0",
                "X-RESTRICT=\"JUMP\"",
                "X-TIMELINE-STYLE=\"PRIMARY\"",
                "X-CONTENT-MAY-VARY=\"NO\"",
            ]
        case 1:
            // A skippable pod: the skip button appears after five seconds, for ten.
            let durationMilliseconds = random.pick([30_000, 45_000, 60_000])
            attributes += [
                "DURATION=\(Self.seconds(milliseconds: durationMilliseconds))",
                "X-ASSET-LIST=\"https://ads.example.com/v2/asset-lists/\(title)/pod-\(pod).json?dur=\(durationMilliseconds / 1000)\"",
                "X-RESUME-OFFSET=0",
                "X-PLAYOUT-LIMIT=\(Self.seconds(milliseconds: durationMilliseconds + 15_000))",
                "X-SKIP-CONTROL-OFFSET=5",
                "X-SKIP-CONTROL-DURATION=10",
                "X-SKIP-CONTROL-LABEL-ID=\"skip-ad\"",
                "X-TIMELINE-OCCUPIES=\"POINT\"",
                "X-COM-EXAMPLE-POD-ID=\"\(random.hexadecimal(byteCount: 8).lowercased())\"",
            ]
        default:
            // An ad pod decided at play time: the asset list comes from the ad server.
            let durationMilliseconds = random.pick([15_000, 30_000, 60_000, 90_000, 120_000])
            attributes += [
                "DURATION=\(Self.seconds(milliseconds: durationMilliseconds))",
                "X-ASSET-LIST=\"https://ads.example.com/v2/asset-lists/\(title)/pod-\(pod).json?dur=\(durationMilliseconds / 1000)\"",
                "X-RESUME-OFFSET=0",
                "X-RESTRICT=\"SKIP,JUMP\"",
                "X-SNAP=\"OUT,IN\"",
                "X-TIMELINE-OCCUPIES=\"POINT\"",
                "X-TIMELINE-STYLE=\"HIGHLIGHT\"",
                "X-CONTENT-MAY-VARY=\"YES\"",
                "X-COM-EXAMPLE-POD-ID=\"\(random.hexadecimal(byteCount: 8).lowercased())\"",
            ]
        }
        return "#EXT-X-DATERANGE:" + attributes.joined(separator: ",")
    }
}
