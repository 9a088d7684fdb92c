import HLSPlaylist
import Testing

@Suite("Corpus round trips")
struct CorpusRoundTripTests {
    @Test("the corpus holds at least 32 playlists, valid and malformed, of both kinds")
    func corpusIsComplete() {
        #expect(Corpus.allNames.count >= 32)
        #expect(Corpus.mediaNames.count >= 20)
        #expect(Corpus.multivariantNames.count >= 5)
        #expect(Corpus.malformedNames.count >= 4)
    }

    @Test("every corpus playlist parses and writes back byte for byte", arguments: Corpus.allNames)
    func parsesAndWritesBackUnchanged(name: String) throws {
        let bytes = try Corpus.bytes(name)
        let result = try Corpus.parse(name)
        #expect(result.playlist.serialized() == bytes)
        switch result.playlist {
        case .media(let playlist): #expect(playlist.serialized() == bytes)
        case .multivariant(let playlist): #expect(playlist.serialized() == bytes)
        }
        if Corpus.isMalformed(name) {
            #expect(!result.diagnostics.isEmpty, "a malformed file parses without a diagnostic")
        } else {
            #expect(result.diagnostics.isEmpty)
        }
    }

    @Test("the kind of every valid playlist matches its file name", arguments: Corpus.validNames)
    func kindMatchesName(name: String) throws {
        let playlist = try Corpus.parse(name).playlist
        #expect((playlist.media != nil) == name.hasPrefix("media-"))
        #expect((playlist.multivariant != nil) == name.hasPrefix("multivariant-"))
    }

    @Test("the canonical text of every valid playlist re-parses to an equal model and is a fixed point",
          arguments: Corpus.validNames)
    func canonicalTextRoundTrips(name: String) throws {
        let options = Corpus.options(for: name)
        switch try Corpus.parse(name).playlist {
        case .media(let original):
            let canonical = original.canonicalText()
            let reparsed = try MediaPlaylist(parsing: canonical, options: options)
            #expect(reparsed == original, "canonical text:\n\(canonical)")
            #expect(reparsed.canonicalText() == canonical)
            #expect(reparsed.serialized() == Array(canonical.utf8))
        case .multivariant(let original):
            let canonical = original.canonicalText()
            let reparsed = try MultivariantPlaylist(parsing: canonical, options: options)
            #expect(reparsed == original, "canonical text:\n\(canonical)")
            #expect(reparsed.canonicalText() == canonical)
            #expect(reparsed.serialized() == Array(canonical.utf8))
        }
    }

    @Test("an edited playlist forgets its source and writes its canonical text")
    func editingDropsTheSource() throws {
        var playlist = try Corpus.media("media-vod-simple")
        let original = try Corpus.bytes("media-vod-simple")
        #expect(playlist.source.bytes == original)
        playlist.segments[1].uri = "http://media.example.com/replacement.ts"
        #expect(playlist.source.bytes == nil)
        let written = playlist.serialized()
        #expect(written != original)
        #expect(written == Array(playlist.canonicalText().utf8))
        #expect(String(decoding: written, as: UTF8.self).contains("\nhttp://media.example.com/replacement.ts\n"))
        let reparsed = try MediaPlaylist(parsing: written)
        #expect(reparsed == playlist)
    }
}
