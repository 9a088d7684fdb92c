import HLSPlaylist
import Testing

@Suite("PlaylistValidator: multivariant playlist rules")
struct PlaylistValidatorMultivariantTests {
    @Test("a multivariant playlist rule is reported on the tag that breaks it", arguments: RuleCase.multivariant)
    func violation(_ rule: RuleCase) throws { try rule.expectViolation() }

    @Test("a near miss of a multivariant playlist rule is clean", arguments: RuleCase.multivariant)
    func nearMiss(_ rule: RuleCase) throws { try rule.expectNearMissIsClean() }

    @Test("the specification's alternative-audio example is valid")
    func specificationExample() {
        let text = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",DEFAULT=YES,AUTOSELECT=YES,LANGUAGE="en",URI="main/english-audio.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="Deutsch",DEFAULT=NO,AUTOSELECT=YES,LANGUAGE="de",URI="main/german-audio.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="Commentary",DEFAULT=NO,AUTOSELECT=NO,LANGUAGE="en",URI="commentary/audio-only.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.4d401e,mp4a.40.2",AUDIO="aac"
            low/video-only.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2560000,CODECS="avc1.4d401f,mp4a.40.2",AUDIO="aac"
            mid/video-only.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=65000,CODECS="mp4a.40.5",AUDIO="aac"
            main/english-audio.m3u8
            """
        #expect(PlaylistValidator.validate(Array(text.utf8)).isEmpty)
    }
}

extension RuleCase {
    static let multivariant: [RuleCase] = [
        RuleCase(
            "multivariant.rendition-type-unknown",
            at: "#EXT-X-MEDIA:TYPE=TEXT,GROUP-ID=\"subs\",NAME=\"English\",URI=\"subs/en.m3u8\"",
            violation: """
                #EXTM3U
                #EXT-X-MEDIA:TYPE=TEXT,GROUP-ID="subs",NAME="English",URI="subs/en.m3u8"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2"
                low.m3u8
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",URI="subs/en.m3u8"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2"
                low.m3u8
                """
        ),
        RuleCase(
            "multivariant.closed-captions-uri-forbidden",
            at: "#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"cc\",NAME=\"English\",INSTREAM-ID=\"CC1\",URI=\"cc.m3u8\"",
            violation: """
                #EXTM3U
                #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="English",INSTREAM-ID="CC1",URI="cc.m3u8"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",CLOSED-CAPTIONS="cc"
                low.m3u8
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="English",INSTREAM-ID="CC1"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",CLOSED-CAPTIONS="cc"
                low.m3u8
                """
        ),
        RuleCase(
            "multivariant.subtitles-uri-required",
            at: "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=\"English\",LANGUAGE=\"en\"",
            violation: """
                #EXTM3U
                #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2,wvtt",SUBTITLES="subs"
                low.m3u8
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",URI="subs/en.m3u8"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2,wvtt",SUBTITLES="subs"
                low.m3u8
                """
        ),
        RuleCase(
            "multivariant.instream-id-required",
            at: "#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"cc\",NAME=\"English\"",
            violation: """
                #EXTM3U
                #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="English"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",CLOSED-CAPTIONS="cc"
                low.m3u8
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="English",INSTREAM-ID="CC4"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",CLOSED-CAPTIONS="cc"
                low.m3u8
                """
        ),
        RuleCase(
            "multivariant.instream-id-invalid", "a closed-caption channel",
            at: "#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"cc\",NAME=\"English\",INSTREAM-ID=\"SERVICE64\"",
            violation: """
                #EXTM3U
                #EXT-X-VERSION:7
                #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="English",INSTREAM-ID="SERVICE64"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",CLOSED-CAPTIONS="cc"
                low.m3u8
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-VERSION:7
                #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="English",INSTREAM-ID="SERVICE63"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",CLOSED-CAPTIONS="cc"
                low.m3u8
                """
        ),
        RuleCase(
            "multivariant.instream-id-invalid", "another rendition type",
            at: "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"English\",URI=\"en.m3u8\",INSTREAM-ID=\"track 2\"",
            violation: """
                #EXTM3U
                #EXT-X-VERSION:13
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",URI="en.m3u8",INSTREAM-ID="track 2"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aac"
                low.m3u8
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-VERSION:13
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",URI="en.m3u8",INSTREAM-ID="track.2"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aac"
                low.m3u8
                """
        ),
        RuleCase(
            "multivariant.forced-not-subtitles",
            at: "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"English\",FORCED=NO,URI=\"en.m3u8\"",
            violation: """
                #EXTM3U
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",FORCED=NO,URI="en.m3u8"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aac"
                low.m3u8
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",FORCED=NO,URI="en.m3u8"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2,wvtt",SUBTITLES="subs"
                low.m3u8
                """
        ),
        RuleCase(
            "multivariant.audio-attribute-not-audio",
            at: "#EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID=\"cam\",NAME=\"Main\",CHANNELS=\"2\",URI=\"main.m3u8\"",
            violation: """
                #EXTM3U
                #EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="cam",NAME="Main",CHANNELS="2",URI="main.m3u8"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",VIDEO="cam"
                low.m3u8
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="cam",NAME="Main",CHANNELS="2",URI="main.m3u8"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="cam"
                low.m3u8
                """
        ),
        RuleCase(
            "multivariant.default-without-autoselect",
            at: "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"English\",DEFAULT=YES,AUTOSELECT=NO,URI=\"en.m3u8\"",
            violation: """
                #EXTM3U
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",DEFAULT=YES,AUTOSELECT=NO,URI="en.m3u8"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aac"
                low.m3u8
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",DEFAULT=YES,URI="en.m3u8"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aac"
                low.m3u8
                """
        ),
        RuleCase(
            "multivariant.rendition-name-duplicate",
            at: "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"English\",URI=\"en-2.m3u8\"",
            violation: """
                #EXTM3U
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",URI="en.m3u8"
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",URI="en-2.m3u8"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aac"
                low.m3u8
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",URI="en.m3u8"
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="ac3",NAME="English",URI="en-2.m3u8"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aac"
                low.m3u8
                """
        ),
        RuleCase(
            "multivariant.multiple-defaults",
            at: "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"Deutsch\",DEFAULT=YES,URI=\"de.m3u8\"",
            violation: """
                #EXTM3U
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",DEFAULT=YES,URI="en.m3u8"
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="Deutsch",DEFAULT=YES,URI="de.m3u8"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aac"
                low.m3u8
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",DEFAULT=YES,URI="en.m3u8"
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="Deutsch",DEFAULT=NO,URI="de.m3u8"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aac"
                low.m3u8
                """
        ),
        RuleCase(
            "multivariant.stable-id-characters",
            at: "#EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS=\"avc1.64001f,mp4a.40.2\",STABLE-VARIANT-ID=\"low video\"",
            violation: """
                #EXTM3U
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",STABLE-VARIANT-ID="low video"
                low.m3u8
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",STABLE-VARIANT-ID="low/video+1=a.b-c_d"
                low.m3u8
                """
        ),
        RuleCase(
            "multivariant.group-not-found",
            at: "#EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS=\"avc1.64001f,mp4a.40.2\",AUDIO=\"aac-2\"",
            violation: """
                #EXTM3U
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",URI="en.m3u8"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aac-2"
                low.m3u8
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",URI="en.m3u8"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aac"
                low.m3u8
                """
        ),
        RuleCase(
            "multivariant.group-not-found", "a group of another TYPE",
            at: "#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=86000,CODECS=\"avc1.64001f\",VIDEO=\"aac\",URI=\"low/iframe.m3u8\"",
            violation: """
                #EXTM3U
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",URI="en.m3u8"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aac"
                low.m3u8
                #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=86000,CODECS="avc1.64001f",VIDEO="aac",URI="low/iframe.m3u8"
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",URI="en.m3u8"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aac"
                low.m3u8
                #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=86000,CODECS="avc1.64001f",URI="low/iframe.m3u8"
                """
        ),
        RuleCase(
            "multivariant.closed-captions-none-inconsistent",
            at: "#EXT-X-STREAM-INF:BANDWIDTH=2560000,CODECS=\"avc1.64001f,mp4a.40.2\"",
            violation: """
                #EXTM3U
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",CLOSED-CAPTIONS=NONE
                low.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=2560000,CODECS="avc1.64001f,mp4a.40.2"
                mid.m3u8
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",CLOSED-CAPTIONS=NONE
                low.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=2560000,CODECS="avc1.64001f,mp4a.40.2",CLOSED-CAPTIONS=NONE
                mid.m3u8
                """
        ),
        RuleCase(
            "multivariant.codecs-missing", at: "#EXT-X-STREAM-INF:BANDWIDTH=2560000",
            violation: """
                #EXTM3U
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2"
                low.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=2560000
                mid.m3u8
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2"
                low.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=2560000,CODECS="avc1.64001f,mp4a.40.2"
                mid.m3u8
                """
        ),
        RuleCase(
            "multivariant.score-missing", at: "#EXT-X-STREAM-INF:BANDWIDTH=2560000,CODECS=\"avc1.64001f,mp4a.40.2\"",
            violation: """
                #EXTM3U
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",SCORE=1.5
                low.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=2560000,CODECS="avc1.64001f,mp4a.40.2"
                mid.m3u8
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",SCORE=1.5
                low.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=2560000,CODECS="avc1.64001f,mp4a.40.2",SCORE=2
                mid.m3u8
                """
        ),
        RuleCase(
            "multivariant.i-frame-stream-attribute",
            at: "#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=86000,CODECS=\"avc1.64001f\",FRAME-RATE=29.97,URI=\"low/iframe.m3u8\"",
            violation: """
                #EXTM3U
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",FRAME-RATE=29.97
                low.m3u8
                #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=86000,CODECS="avc1.64001f",FRAME-RATE=29.97,URI="low/iframe.m3u8"
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",FRAME-RATE=29.97
                low.m3u8
                #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=86000,CODECS="avc1.64001f",URI="low/iframe.m3u8"
                """
        ),
        RuleCase(
            "multivariant.session-data-value-xor-uri",
            at: "#EXT-X-SESSION-DATA:DATA-ID=\"com.example.title\",VALUE=\"Title\",URI=\"title.json\"",
            violation: """
                #EXTM3U
                #EXT-X-SESSION-DATA:DATA-ID="com.example.title",VALUE="Title",URI="title.json"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2"
                low.m3u8
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-SESSION-DATA:DATA-ID="com.example.title",URI="title.json"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2"
                low.m3u8
                """
        ),
        RuleCase(
            "multivariant.session-data-duplicate",
            at: "#EXT-X-SESSION-DATA:DATA-ID=\"com.example.title\",VALUE=\"Titel\",LANGUAGE=\"en\"",
            violation: """
                #EXTM3U
                #EXT-X-SESSION-DATA:DATA-ID="com.example.title",VALUE="Title",LANGUAGE="en"
                #EXT-X-SESSION-DATA:DATA-ID="com.example.title",VALUE="Titel",LANGUAGE="en"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2"
                low.m3u8
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-SESSION-DATA:DATA-ID="com.example.title",VALUE="Title",LANGUAGE="en"
                #EXT-X-SESSION-DATA:DATA-ID="com.example.title",VALUE="Titel",LANGUAGE="de"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2"
                low.m3u8
                """
        ),
        RuleCase(
            "multivariant.session-key-method-none", at: "#EXT-X-SESSION-KEY:METHOD=NONE",
            violation: """
                #EXTM3U
                #EXT-X-SESSION-KEY:METHOD=NONE
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2"
                low.m3u8
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-SESSION-KEY:METHOD=AES-128,URI="https://keys.example.com/k1"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2"
                low.m3u8
                """
        ),
        RuleCase(
            "multivariant.session-key-uri-required", at: "#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES",
            violation: """
                #EXTM3U
                #EXT-X-SESSION-KEY:METHOD=AES-128,URI="https://keys.example.com/k1"
                #EXT-X-SESSION-KEY:METHOD=SAMPLE-AES
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2"
                low.m3u8
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-SESSION-KEY:METHOD=AES-128,URI="https://keys.example.com/k1"
                #EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="https://keys.example.com/k2"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2"
                low.m3u8
                """
        ),
        RuleCase(
            "multivariant.content-steering-pathway-unknown",
            at: "#EXT-X-CONTENT-STEERING:SERVER-URI=\"https://steer.example.com/manifest.json\",PATHWAY-ID=\"CDN-B\"",
            violation: """
                #EXTM3U
                #EXT-X-CONTENT-STEERING:SERVER-URI="https://steer.example.com/manifest.json",PATHWAY-ID="CDN-B"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",PATHWAY-ID="CDN-A"
                https://a.example.com/low.m3u8
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-CONTENT-STEERING:SERVER-URI="https://steer.example.com/manifest.json",PATHWAY-ID="CDN-A"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",PATHWAY-ID="CDN-A"
                https://a.example.com/low.m3u8
                """
        ),
        RuleCase(
            "playlist.tag-repeated", "EXT-X-CONTENT-STEERING twice",
            at: "#EXT-X-CONTENT-STEERING:SERVER-URI=\"https://steer.example.com/other.json\"",
            violation: """
                #EXTM3U
                #EXT-X-CONTENT-STEERING:SERVER-URI="https://steer.example.com/manifest.json"
                #EXT-X-CONTENT-STEERING:SERVER-URI="https://steer.example.com/other.json"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2"
                low.m3u8
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-CONTENT-STEERING:SERVER-URI="https://steer.example.com/other.json"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2"
                low.m3u8
                """
        ),
        RuleCase(
            "playlist.version-too-low", "SERVICE closed captions need 7",
            at: "#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"cc\",NAME=\"English\",INSTREAM-ID=\"SERVICE3\"",
            violation: """
                #EXTM3U
                #EXT-X-VERSION:6
                #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="English",INSTREAM-ID="SERVICE3"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",CLOSED-CAPTIONS="cc"
                low.m3u8
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-VERSION:6
                #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="English",INSTREAM-ID="CC3"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",CLOSED-CAPTIONS="cc"
                low.m3u8
                """
        ),
        RuleCase(
            "playlist.version-too-low", "REQ- attributes need 12",
            at: "#EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS=\"hvc1.2.4.L123.B0\",REQ-VIDEO-LAYOUT=\"CH-STEREO\"",
            violation: """
                #EXTM3U
                #EXT-X-VERSION:11
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="hvc1.2.4.L123.B0",REQ-VIDEO-LAYOUT="CH-STEREO"
                stereo.m3u8
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-VERSION:12
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="hvc1.2.4.L123.B0",REQ-VIDEO-LAYOUT="CH-STEREO"
                stereo.m3u8
                """
        ),
        RuleCase(
            "playlist.version-too-low", "INSTREAM-ID outside closed captions needs 13",
            at: "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"English\",URI=\"en.m3u8\",INSTREAM-ID=\"track.2\"",
            violation: """
                #EXTM3U
                #EXT-X-VERSION:12
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",URI="en.m3u8",INSTREAM-ID="track.2"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aac"
                low.m3u8
                """,
            nearMiss: """
                #EXTM3U
                #EXT-X-VERSION:13
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",URI="en.m3u8",INSTREAM-ID="track.2"
                #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aac"
                low.m3u8
                """
        ),
    ]
}
