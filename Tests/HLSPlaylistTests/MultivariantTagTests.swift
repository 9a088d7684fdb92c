import HLSPlaylist
import MediaTime
import Testing

@Suite("Multivariant playlist tags")
struct MultivariantTagTests {
    @Test("EXT-X-STREAM-INF pairs with the URI line after it and reads BANDWIDTH and AVERAGE-BANDWIDTH")
    func simpleVariants() throws {
        let playlist = try Corpus.multivariant("multivariant-simple")
        #expect(playlist.variants.map(\.uri) == [
            "http://example.com/low.m3u8", "http://example.com/mid.m3u8", "http://example.com/hi.m3u8",
            "http://example.com/audio-only.m3u8",
        ])
        #expect(playlist.variants.map(\.stream.bandwidth) == [1_280_000, 2_560_000, 7_680_000, 65000])
        #expect(playlist.variants.map(\.stream.averageBandwidth) == [1_000_000, 2_000_000, 6_000_000, nil])
        #expect(playlist.variants.map(\.stream.codecs) == [nil, nil, nil, "mp4a.40.5"])
        #expect(playlist.version == nil)
        #expect(playlist.renditions.isEmpty)
    }

    @Test("EXT-X-I-FRAME-STREAM-INF carries its URI as an attribute and does not take the next line")
    func iFrameStreams() throws {
        let playlist = try Corpus.multivariant("multivariant-iframes")
        #expect(playlist.variants.map(\.uri) == ["low/audio-video.m3u8", "mid/audio-video.m3u8", "hi/audio-video.m3u8", "audio-only.m3u8"])
        #expect(playlist.iFrameStreams.map(\.uri) == ["low/iframe.m3u8", "mid/iframe.m3u8", "hi/iframe.m3u8"])
        #expect(playlist.iFrameStreams.map(\.stream.bandwidth) == [86000, 150_000, 550_000])
    }

    @Test("EXT-X-MEDIA reads audio, subtitle and closed-caption renditions with every attribute")
    func renditions() throws {
        let playlist = try Corpus.multivariant("multivariant-audio-subtitles-captions")
        #expect(playlist.isIndependentSegments)
        #expect(playlist.version == 6)
        let audio = playlist.renditions(inGroup: "aac", type: "AUDIO")
        #expect(audio.map(\.name) == ["English", "Deutsch", "Commentary"])
        #expect(audio.map(\.isDefault) == [true, false, false])
        #expect(audio.map(\.autoselect) == [true, true, false])
        #expect(audio.map(\.language) == ["en", "de", "en"])
        #expect(audio.map(\.uri) == ["main/english-audio.m3u8", "main/german-audio.m3u8", "commentary/audio-only.m3u8"])

        let atmos = try #require(playlist.renditions(inGroup: "atmos", type: "AUDIO").first)
        #expect(atmos.associatedLanguage == "en-GB")
        #expect(atmos.stableRenditionID == "audio-en-ec3")
        #expect(atmos.channels == "16/JOC")
        #expect(atmos.sampleRate == 48000)
        #expect(atmos.bitDepth == 24)
        #expect(atmos.characteristics == "public.accessibility.describes-video")
        #expect(atmos.otherAttributes.isEmpty)

        let subtitles = playlist.renditions(inGroup: "subs", type: "SUBTITLES")
        #expect(subtitles.map(\.name) == ["English", "English (forced)", "Français"])
        #expect(subtitles.map(\.forced) == [false, true, nil])
        #expect(subtitles[2].characteristics
            == "public.accessibility.transcribes-spoken-dialog,public.accessibility.describes-music-and-sound")

        let captions = playlist.renditions(inGroup: "cc", type: "CLOSED-CAPTIONS")
        #expect(captions.map(\.instreamID) == ["CC1", "SERVICE2"])
        #expect(captions.allSatisfy { $0.uri == nil })
        #expect(playlist.renditions(inGroup: "aac", type: "SUBTITLES").isEmpty)
    }

    @Test("a variant names its rendition groups; CLOSED-CAPTIONS is a quoted group or the enumerated NONE")
    func variantGroups() throws {
        let playlist = try Corpus.multivariant("multivariant-audio-subtitles-captions")
        #expect(playlist.variants.map(\.audio) == ["aac", "aac", "atmos", "aac"])
        #expect(playlist.variants.map(\.subtitles) == ["subs", "subs", "subs", nil])
        #expect(playlist.variants.map(\.closedCaptions) == [.group("cc"), .group("cc"), VariantStream.ClosedCaptions.none, nil])
        #expect(playlist.variants.allSatisfy { $0.stream.otherAttributes.isEmpty })
        #expect(playlist.variants[1].stream.codecs == "avc1.4d401f,mp4a.40.2")
        #expect(playlist.variants[2].stream.resolution == Resolution(width: 1920, height: 1080))
    }

    @Test("alternative video renditions form VIDEO groups that variants refer to")
    func alternativeVideo() throws {
        let playlist = try Corpus.multivariant("multivariant-alternative-video")
        for group in ["low", "mid", "hi"] {
            let renditions = playlist.renditions(inGroup: group, type: "VIDEO")
            #expect(renditions.map(\.name) == ["Main", "Centerfield", "Dugout"])
            #expect(renditions.map(\.isDefault) == [true, false, false])
            #expect(renditions.first?.uri == "\(group)/main/audio-video.m3u8")
        }
        #expect(playlist.variants.map(\.stream.video) == ["low", "mid", "hi"])
        #expect(playlist.variants.map(\.stream.codecs) == ["...", "...", "..."])
    }

    @Test("EXT-X-STREAM-INF reads every attribute of the specification")
    func everyStreamAttribute() throws {
        let playlist = try Corpus.multivariant("multivariant-every-stream-attribute")
        try #require(playlist.variants.count == 4)
        let top = playlist.variants[0]
        #expect(top.uri == "https://a.example.com/2160p-dv.m3u8")
        #expect(top.stream.bandwidth == 14_500_000)
        #expect(top.stream.averageBandwidth == 12_000_000)
        #expect(top.stream.score == "2.5")
        #expect(top.stream.codecs == "dvh1.08.07,ec-3")
        #expect(top.stream.supplementalCodecs == "hvc1.2.4.L153.b0/db4h")
        #expect(top.stream.resolution == Resolution(width: 3840, height: 2160))
        #expect(top.frameRate == "59.940")
        #expect(top.stream.hdcpLevel == "TYPE-1")
        #expect(top.stream.allowedCPC == "com.example.drm1:SMART-TV/PC,com.example.drm2:HW")
        #expect(top.stream.videoRange == "PQ")
        #expect(top.stream.requiredVideoLayout == "CH-STEREO,CH-MONO")
        #expect(top.stream.stableVariantID == "2160p-dv")
        #expect(top.audio == "aud")
        #expect(top.stream.video == "vid")
        #expect(top.subtitles == "sub")
        #expect(top.closedCaptions == .group("cc"))
        #expect(top.stream.pathwayID == "CDN-A")
        #expect(top.stream.otherAttributes.isEmpty)

        let backup = playlist.variants[1]
        #expect(backup.stream.pathwayID == "CDN-B")
        #expect(backup.uri == "https://b.example.com/2160p-dv.m3u8")

        let hd = playlist.variants[2]
        #expect(hd.stream.score == "1")
        #expect(hd.frameRate == "29.97")
        #expect(hd.stream.hdcpLevel == "NONE")
        #expect(hd.stream.videoRange == "SDR")
        #expect(hd.closedCaptions == VariantStream.ClosedCaptions.none)
        #expect(hd.stream.otherAttributes.isEmpty)

        let hlg = playlist.variants[3]
        #expect(hlg.frameRate == "50")
        #expect(hlg.stream.hdcpLevel == "TYPE-0")
        #expect(hlg.stream.videoRange == "HLG")
        #expect(hlg.stream.requiredVideoLayout == "CH-MONO")
        #expect(hlg.closedCaptions == VariantStream.ClosedCaptions.none)
        #expect(hlg.stream.averageBandwidth == nil)
        #expect(hlg.stream.stableVariantID == nil)
    }

    @Test("EXT-X-I-FRAME-STREAM-INF reads the shared stream attributes, in any order")
    func everyIFrameStreamAttribute() throws {
        let playlist = try Corpus.multivariant("multivariant-every-stream-attribute")
        try #require(playlist.iFrameStreams.count == 2)
        let dolbyVision = playlist.iFrameStreams[0]
        #expect(dolbyVision.uri == "https://a.example.com/2160p-dv-iframe.m3u8")
        #expect(dolbyVision.stream.bandwidth == 800_000)
        #expect(dolbyVision.stream.averageBandwidth == 600_000)
        #expect(dolbyVision.stream.score == "2")
        #expect(dolbyVision.stream.codecs == "dvh1.08.07")
        #expect(dolbyVision.stream.supplementalCodecs == "hvc1.2.4.L153.b0/db4h")
        #expect(dolbyVision.stream.resolution == Resolution(width: 3840, height: 2160))
        #expect(dolbyVision.stream.hdcpLevel == "TYPE-1")
        #expect(dolbyVision.stream.allowedCPC == "com.example.drm1:SMART-TV/PC")
        #expect(dolbyVision.stream.videoRange == "PQ")
        #expect(dolbyVision.stream.requiredVideoLayout == "CH-STEREO")
        #expect(dolbyVision.stream.stableVariantID == "2160p-dv-iframe")
        #expect(dolbyVision.stream.video == "vid")
        #expect(dolbyVision.stream.pathwayID == "CDN-A")
        #expect(dolbyVision.stream.otherAttributes.isEmpty)
        let reordered = playlist.iFrameStreams[1]
        #expect(reordered.uri == "https://a.example.com/720p-iframe.m3u8")
        #expect(reordered.stream.bandwidth == 200_000)
        #expect(reordered.stream.codecs == "avc1.640020")
        #expect(reordered.stream.resolution == Resolution(width: 1280, height: 720))
    }

    @Test("EXT-X-CONTENT-STEERING names the steering server and the initial pathway")
    func contentSteering() throws {
        let playlist = try Corpus.multivariant("multivariant-every-stream-attribute")
        #expect(playlist.contentSteering == ContentSteering(serverURI: "/steering?video=00012", pathwayID: "CDN-A"))
        let video = try #require(playlist.renditions(inGroup: "vid", type: "VIDEO").first)
        #expect(video.uri == nil)
    }

    @Test("EXT-X-SESSION-DATA carries a VALUE with a LANGUAGE, or a URI with a FORMAT")
    func sessionData() throws {
        let playlist = try Corpus.multivariant("multivariant-session-data-keys-define")
        #expect(playlist.sessionData == [
            SessionData(dataID: "com.example.lyrics", uri: "lyrics.json"),
            SessionData(dataID: "com.example.title", value: "This is an example", language: "en"),
            SessionData(dataID: "com.example.title", value: "Este es un ejemplo", language: "es"),
            SessionData(dataID: "com.example.raw", uri: "https://cdn.example.com/show/blob.bin", format: "RAW"),
        ])
    }

    @Test("EXT-X-SESSION-KEY reads the same attributes as EXT-X-KEY")
    func sessionKeys() throws {
        let playlist = try Corpus.multivariant("multivariant-session-data-keys-define")
        #expect(playlist.sessionKeys == [
            EncryptionKey(method: .sampleAES, uri: "skd://session-key", keyFormat: "com.apple.streamingkeydelivery", keyFormatVersions: "1"),
            EncryptionKey(method: .aes128, uri: "https://cdn.example.com/show/key.bin",
                          initializationVector: "0x0123456789ABCDEF0123456789ABCDEF"),
        ])
        #expect(playlist.start?.timeOffset == MediaTime(seconds: 25))
    }

    @Test("a CRLF multivariant playlist with reordered attributes reads the same values, and keeps its comments")
    func crlfUnusualOrder() throws {
        let playlist = try Corpus.multivariant("multivariant-crlf-unusual-order")
        #expect(playlist.isIndependentSegments)
        #expect(playlist.renditions == [
            {
                var french = Rendition(type: "AUDIO", groupID: "a1", name: "Français", uri: "audio/fr.m3u8")
                french.language = "fr"
                french.autoselect = true
                return french
            }(),
            {
                var english = Rendition(type: "AUDIO", groupID: "a1", name: "English", uri: "audio/en.m3u8")
                english.language = "en"
                english.autoselect = true
                english.isDefault = true
                return english
            }(),
        ])
        #expect(playlist.variants.map(\.uri) == ["1080p/index.m3u8", "540p/index.m3u8"])
        #expect(playlist.variants.map(\.stream.bandwidth) == [5_000_000, 2_000_000])
        #expect(playlist.variants.map(\.frameRate) == ["23.976", nil])
        #expect(playlist.variants.map(\.stream.resolution) == [Resolution(width: 1920, height: 1080), Resolution(width: 960, height: 540)])
        #expect(playlist.iFrameStreams.map(\.uri) == ["1080p/iframes.m3u8"])
        #expect(playlist.otherLines.map(\.text) == [
            "# Multivariant playlist with CRLF line endings and attributes in an unusual order",
            "#EXT-X-COM-EXAMPLE-VENDOR:build=42",
        ])
    }
}
