import Foundation
import HLSInterstitials
import HLSPlaylist
import MediaProbe
import MediaTime
import StreamOrigin
import Testing

/// Content lengths that are not a multiple of the segment duration, and ads shorter than their
/// media: both cut from the fixtures at a keyframe.
@Suite("Media cut at a keyframe")
struct CutMediaTests {
    /// A VOD of `length` seconds in `segment`-second segments, with `ads`, a viewer `v` whose pod
    /// is `pod`, and `extra` stream keys.
    static func vod(length: String, segment: Int = 4, mode: String = "interstitials", ads: String = "[]", pod: String = "[]",
                    extra: String = "") throws -> Origin {
        try origin(json: """
            {"ads": \(ads), "viewers": [{"id": "v", "pod": \(pod)}],
             "streams": [{"id": "s", "kind": "vod", "mode": "\(mode)", "durationSeconds": \(length),
                          "segmentDurationSeconds": \(segment)\(extra)}]}
            """)
    }

    /// One transport packet's fields.
    struct Packet {
        var pid: Int
        var payloadStart: Bool
        var hasPayload: Bool
        var continuityCounter: Int
        var payload: Int
    }

    /// Checks that `bytes` is a well-formed transport stream: whole 188-byte packets, each with its
    /// sync byte, the PAT and PMT before the first PES packet, and the continuity counter of every
    /// PID advancing by one on each packet with a payload. Returns the packets.
    static func checkWellFormed(_ bytes: [UInt8], _ name: String) -> [Packet] {
        #expect(!bytes.isEmpty && bytes.count % 188 == 0, "\(name): \(bytes.count) bytes is not whole packets")
        var packets: [Packet] = []
        var offset = 0
        while offset + 188 <= bytes.count {
            #expect(bytes[offset] == 0x47, "\(name): packet \(offset / 188) has no sync byte")
            let adaptation = (bytes[offset + 3] >> 4) & 0x3
            packets.append(Packet(pid: Int(bytes[offset + 1] & 0x1F) << 8 | Int(bytes[offset + 2]), payloadStart: bytes[offset + 1] & 0x40 != 0,
                                  hasPayload: adaptation & 1 == 1, continuityCounter: Int(bytes[offset + 3] & 0x0F),
                                  payload: offset + 4 + (adaptation >= 2 ? 1 + Int(bytes[offset + 4]) : 0)))
            offset += 188
        }
        let firstPES = packets.firstIndex { $0.pid >= 0x20 && $0.pid != 0x1FFF && $0.payloadStart && bytes[$0.payload] == 0 && bytes[$0.payload + 1] == 0 && bytes[$0.payload + 2] == 1 }
        let pat = packets.firstIndex { $0.pid == 0 }
        #expect(pat != nil && firstPES != nil && pat! < firstPES!, "\(name): the PAT comes before any PES packet")
        let pmtPID = pat.map { index -> Int in
            let section = packets[index].payload + 1 + Int(bytes[packets[index].payload])
            return Int(bytes[section + 10] & 0x1F) << 8 | Int(bytes[section + 11])
        }
        let pmt = packets.firstIndex { $0.pid == pmtPID }
        #expect(pmt != nil && pmt! < firstPES!, "\(name): the PMT comes before any PES packet")
        var counters: [Int: Int] = [:]
        for (index, packet) in packets.enumerated() where packet.hasPayload && packet.pid != 0x1FFF {
            if let previous = counters[packet.pid] {
                #expect(packet.continuityCounter == (previous + 1) % 16, "\(name): PID \(packet.pid) skips a continuity counter at packet \(index)")
            }
            counters[packet.pid] = packet.continuityCounter
        }
        return packets
    }

    @Test("a 30 s VOD in 4 s segments is seven 4 s segments and a real 2 s last one, whose bytes are a valid transport stream that measures 2 s")
    func shorterLastSegment() throws {
        let origin = try Self.vod(length: "30")
        let response = origin.get("/vod/s/v/main.m3u8")
        #expect(validationErrors(response.body).isEmpty)
        let playlist = try MediaPlaylist(parsing: response.body)
        #expect(playlist.duration == seconds(30))
        #expect(playlist.segments.map(\.duration) == Array(repeating: seconds(4), count: 7) + [seconds(2)])
        #expect(playlist.targetDurationSeconds == 4)
        let last = try #require(playlist.segments.last)
        #expect(last.uri == "/media/content/7.cut2.ts")

        let bytes = origin.get(last.uri).body
        _ = Self.checkWellFormed(bytes, last.uri)
        #expect(try TransportStreamProbe.duration(of: bytes) == seconds(2))
        // The cut is the start of the whole chunk, up to the keyframe at 2 s (the bundled media's
        // audio trails its video in the multiplex, so no audio packet before the cut is past it).
        let whole = origin.get("/media/content/7.ts").body
        #expect(bytes.count < whole.count && Array(whole.prefix(bytes.count)) == bytes)
        let streams = try TransportStreamProbe.streams(in: bytes, findingKeyframes: true)
        let video = try #require(streams.first { $0.isVideo })
        let wholeVideo = try #require(try TransportStreamProbe.streams(in: whole, findingKeyframes: true).first { $0.isVideo })
        let cutAt = try #require(wholeVideo.firstPresentationTime) + 2 * 90_000
        #expect(video.presentationTimes == wholeVideo.presentationTimes.filter { $0 < cutAt })
        #expect(video.randomAccessPresentationTimes == [cutAt - 2 * 90_000, cutAt - 90_000])
        for audio in streams where audio.isAudio {
            #expect(audio.presentationTimes.allSatisfy { $0 < cutAt }, "no audio past the cut")
            #expect(!audio.presentationTimes.isEmpty)
        }
    }

    @Test("a short last segment of several chunks, or in a later loop of the content, measures its EXTINF and continues the time stamps",
          arguments: [("30", 8, "/media/content/6-7.cut2.ts", seconds(6)), ("90", 4, "/media/content/22.cut2.ts", seconds(2)),
                      ("125", 8, "/media/content/30-31.cut1.ts", seconds(5)), ("121", 4, "/media/content/30.cut1.ts", seconds(1))])
    func shorterLastSegmentShapes(length: String, segment: Int, uri: String, duration: MediaTime) throws {
        let origin = try Self.vod(length: length, segment: segment)
        let response = origin.get("/vod/s/v/main.m3u8")
        #expect(validationErrors(response.body).isEmpty)
        let playlist = try MediaPlaylist(parsing: response.body)
        #expect(playlist.duration == MediaTime(decimal: length))
        let last = try #require(playlist.segments.last)
        #expect(last.uri == uri)
        #expect(last.duration == duration)
        let bytes = origin.get(last.uri).body
        #expect(try TransportStreamProbe.duration(of: bytes) == duration)
        // The whole chunks, then the cut one, itself a well-formed transport stream (each chunk's
        // continuity counters start afresh, as the encoder wrote them).
        let cutURI = uri.replacingOccurrences(of: #"/\d+-"#, with: "/", options: .regularExpression)
        let cut = origin.get(cutURI).body
        _ = Self.checkWellFormed(cut, cutURI)
        #expect(bytes.count >= cut.count && Array(bytes.suffix(cut.count)) == cut)
        // The last segment starts where the one before it ends.
        let previous = playlist.segments[playlist.segments.count - 2]
        let before = try #require(try TransportStreamProbe.streams(in: origin.get(previous.uri).body).first { $0.isVideo })
        let after = try #require(try TransportStreamProbe.streams(in: bytes, findingKeyframes: true).first { $0.isVideo })
        let previousEnd = try #require(before.presentationTimes.max()) + 3_600   // one 25 fps frame
        #expect(after.firstPresentationTime == previousEnd % (1 << 33))
    }

    @Test("audio that leads the video in the multiplex is dropped from its first PES packet at or past the cut, and its counters still run on")
    func audioLeadingVideo() throws {
        let original = Array(try Data(contentsOf: URL(fileURLWithPath: mediaDirectory + "/content/seg-007.ts")))
        let measured = try TransportStreamProbe.streams(in: original)
        let video = try #require(measured.first { $0.isVideo })
        let audioPID = try #require(measured.first { $0.isAudio }).pid
        // Move every audio time stamp 1.5 s later: the audio packets now carry sound 1.5 s ahead
        // of the video they are multiplexed with.
        var bytes = original
        var offset = 0
        while offset + 188 <= bytes.count {
            let pid = Int(bytes[offset + 1] & 0x1F) << 8 | Int(bytes[offset + 2])
            if pid == audioPID, bytes[offset + 1] & 0x40 != 0 {
                let payload = offset + 4 + ((bytes[offset + 3] >> 4) & 0x3 >= 2 ? 1 + Int(bytes[offset + 4]) : 0)
                let p = payload + 9
                var pts = Int64(bytes[p] >> 1 & 0x07) << 30 | Int64(bytes[p + 1]) << 22 | Int64(bytes[p + 2] >> 1) << 15
                    | Int64(bytes[p + 3]) << 7 | Int64(bytes[p + 4] >> 1)
                pts += 135_000
                bytes[p] = (bytes[p] & 0xF1) | UInt8((pts >> 29) & 0x0E)
                bytes[p + 1] = UInt8((pts >> 22) & 0xFF)
                bytes[p + 2] = (bytes[p + 2] & 0x01) | UInt8((pts >> 14) & 0xFE)
                bytes[p + 3] = UInt8((pts >> 7) & 0xFF)
                bytes[p + 4] = (bytes[p + 4] & 0x01) | UInt8((pts << 1) & 0xFE)
            }
            offset += 188
        }
        let first = try #require(video.firstPresentationTime)
        let chunk = MediaLibrary.Chunk(name: "seg-007.ts", duration: seconds(4), firstPresentationTime: first,
                                       keyframeOffsets: [0, 1, 2, 3].map(seconds), bytes: bytes)
        let cut = try #require(chunk.cut(beforeKeyframe: 2))
        #expect(cut.duration == seconds(2))
        #expect(cut.keyframeOffsets == [seconds(0), seconds(1)])
        _ = Self.checkWellFormed(cut.bytes, "cut with leading audio")
        #expect(try TransportStreamProbe.duration(of: cut.bytes) == seconds(2))
        let audio = try #require(try TransportStreamProbe.streams(in: cut.bytes).first { $0.isAudio })
        let cutAt = first + 2 * 90_000
        #expect(!audio.presentationTimes.isEmpty && audio.presentationTimes.allSatisfy { $0 < cutAt })
        let leading = try #require(try TransportStreamProbe.streams(in: bytes, findingKeyframes: true).first { $0.isAudio })
        #expect(audio.presentationTimes == leading.presentationTimes.filter { $0 < cutAt }, "every audio PES before the cut is kept")
        #expect(chunk.cut(beforeKeyframe: 4) == nil && chunk.cut(beforeKeyframe: 0) == nil)
    }

    @Test("stitched mode: a post-roll after a short last segment follows its real end")
    func postRollAfterShortSegment() throws {
        let origin = try Self.vod(length: "30", mode: "stitched", ads: #"[{"id": "a", "media": "ads/ad-5s"}]"#, pod: #"["a"]"#,
                                  extra: #", "breaks": [{"id": "mid", "positionSeconds": 16}, {"id": "post", "positionSeconds": 30}]"#)
        let response = origin.get("/vod/s/v/main.m3u8")
        #expect(validationErrors(response.body).isEmpty)
        let playlist = try MediaPlaylist(parsing: response.body)
        #expect(playlist.duration == seconds(40))
        #expect(StitchedAds(playlist: playlist).ranges == [MediaTimeRange(start: seconds(16), end: seconds(21)),
                                                           MediaTimeRange(start: seconds(35), end: seconds(40))])
        #expect(playlist.segments.map(\.uri).contains("/media/content/7.cut2.ts"))
    }

    @Test("a 7 s ad cut from the 10 s one: its playlist is 5 s + 2 s, its asset list says 7 s, its last segment measures 2 s")
    func shorterAd() throws {
        let origin = try Self.vod(length: "30", ads: #"[{"id": "spot-7s", "media": "ads/ad-10s", "durationSeconds": 7}]"#, pod: #"["spot-7s"]"#,
                                  extra: #", "breaks": [{"id": "mid", "positionSeconds": 16}]"#)
        let list = try AssetList(json: origin.get("/ads/s/v/mid.json").body)
        #expect(list.assets.map(\.duration) == [seconds(7)])
        let response = origin.get("/ads/media/spot-7s/index.m3u8")
        #expect(validationErrors(response.body).isEmpty)
        let playlist = try MediaPlaylist(parsing: response.body)
        #expect(playlist.segments.map(\.duration) == [seconds(5), seconds(2)])
        #expect(playlist.targetDurationSeconds == 5)
        for (index, segment) in playlist.segments.enumerated() {
            let bytes = origin.get("/ads/media/spot-7s/\(segment.uri)").body
            _ = Self.checkWellFormed(bytes, "spot-7s/\(index)")
            #expect(try TransportStreamProbe.duration(of: bytes) == segment.duration)
        }
        #expect(origin.get("/ads/media/spot-7s/2.ts").status == 404)
    }

    @Test("stitched mode: a 7 s ad is 7 s of CUE-OUT, and the content resumes after it")
    func shorterStitchedAd() throws {
        let origin = try Self.vod(length: "30", mode: "stitched", ads: #"[{"id": "spot-7s", "media": "ads/ad-10s", "durationSeconds": 7}]"#,
                                  pod: #"["spot-7s"]"#, extra: #", "breaks": [{"id": "mid", "positionSeconds": 16}]"#)
        let response = origin.get("/vod/s/v/main.m3u8")
        #expect(validationErrors(response.body).isEmpty)
        let playlist = try MediaPlaylist(parsing: response.body)
        #expect(playlist.duration == seconds(37))
        #expect(StitchedAds(playlist: playlist).ranges == [MediaTimeRange(start: seconds(16), end: seconds(23))])
        for segment in playlist.segments {
            #expect(try measuredDuration(origin, segment.uri) == segment.duration, "\(segment.uri)")
        }
    }

    @Test("a cut that is not on a keyframe is refused with its path and the nearest lengths that are", arguments: [
        (#""durationSeconds": 30.5"#, "[]", "$.streams[0].durationSeconds", "30.5 s does not end at a keyframe of the content", "try 30 or 31"),
        (#""durationSeconds": 0.5"#, "[]", "$.streams[0].durationSeconds", "does not end at a keyframe", "(try 1)"),
        (#""durationSeconds": 30"#, #"[{"id": "a", "media": "ads/ad-10s", "durationSeconds": 7.5}]"#, "$.ads[0].durationSeconds",
         "7.5 s does not end at a keyframe of ads/ad-10s", "try 7 or 8"),
        (#""durationSeconds": 30"#, #"[{"id": "a", "media": "ads/ad-10s", "durationSeconds": 12}]"#, "$.ads[0].durationSeconds",
         "longer than the 10 s of ads/ad-10s", "try 10 or less"),
        (#""durationSeconds": 30, "breaks": [{"id": "b", "positionSeconds": 29}]"#, "[]", "$.streams[0].breaks[0].positionSeconds",
         "not a multiple of the 4-second segment duration or the stream's end", "try 28 or 30"),
    ])
    func offKeyframe(stream: String, ads: String, path: String, message: String, suggestion: String) {
        let json = """
            {"ads": \(ads), "viewers": [{"id": "v"}], "streams": [{"id": "s", "kind": "vod", "mode": "stitched", \(stream)}]}
            """
        #expect {
            _ = try origin(json: json)
        } throws: { error in
            guard let error = error as? OriginConfigurationError else { return false }
            return error.path == path && error.message.contains(message) && error.message.contains(suggestion)
        }
    }

    @Test("an ad the library holds at another length than the configuration says is refused")
    func libraryAdOfAnotherLength() throws {
        let configuration = try OriginConfiguration(json: Array(#"""
            {"ads": [{"id": "a", "media": "ads/ad-10s", "durationSeconds": 7}], "viewers": [{"id": "v"}]}
            """#.utf8))
        var whole = configuration
        whole.ads[0].duration = nil
        let library = try MediaLibrary.load(directory: mediaDirectory, configuration: whole)
        #expect(library.ads["a"]?.duration == seconds(10))
        #expect {
            _ = try Origin(configuration: configuration, library: library, liveStartDate: liveStart)
        } throws: { error in
            (error as? OriginConfigurationError)?.message.contains("lasts 10 s, not the configured 7 s") == true
        }
    }

    @Test("a cut segment URL names a keyframe the chunk has; others are refused", arguments: [
        ("/media/content/7.cut0.ts", 400), ("/media/content/7.cutx.ts", 400), ("/media/content/7.cut4.ts", 404),
        ("/media/content/7.trim2.ts", 400), ("/media/content/7.cut3.ts", 200), ("/media/content/6-7.cut1.ts", 200),
    ])
    func cutRoutes(target: String, status: Int) throws {
        #expect(try defaultOrigin().get(target).status == status)
    }
}
