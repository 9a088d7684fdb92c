import HLSPlaylist
import MediaTime
import Testing

@Suite("PlaylistDate")
struct PlaylistDateTests {
    @Test("ISO 8601 dates with zones, fractions and without seconds parse to the same instant",
          arguments: [
              "2026-11-30T05:00:09.009Z", "2026-11-30T06:00:09.009+01:00", "2026-11-30T00:30:09.009-04:30",
              "2026-11-30T06:00:09.009+0100", "2026-11-30t05:00:09.009z", "2026-11-30T05:00:09.009000000Z",
          ])
    func sameInstant(text: String) throws {
        let reference = try #require(PlaylistDate(iso8601: "2026-11-30T05:00:09.009Z"))
        #expect(PlaylistDate(iso8601: text) == reference)
    }

    @Test("a date without a zone is UTC")
    func noZoneIsUTC() {
        #expect(PlaylistDate(iso8601: "2026-11-30T05:00:00") == PlaylistDate(iso8601: "2026-11-30T05:00:00Z"))
        #expect(PlaylistDate(iso8601: "2026-11-30T05:00") == PlaylistDate(iso8601: "2026-11-30T05:00:00Z"))
    }

    @Test("malformed dates are rejected",
          arguments: ["", "soon", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-11-30", "2026-11-30T25:00:00Z",
                      "2026-11-30T05:00:00.Z", "2026-11-30T05:00:00Zjunk", "2026-11-30T05:00:00+2500"])
    func rejects(text: String) {
        #expect(PlaylistDate(iso8601: text) == nil)
    }

    @Test("differences between dates are exact")
    func exactDifference() throws {
        let a = try #require(PlaylistDate(iso8601: "2026-11-30T05:00:00Z"))
        let b = try #require(PlaylistDate(iso8601: "2026-11-30T05:00:09.009Z"))
        #expect(b.timeIntervalSince(a) == MediaTime(decimal: "9.009")!)
        #expect(a.adding(MediaTime(decimal: "9.009")!) == b)
        #expect(a < b)
    }

    @Test("leap days and dates before 1970 convert both ways")
    func calendar() throws {
        for text in ["2024-02-29T12:00:00.000Z", "1969-12-31T23:59:59.500Z", "2000-01-01T00:00:00.000Z"] {
            let date = try #require(PlaylistDate(iso8601: text))
            #expect(date.iso8601String == text)
        }
    }

    @Test("the canonical text keeps the original zone")
    func keepsZone() throws {
        let date = try #require(PlaylistDate(iso8601: "2026-11-30T06:00:00.250+01:00"))
        #expect(date.iso8601String == "2026-11-30T06:00:00.250+01:00")
    }
}
