import MediaTime
import StreamOrigin
import Testing

@Suite("AdDecisionEngine")
struct AdDecisionEngineTests {
    /// (viewer, break, the ads with their offsets and measured durations in seconds).
    static let expected: [(String, String, [(String, Int64, Int64)])] = [
        ("alice", "legal", []), ("alice", "mid-1", []), ("alice", "mid-2", []),
        ("bob", "legal", []), ("bob", "mid-1", [("spot-15s", 0, 15)]), ("bob", "mid-2", [("spot-15s", 0, 15)]),
        ("charlie", "legal", []), ("charlie", "mid-1", [("spot-10s", 0, 10), ("spot-20s", 10, 20)]),
        ("charlie", "mid-2", [("spot-10s", 0, 10), ("spot-20s", 10, 20)]),
        ("dana", "legal", [("legal-warning", 0, 5)]), ("dana", "mid-1", []), ("dana", "mid-2", []),
    ]

    @Test("each viewer of the default configuration gets the talk's ads: premium none, 15 s, 10 + 20 s, a legal warning in DE only",
          arguments: expected)
    func defaultDecisions(viewer: String, breakID: String, ads: [(String, Int64, Int64)]) throws {
        let engine = try defaultOrigin().decisions
        for stream in ["movie", "movie-stitched"] {
            let decision = try engine.decision(streamID: stream, viewerID: viewer, breakID: breakID)
            #expect(decision.placements == ads.map { AdDecision.Placement(adID: $0.0, offset: seconds($0.1), duration: seconds($0.2)) })
            #expect(decision.duration == seconds(ads.reduce(0) { $0 + $1.2 }))
        }
    }

    @Test("live breaks repeat the viewer's pod under numbered identifiers")
    func liveDecisions() throws {
        let engine = try defaultOrigin().decisions
        for k in [0, 1, 57] {
            #expect(try engine.decision(streamID: "channel", viewerID: "charlie", breakID: "ad-\(k)").duration == seconds(30))
            #expect(try engine.decision(streamID: "channel-stitched", viewerID: "bob", breakID: "ad-\(k)").duration == seconds(15))
            #expect(try engine.decision(streamID: "channel", viewerID: "alice", breakID: "ad-\(k)").isEmpty)
        }
    }

    @Test("ad durations are measured from the media, not taken from ffmpeg's playlist (which says 5.021333 for the first segment)")
    func measuredDurations() throws {
        let library = try defaultOrigin().library
        #expect(library.ads["legal-warning"]?.chunks.map(\.duration) == [seconds(5)])
        #expect(library.ads["spot-20s"]?.chunks.map(\.duration) == Array(repeating: seconds(5), count: 4))
        #expect(library.chunkDuration == seconds(4))
        #expect(library.content.count == 15)
        #expect(library.loopDuration == seconds(60))
    }

    @Test("unknown streams, viewers and breaks are errors that map to 404", arguments: [
        ("nope", "bob", "mid-1", OriginError.Kind.unknownStream), ("movie", "zed", "mid-1", .unknownViewer),
        ("movie", "bob", "mid-9", .unknownBreak), ("channel", "bob", "ad-x", .unknownBreak), ("channel", "bob", "ad-01", .unknownBreak),
        ("channel", "bob", "mid-1", .unknownBreak),
    ])
    func unknownNames(stream: String, viewer: String, breakID: String, kind: OriginError.Kind) throws {
        let engine = try defaultOrigin().decisions
        #expect {
            _ = try engine.decision(streamID: stream, viewerID: viewer, breakID: breakID)
        } throws: { error in
            (error as? OriginError)?.kind == kind && (error as? OriginError)?.status == 404
        }
    }
}
