import HLSInterstitials
import HLSPlaylist
import MediaProbe
import MediaTime
import StreamOrigin
import Testing

@Suite("Served segments")
struct SegmentDurationTests {
    /// Every media playlist the default configuration serves at `now` (live ones after `now`).
    static func allPlaylistTargets() -> [String] {
        let configuration = OriginConfiguration.default
        return configuration.streams.flatMap { stream in
            configuration.viewers.map { "/\(stream.kind.rawValue)/\(stream.id)/\($0.id)/main.m3u8" }
        }
    }

    @Test("every segment's EXTINF is the measured duration of the bytes served at its URI, within 1 ms (S1.6)",
          arguments: [Int64(100), 700])
    func extinfMatchesMedia(at time: Int64) throws {
        let origin = try defaultOrigin()
        var measured: [String: MediaTime] = [:]
        for target in Self.allPlaylistTargets() {
            let playlist = try origin.servedMediaPlaylist(target, at: live(time))
            for segment in playlist.segments {
                let duration = try measured[segment.uri] ?? measuredDuration(origin, segment.uri, at: live(time))
                measured[segment.uri] = duration
                #expect((duration - segment.duration).magnitude < MediaTime(value: 1, timescale: 1000), "\(target): \(segment.uri)")
            }
        }
        #expect(measured.count > 30)
    }

    @Test("every asset of every asset list is an ad playlist whose segments measure what its EXTINF and the list's DURATION say")
    func assetsMatchMedia() throws {
        let origin = try defaultOrigin()
        var checked = 0
        for viewer in ["alice", "bob", "charlie", "dana"] {
            for breakID in ["legal", "mid-1", "mid-2"] {
                let list = try AssetList(json: origin.get("/ads/movie/\(viewer)/\(breakID).json").body)
                for asset in list.assets {
                    #expect(asset.uri.hasPrefix(baseURL + "/ads/media/"), "asset URIs are absolute (D.2)")
                    let path = String(asset.uri.dropFirst(baseURL.count))
                    let response = origin.get(path)
                    #expect(validationErrors(response.body).isEmpty)
                    let playlist = try MediaPlaylist(parsing: response.body)
                    #expect(playlist.duration == asset.duration)
                    for segment in playlist.segments {
                        let uri = URIResolution.resolve(segment.uri, against: asset.uri)
                        #expect(try measuredDuration(origin, String(uri.dropFirst(baseURL.count))) == segment.duration)
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == 2 * 3 + 2 * 6 + 1, "bob's and charlie's two mid-rolls and dana's legal warning")
    }

    @Test("looped content continues its time stamps: chunk 15 starts where chunk 14 ends, loop after loop, for video and audio")
    func loopIsContinuous() throws {
        let origin = try defaultOrigin()
        /// (first time stamp, end) of the video and audio streams of content chunk `index`, in 90 kHz units.
        func times(_ index: Int) throws -> (video: (Int64, Int64), audio: (Int64, Int64)) {
            let streams = try TransportStreamProbe.streams(in: origin.get("/media/content/\(index).ts").body)
            func span(_ stream: TransportStreamProbe.Stream?) throws -> (Int64, Int64) {
                let stream = try #require(stream)
                let first = try #require(stream.firstPresentationTime)
                let duration = try #require(stream.duration?.converted(toTimescale: 90_000)?.value)
                return (first, first + duration)
            }
            return (try span(streams.first { $0.isVideo }), try span(streams.first { $0.isAudio }))
        }
        for boundary in [15, 30, 1_500] {
            let before = try times(boundary - 1)
            let after = try times(boundary)
            #expect(after.video.0 == before.video.1, "video continues exactly at chunk \(boundary)")
            // The encoder's audio runs 32 ms (1.5 AAC frames of 1,920 ticks) past the 60 s of video.
            #expect(before.audio.1 - after.audio.0 == 2_880, "audio overlaps by 1.5 AAC frames at chunk \(boundary)")
        }
        let first = try times(0)
        let secondLoop = try times(15)
        #expect(secondLoop.video.0 - first.video.0 == 60 * 90_000)
        #expect(secondLoop.audio.0 - first.audio.0 == 60 * 90_000)
        #expect(origin.get("/media/content/15.ts").body != origin.get("/media/content/0.ts").body)
        #expect(origin.get("/media/content/15.ts").body.count == origin.get("/media/content/0.ts").body.count)
    }

    @Test("a stitched break's SCTE35-OUT is a valid splice_insert: CRC, out of network, the pod's duration, the content's time at the break")
    func spliceInsert() throws {
        let origin = try defaultOrigin()
        let playlist = try origin.servedMediaPlaylist("/vod/movie-stitched/charlie/main.m3u8")
        let ranges = playlist.dateRanges
        #expect(ranges.map(\.id) == ["mid-1", "mid-2"])
        let contentStart = try #require(try TransportStreamProbe.streams(in: origin.get("/media/content/0.ts").body).first { $0.isVideo }?
            .firstPresentationTime)
        for (index, range) in ranges.enumerated() {
            let hex = try #require(range.scte35Out)
            let bytes = stride(from: 2, to: hex.count, by: 2).map { offset -> UInt8 in
                let start = hex.index(hex.startIndex, offsetBy: offset)
                return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
            }
            #expect(bytes[0] == 0xFC, "table_id")
            #expect(Int(bytes[1] & 0x0F) << 8 | Int(bytes[2]) == bytes.count - 3, "section_length")
            #expect(Self.crc32(bytes) == 0, "a section with its CRC_32 checks to zero")
            #expect(bytes[13] == 0x05, "splice_insert")
            let command = Array(bytes[14...])
            #expect(UInt32(command[0]) << 24 | UInt32(command[1]) << 16 | UInt32(command[2]) << 8 | UInt32(command[3]) == UInt32(index + 2))
            #expect(command[5] & 0x80 != 0, "out_of_network_indicator")
            #expect(command[5] & 0x20 != 0, "duration_flag")
            #expect(command[5] & 0x10 == 0, "a timed splice, not immediate")
            let pts = Int64(command[6] & 1) << 32 | Int64(command[7]) << 24 | Int64(command[8]) << 16 | Int64(command[9]) << 8 | Int64(command[10])
            #expect(pts == contentStart + Int64(40 + 40 * index) * 90_000, "the content's presentation time at the break")
            let duration = Int64(command[11] & 1) << 32 | Int64(command[12]) << 24 | Int64(command[13]) << 16 | Int64(command[14]) << 8
                | Int64(command[15])
            #expect(command[11] & 0x80 != 0, "auto_return")
            #expect(duration == 30 * 90_000)
        }
    }

    /// CRC-32/MPEG-2, written out independently of the origin's.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            for bit in (0..<8).reversed() {
                let incoming = UInt32(byte >> UInt8(bit)) & 1
                let top = crc >> 31
                crc <<= 1
                if top ^ incoming == 1 { crc ^= 0x04C1_1DB7 }
            }
        }
        return crc
    }
}
