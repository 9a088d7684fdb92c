import HLSPlaylist
import MediaTime
import Testing

@Suite("Media segment and media playlist tags")
struct MediaSegmentTagTests {
    @Test("EXTINF durations are exact decimal times and the playlist duration is their exact sum")
    func extinfDurations() throws {
        let playlist = try Corpus.media("media-vod-simple")
        #expect(playlist.version == 3)
        #expect(playlist.targetDurationSeconds == 10)
        #expect(playlist.hasEndList)
        #expect(!playlist.isLive)
        #expect(playlist.segments.map(\.duration) == [
            MediaTime(decimal: "9.009")!, MediaTime(decimal: "9.009")!, MediaTime(decimal: "3.003")!,
        ])
        #expect(playlist.segments.map(\.uri) == [
            "http://media.example.com/first.ts", "http://media.example.com/second.ts", "http://media.example.com/third.ts",
        ])
        #expect(playlist.duration == MediaTime(value: 21021, timescale: 1000))
        #expect(playlist.segmentStartTimes == [.zero, MediaTime(decimal: "9.009")!, MediaTime(decimal: "18.018")!])
        #expect(playlist.segments.allSatisfy { $0.title == nil })
    }

    @Test("an EXTINF title is the whole text after the first comma, commas included")
    func extinfTitles() throws {
        let playlist = try Corpus.media("media-event")
        #expect(playlist.segments.map(\.title) == ["Opening", "Kick-off, first half", nil])
        #expect(playlist.segments[2].duration == MediaTime(decimal: "5.994")!)
    }

    @Test("segments of a live window are numbered from EXT-X-MEDIA-SEQUENCE")
    func mediaSequenceNumbers() throws {
        let playlist = try Corpus.media("media-live-sliding-window")
        #expect(playlist.isLive)
        #expect(playlist.mediaSequence == 2680)
        #expect(playlist.segments.indices.map(playlist.mediaSequenceNumber(ofSegmentAt:)) == [2680, 2681, 2682])
        #expect(playlist.segments.map(\.duration) == [
            MediaTime(decimal: "7.975")!, MediaTime(decimal: "7.941")!, MediaTime(decimal: "7.975")!,
        ])
        #expect(playlist.segments[1].uri == "https://priv.example.com/fileSequence2681.ts")
    }

    @Test("EXT-X-KEY applies until the next key, METHOD=NONE clears it, and keys of different formats accumulate")
    func keyRotation() throws {
        let playlist = try Corpus.media("media-encrypted-key-rotation")
        #expect(playlist.mediaSequence == 7794)
        let key52 = EncryptionKey(method: .aes128, uri: "https://priv.example.com/key.php?r=52")
        let key53 = EncryptionKey(
            method: .aes128, uri: "https://priv.example.com/key.php?r=53",
            initializationVector: "0x9c7db8778570d05c3177c349fd9236aa"
        )
        let fairPlay = EncryptionKey(
            method: .sampleAES, uri: "skd://key54", keyFormat: "com.apple.streamingkeydelivery", keyFormatVersions: "1"
        )
        let widevine = EncryptionKey(
            method: .sampleAES, uri: "data:text/plain;base64,AAAAPnBzc2g=",
            keyFormat: "urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed", keyFormatVersions: "1"
        )
        #expect(playlist.segments.map(\.keys) == [
            [key52], [key52], [key52], [key53], [], [fairPlay, widevine], [fairPlay, widevine],
        ])
        #expect(playlist.segments[1].duration == MediaTime(seconds: 15))
        #expect(playlist.segments[5].duration == MediaTime(decimal: "14.4")!)
    }

    @Test("EXT-X-BYTERANGE keeps explicit offsets and leaves implicit ones unset")
    func byteRanges() throws {
        let playlist = try Corpus.media("media-byte-ranges")
        #expect(playlist.version == 4)
        #expect(playlist.playlistType == .vod)
        #expect(playlist.segments.map(\.byteRange) == [
            ByteRange(length: 75232, offset: 0), ByteRange(length: 82112), ByteRange(length: 69864),
            ByteRange(length: 1024, offset: 4096), ByteRange(length: 512),
        ])
        #expect(playlist.segments.map(\.uri) == ["segment.ts", "segment.ts", "segment.ts", "other.ts", "other.ts"])
        #expect(playlist.duration == MediaTime(decimal: "44.5")!)
    }

    @Test("EXT-X-MAP applies to every following segment until the next map, with its BYTERANGE")
    func mediaInitializationSections() throws {
        let playlist = try Corpus.media("media-fmp4-map")
        #expect(playlist.isIndependentSegments)
        let first = MediaInitializationSection(uri: "init-v1.mp4")
        let second = MediaInitializationSection(uri: "media.mp4", byteRange: ByteRange(length: 720, offset: 0))
        #expect(playlist.segments.map(\.map) == [first, first, second, second])
        #expect(playlist.segments.map(\.isDiscontinuity) == [false, false, true, false])
        #expect(playlist.segments[2].byteRange == ByteRange(length: 400000, offset: 720))
        #expect(playlist.segments[3].byteRange == ByteRange(length: 350000))
        #expect(playlist.segments[3].duration == MediaTime(decimal: "4.004")!)
    }

    @Test("discontinuity sequence numbers start at EXT-X-DISCONTINUITY-SEQUENCE and step at each discontinuity")
    func discontinuities() throws {
        let playlist = try Corpus.media("media-discontinuities")
        #expect(playlist.mediaSequence == 120)
        #expect(playlist.discontinuitySequence == 7)
        #expect(playlist.segments.map(\.isDiscontinuity) == [false, true, false, true, false])
        #expect(playlist.discontinuitySequenceNumbers == [7, 8, 8, 9, 9])
        #expect(playlist.duration == MediaTime(decimal: "39.5")!)
    }

    @Test("EXT-X-GAP marks only the segment it precedes")
    func gaps() throws {
        let playlist = try Corpus.media("media-gaps")
        #expect(playlist.version == 8)
        #expect(playlist.segments.map(\.isGap) == [false, true, true, false])
        #expect(playlist.segments[3].duration == MediaTime(decimal: "3.96")!)
    }

    @Test("EXT-X-BITRATE applies to every segment until the next one")
    func bitrate() throws {
        let playlist = try Corpus.media("media-bitrate")
        #expect(playlist.segments.map(\.bitrateKbps) == [1500, 1500, 2250, 2250])
    }

    @Test("EXT-X-PROGRAM-DATE-TIME is exact, keeps its zone, and dates are extrapolated until a discontinuity")
    func programDateTimes() throws {
        let playlist = try Corpus.media("media-program-date-time")
        let start = PlaylistDate(iso8601: "2026-11-30T05:00:00Z")!
        let written = playlist.segments.map(\.programDateTime)
        #expect(written[0] == start)
        #expect(written[0]?.timeZoneOffsetSeconds == 0)
        #expect(written[1] == nil)
        #expect(written[2] == PlaylistDate(iso8601: "2026-11-30T05:00:18.018Z"))
        #expect(written[2]?.timeZoneOffsetSeconds == 3600)
        #expect(written[2].map { $0.timeIntervalSince(start) } == MediaTime(decimal: "18.018"))
        #expect(written[4] == PlaylistDate(iso8601: "2026-11-30T07:40:00.500Z"))
        #expect(written[4]?.timeZoneOffsetSeconds == -9000)
        #expect(playlist.programDateTimes() == [
            start,
            PlaylistDate(iso8601: "2026-11-30T05:00:09.009Z"),
            PlaylistDate(iso8601: "2026-11-30T05:00:18.018Z"),
            nil,
            PlaylistDate(iso8601: "2026-11-30T07:40:00.500Z"),
        ])
    }

    @Test("an I-frame playlist has its map and the byte range of every I-frame")
    func iFramesOnly() throws {
        let playlist = try Corpus.media("media-iframes-only")
        #expect(playlist.isIFramesOnly)
        #expect(playlist.segments.allSatisfy { $0.map == MediaInitializationSection(uri: "main.ts", byteRange: ByteRange(length: 376, offset: 0)) })
        #expect(playlist.segments.map(\.byteRange) == [
            ByteRange(length: 9400, offset: 376), ByteRange(length: 7144, offset: 563976), ByteRange(length: 10528, offset: 1126104),
        ])
        #expect(playlist.segments.map(\.duration) == [
            MediaTime(decimal: "2.002")!, MediaTime(decimal: "2.002")!, MediaTime(decimal: "1.001")!,
        ])
    }

    @Test("an EVENT playlist without EXT-X-ENDLIST is live; a VOD playlist is not")
    func playlistTypes() throws {
        let event = try Corpus.media("media-event")
        #expect(event.playlistType == .event)
        #expect(event.isLive)
        #expect(event.start == StartPoint(timeOffset: .zero))
        let vod = try Corpus.media("media-byte-ranges")
        #expect(vod.playlistType == .vod)
        #expect(!vod.isLive)
    }

    @Test("EXT-X-START takes a signed TIME-OFFSET and PRECISE, in either order")
    func startPoint() throws {
        let playlist = try Corpus.media("media-start-independent")
        #expect(playlist.isIndependentSegments)
        #expect(playlist.start?.timeOffset == MediaTime(decimal: "-12.5")!)
        #expect(playlist.start?.isPrecise == true)
        #expect(playlist.mediaSequence == 1000)
        let reordered = try Corpus.media("media-unusual-attribute-order")
        #expect(reordered.start == StartPoint(timeOffset: MediaTime(seconds: 3), isPrecise: false))
    }

    @Test("attributes are read by name whatever their order")
    func unusualAttributeOrder() throws {
        let playlist = try Corpus.media("media-unusual-attribute-order")
        let segment = try #require(playlist.segments.first)
        #expect(segment.keys == [
            EncryptionKey(method: .aes128, uri: "https://keys.example.com/k9", initializationVector: "0X000102030405060708090A0B0C0D0E0F"),
        ])
        #expect(segment.map == MediaInitializationSection(uri: "init.mp4", byteRange: ByteRange(length: 1000, offset: 0)))
        #expect(segment.duration == MediaTime(decimal: "6.006")!)
        let range = try #require(segment.dateRanges.first)
        #expect(range.id == "odd-order")
        #expect(range.className == "com.example.order")
        #expect(range.startDate == PlaylistDate(iso8601: "2026-11-30T05:00:01Z"))
        #expect(range.duration == MediaTime(decimal: "2.5")!)
        #expect(range.clientAttributes == [Attribute(name: "X-COM-EXAMPLE-A", value: .quotedString("first"))])
    }

    @Test("unknown tags and comments are kept verbatim, in order, with the segment they precede")
    func unknownLines() throws {
        let playlist = try Corpus.media("media-unknown-tags-comments")
        #expect(playlist.segments.count == 2)
        #expect(playlist.segments[0].otherLines.map(\.text) == [
            "# Generated by an encoder that likes to talk.",
            "#EXT-X-ALLOW-CACHE:NO",
            "#EXT-X-COM-EXAMPLE-MARK:label=\"intro\",color=red",
        ])
        #expect(playlist.segments[0].otherLines.map(\.isComment) == [true, false, false])
        #expect(playlist.segments[0].otherLines.map(\.tagName) == [nil, "EXT-X-ALLOW-CACHE", "EXT-X-COM-EXAMPLE-MARK"])
        #expect(playlist.segments[1].otherLines.map(\.text) == [
            "#just a comment without a space",
            "#EXT-X-SCTE35:CUE=\"/DAlAAAAAAAAAP/wFAUAAAPvf+//ZUf6wP4AKTLgAAAAAAAAGL/WQQ==\",ID=\"42\"",
        ])
        #expect(playlist.trailingLines.map(\.text) == ["#EXTX-NOT-A-TAG", "#EXT-X-FUTURE-TAG", "# trailing comment"])
        #expect(playlist.hasEndList)
        #expect(playlist.mediaSequence == 0)
    }

    @Test("CRLF line terminators are not part of any value")
    func crlfLineEndings() throws {
        let playlist = try Corpus.media("media-crlf-line-endings")
        #expect(playlist.mediaSequence == 17)
        #expect(playlist.segments.map(\.uri) == ["crlf-17.ts", "crlf-18.ts"])
        #expect(playlist.segments.map(\.title) == [nil, "Title with spaces"])
        #expect(playlist.segments.map(\.duration) == [MediaTime(decimal: "9.97667")!, MediaTime(decimal: "10.01")!])
        #expect(playlist.segments[0].programDateTime == PlaylistDate(iso8601: "2026-11-30T05:00:00.25Z"))
        #expect(playlist.segments[1].isDiscontinuity)
        #expect(playlist.segments[1].otherLines == [UnknownLine("# a comment between segments")])
        #expect(playlist.hasEndList)
    }

    @Test("mixed line endings and a missing final line terminator parse like LF")
    func mixedLineEndings() throws {
        let playlist = try Corpus.media("media-mixed-line-endings-no-final-newline")
        #expect(playlist.targetDurationSeconds == 4)
        #expect(playlist.segments.map(\.uri) == ["mixed-0.ts", "mixed-1.ts"])
        #expect(playlist.segments.map(\.duration) == [MediaTime(seconds: 4), MediaTime(decimal: "3.5")!])
        #expect(playlist.hasEndList)
    }
}
