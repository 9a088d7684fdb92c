import HLSPlaylist
import Testing

@Suite("EXT-X-DEFINE and variable substitution")
struct VariableSubstitutionTests {
    @Test("NAME/VALUE variables are substituted in URI lines and quoted-string attributes; an empty VALUE is allowed")
    func nameValue() throws {
        let result = try Corpus.parse("media-define-value")
        let playlist = try #require(result.playlist.media)
        #expect(playlist.definitions == [
            .value(name: "host", value: "https://cdn.example.com"),
            .value(name: "path_v2", value: "/live/channel-7"),
            .value(name: "empty-ok", value: ""),
        ])
        #expect(result.variables == ["host": "https://cdn.example.com", "path_v2": "/live/channel-7", "empty-ok": ""])
        #expect(playlist.segments.map(\.uri) == [
            "https://cdn.example.com/live/channel-7/s1.m4s", "https://cdn.example.com/live/channel-7/s2.m4s",
        ])
        #expect(playlist.segments.first?.keys.first?.uri == "https://cdn.example.com/keys/1.bin")
        #expect(playlist.segments.first?.map?.uri == "https://cdn.example.com/live/channel-7/init.mp4")
    }

    @Test("QUERYPARAM variables take the percent-decoded query parameter of the playlist's URI")
    func queryParameters() throws {
        let result = try Corpus.parse("media-define-queryparam")
        let playlist = try #require(result.playlist.media)
        #expect(playlist.definitions == [.queryParameter(name: "token"), .queryParameter(name: "region")])
        #expect(result.variables == ["token": "abc/123", "region": "eu-west"])
        #expect(playlist.segments.map(\.uri) == ["s1.ts?token=abc/123", "https://eu-west.example.com/s2.ts?token=abc/123"])
    }

    @Test("a QUERYPARAM value is percent-decoded, the fragment is not part of it, and the first match wins")
    func queryParameterDecoding() throws {
        let text = "#EXTM3U\n#EXT-X-DEFINE:QUERYPARAM=\"sig\"\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\ns.ts?sig={$sig}\n"
        let options = ParseOptions(playlistURI: "https://example.com/a.m3u8?x=1&sig=ab%2Bc%2Fd%3D%3D&sig=second#frag")
        let result = try PlaylistParser.parse(text, options: options)
        #expect(result.variables["sig"] == "ab+c/d==")
        #expect(result.playlist.media?.segments.first?.uri == "s.ts?sig=ab+c/d==")
    }

    @Test("a QUERYPARAM the playlist's URI lacks fails the parse at the EXT-X-DEFINE")
    func missingQueryParameter() throws {
        let bytes = try Corpus.bytes("media-define-queryparam")
        let noURI = #expect(throws: PlaylistParseError.self) { try PlaylistParser.parse(bytes) }
        #expect(noURI?.kind == .undefinedVariable)
        #expect(noURI?.line == 3)
        let otherURI = #expect(throws: PlaylistParseError.self) {
            try PlaylistParser.parse(bytes, options: ParseOptions(playlistURI: "https://example.com/index.m3u8?token=t"))
        }
        #expect(otherURI?.kind == .undefinedVariable)
        #expect(otherURI?.line == 4)
        #expect(otherURI?.message.contains("region") == true)
    }

    @Test("IMPORT variables come from the multivariant playlist and reach DATERANGE attributes too")
    func imports() throws {
        let result = try Corpus.parse("media-define-import")
        let playlist = try #require(result.playlist.media)
        #expect(playlist.definitions == [.import(name: "base"), .value(name: "rendition", value: "720p")])
        #expect(result.variables == ["base": "https://cdn.example.com/vod", "rendition": "720p"])
        #expect(playlist.segments.map(\.uri) == [
            "https://cdn.example.com/vod/720p/s1.ts", "https://cdn.example.com/vod/720p/s2.ts",
        ])
        #expect(playlist.dateRanges.first?.assetURI == "https://cdn.example.com/vod/promo/720p.m3u8")
    }

    @Test("an IMPORT the multivariant playlist does not define fails the parse; lenient mode reports it")
    func missingImport() throws {
        let bytes = try Corpus.bytes("media-define-import")
        let error = #expect(throws: PlaylistParseError.self) { try PlaylistParser.parse(bytes) }
        #expect(error?.kind == .undefinedVariable)
        #expect(error?.line == 3)
        #expect(error?.excerpt == #"#EXT-X-DEFINE:IMPORT="base""#)

        let lenient = try PlaylistParser.parse(bytes, options: ParseOptions(mode: .lenient))
        #expect(lenient.diagnostics.map(\.ruleID).first == "parse.undefined-variable")
        #expect(lenient.diagnostics.map(\.line).first == 3)
        #expect(lenient.playlist.media?.segments.count == 2)
    }

    @Test("a multivariant playlist substitutes variables in variant URIs, session data and session keys")
    func multivariant() throws {
        let result = try Corpus.parse("multivariant-session-data-keys-define")
        let playlist = try #require(result.playlist.multivariant)
        #expect(playlist.definitions == [
            .value(name: "cdn", value: "https://cdn.example.com/show"), .queryParameter(name: "session"),
        ])
        #expect(playlist.variants.map(\.uri) == [
            "https://cdn.example.com/show/720p.m3u8?session=s-42", "https://cdn.example.com/show/360p.m3u8?session=s-42",
        ])
        #expect(playlist.sessionData.last?.uri == "https://cdn.example.com/show/blob.bin")
        #expect(playlist.sessionKeys.last?.uri == "https://cdn.example.com/show/key.bin")
    }

    @Test("hexadecimal-sequence values are subject to substitution too")
    func hexadecimalSubstitution() throws {
        let text = """
            #EXTM3U
            #EXT-X-DEFINE:NAME="iv",VALUE="000102030405060708090a0b0c0d0e0f"
            #EXT-X-TARGETDURATION:4
            #EXT-X-KEY:METHOD=AES-128,URI="k.bin",IV=0x{$iv}
            #EXTINF:4,
            s.ts

            """
        let playlist = try MediaPlaylist(parsing: text)
        #expect(playlist.segments.first?.keys.first?.initializationVector == "0x000102030405060708090a0b0c0d0e0f")
    }

    @Test("variable names are case-sensitive and may not be defined twice")
    func namesAreCaseSensitiveAndUnique() throws {
        let wrongCase = "#EXTM3U\n#EXT-X-DEFINE:NAME=\"host\",VALUE=\"h\"\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\n{$HOST}/s.ts\n"
        let caseError = #expect(throws: PlaylistParseError.self) { try PlaylistParser.parse(wrongCase) }
        #expect(caseError?.kind == .undefinedVariable)
        #expect(caseError?.line == 5)

        let twice = "#EXTM3U\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"1\"\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"2\"\n#EXT-X-TARGETDURATION:4\n"
        let twiceError = #expect(throws: PlaylistParseError.self) { try PlaylistParser.parse(twice) }
        #expect(twiceError?.kind == .undefinedVariable)
        #expect(twiceError?.line == 3)
    }

    @Test("an EXT-X-DEFINE needs exactly one of NAME, IMPORT and QUERYPARAM, and NAME needs VALUE")
    func malformedDefinitions() throws {
        let both = "#EXTM3U\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"1\",IMPORT=\"b\"\n#EXT-X-TARGETDURATION:4\n"
        let bothError = #expect(throws: PlaylistParseError.self) { try PlaylistParser.parse(both) }
        #expect(bothError?.kind == .missingAttribute)
        #expect(bothError?.line == 2)

        let noValue = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-DEFINE:NAME=\"a\"\n"
        let noValueError = #expect(throws: PlaylistParseError.self) { try PlaylistParser.parse(noValue) }
        #expect(noValueError?.kind == .missingAttribute)
        #expect(noValueError?.line == 3)
        #expect(noValueError?.message.contains("VALUE") == true)

        let badName = "#EXTM3U\n#EXT-X-DEFINE:NAME=\"a.b\",VALUE=\"1\"\n#EXT-X-TARGETDURATION:4\n"
        let badNameError = #expect(throws: PlaylistParseError.self) { try PlaylistParser.parse(badName) }
        #expect(badNameError?.kind == .malformedAttribute)
    }

    @Test("a reference in a quoted value before the first EXT-X-DEFINE fails, and validate reports it on its line")
    func referenceBeforeDefinitionInAttribute() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-MAP:URI="{$init}.mp4"
            #EXT-X-DEFINE:NAME="init",VALUE="main"
            #EXTINF:6,
            seg.ts

            """
        let error = #expect(throws: PlaylistParseError.self) { try PlaylistParser.parse(text) }
        #expect(error?.kind == .undefinedVariable)
        #expect(error?.line == 3)
        let diagnostics = PlaylistValidator.validate(Array(text.utf8))
        #expect(diagnostics.contains { $0.ruleID == "parse.undefined-variable" && $0.line == 3 }, "\(diagnostics)")
    }

    @Test("a {$name} in a comment or an unquoted value before the first EXT-X-DEFINE is not a reference")
    func notAReferenceBeforeDefinition() throws {
        let text = "#EXTM3U\n# {$note}\n#EXT-X-TARGETDURATION:6\n#EXT-X-DEFINE:NAME=\"x\",VALUE=\"a\"\n#EXTINF:6,\n{$x}.ts\n"
        let result = try PlaylistParser.parse(text)
        #expect(result.playlist.media?.segments.map(\.uri) == ["a.ts"])
    }
}
