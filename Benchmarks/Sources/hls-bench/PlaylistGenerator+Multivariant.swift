extension PlaylistGenerator {
    /// A multivariant playlist of a title in the shape Apple's authoring guidelines describe: a
    /// six-rung H.264 ladder offered with two audio groups (stereo AAC and 5.1 E-AC-3, six languages
    /// each) for 12 variants, eight subtitle languages plus forced English, closed captions, and an
    /// I-frame stream per rung.
    ///
    /// About 7.6 kB.
    func makeMultivariantPlaylist() -> String {
        var random = makeRandomNumbers(stream: 3)
        let languages = [
            ("en", "English"), ("es", "Español"), ("fr", "Français"), ("de", "Deutsch"), ("pt-BR", "Português (Brasil)"),
            ("ja", "日本語"),
        ]
        let subtitleLanguages = languages + [("it", "Italiano"), ("ko", "한국어")]
        let ladder: [(width: Int, height: Int, codec: String, kbps: Int)] = [
            (416, 234, "avc1.42c01e", 365), (640, 360, "avc1.4d401e", 730), (768, 432, "avc1.4d401e", 1100),
            (960, 540, "avc1.640020", 2000), (1280, 720, "avc1.64001f", 4500), (1920, 1080, "avc1.640028", 7800),
        ]
        let audioGroups: [(id: String, codec: String, channels: String, kbps: Int, folder: String)] = [
            ("aac-stereo-128", "mp4a.40.2", "2", 128, "aac"), ("ec3-51-384", "ec-3", "6", 384, "ec3"),
        ]

        var text = """
            #EXTM3U
            #EXT-X-VERSION:6
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-SESSION-DATA:DATA-ID="com.example.title",VALUE="Title 1234"
            #EXT-X-CONTENT-STEERING:SERVER-URI="https://steering.example.com/v1/title-1234",PATHWAY-ID="cdn-a"


            """
        for group in audioGroups {
            for (index, (code, name)) in languages.enumerated() {
                text += "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"\(group.id)\",LANGUAGE=\"\(code)\",NAME=\"\(name)\","
                    + "DEFAULT=\(index == 0 ? "YES" : "NO"),AUTOSELECT=YES,CHANNELS=\"\(group.channels)\","
                    + "URI=\"audio/\(group.folder)/\(code)/prog_index.m3u8\"\n"
            }
        }
        text += "\n"
        for (code, name) in subtitleLanguages {
            text += "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",LANGUAGE=\"\(code)\",NAME=\"\(name)\",DEFAULT=NO,"
                + "AUTOSELECT=YES,FORCED=NO,URI=\"subtitles/\(code)/prog_index.m3u8\"\n"
        }
        text += "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",LANGUAGE=\"en\",NAME=\"English (forced)\",DEFAULT=YES,"
            + "AUTOSELECT=YES,FORCED=YES,URI=\"subtitles/en-forced/prog_index.m3u8\"\n"
        text += "#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"cc\",LANGUAGE=\"en\",NAME=\"English\",DEFAULT=YES,"
            + "AUTOSELECT=YES,INSTREAM-ID=\"CC1\"\n\n"

        for group in audioGroups {
            for rung in ladder {
                // Peak bandwidth a little above the average, as a real encode measures it.
                let averageBitsPerSecond = (rung.kbps + group.kbps) * 1000
                let peakBitsPerSecond = averageBitsPerSecond + averageBitsPerSecond * (10 + random.next(below: 25)) / 100
                text += "#EXT-X-STREAM-INF:BANDWIDTH=\(peakBitsPerSecond),AVERAGE-BANDWIDTH=\(averageBitsPerSecond),"
                    + "CODECS=\"\(rung.codec),\(group.codec)\",RESOLUTION=\(rung.width)x\(rung.height),FRAME-RATE=29.970,"
                    + "VIDEO-RANGE=SDR,HDCP-LEVEL=\(rung.height >= 720 ? "TYPE-0" : "NONE"),AUDIO=\"\(group.id)\","
                    + "SUBTITLES=\"subs\",CLOSED-CAPTIONS=\"cc\"\n"
                text += "video/avc/\(rung.height)p/prog_index.m3u8\n"
            }
        }
        text += "\n"
        for rung in ladder {
            let averageBitsPerSecond = rung.kbps * 1000 / 10
            let peakBitsPerSecond = averageBitsPerSecond + averageBitsPerSecond * (10 + random.next(below: 25)) / 100
            text += "#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=\(peakBitsPerSecond),AVERAGE-BANDWIDTH=\(averageBitsPerSecond),"
                + "CODECS=\"\(rung.codec)\",RESOLUTION=\(rung.width)x\(rung.height),VIDEO-RANGE=SDR,"
                + "HDCP-LEVEL=\(rung.height >= 720 ? "TYPE-0" : "NONE"),URI=\"video/avc/\(rung.height)p/iframe_index.m3u8\"\n"
        }
        return text
    }
}
