/// Writes the benchmark's playlists: shaped like production ones, valid HLS (RFC 8216bis), and
/// byte-identical for a given seed.
///
/// The generator formats every number and date itself, from integers, so that the text depends
/// on nothing but the seed (not on the parser under test, nor on the toolchain's floating-point
/// printing).
///
///     let files = PlaylistGenerator(seed: 1234).makeFiles()
///     files.map(\.name)   // ["vod-2h-interstitials.m3u8", "live-24h-dvr.m3u8", "multivariant-12.m3u8"]
struct PlaylistGenerator {
    /// One generated playlist.
    struct File {
        /// The file name, ending in `.m3u8`.
        var name: String
        /// The playlist text.
        var text: String
    }

    /// The seed every playlist's generator derives from.
    let seed: UInt64

    /// The three playlists: a two-hour VOD media playlist with 40 interstitials, a 24-hour live DVR
    /// media playlist with a date on every segment and 2,000 date ranges, and a 12-variant
    /// multivariant playlist.
    ///
    /// - Complexity: O(n) in the size of the output.
    func makeFiles() -> [File] {
        [
            File(name: "vod-2h-interstitials.m3u8", text: makeVODPlaylist()),
            File(name: "live-24h-dvr.m3u8", text: makeLiveDVRPlaylist()),
            File(name: "multivariant-12.m3u8", text: makeMultivariantPlaylist()),
            File(name: "live-24h-2000-interstitials.m3u8", text: makeLiveDVRPlaylist(interstitials: 2_000, spliceBreaks: 0, stream: 4)),
        ]
    }

    /// A generator for one playlist, so that changing one playlist leaves the others' text alone.
    func makeRandomNumbers(stream: UInt64) -> SplitMix64 {
        SplitMix64(seed: seed &* 0x2545_F491_4F6C_DD1D ^ stream)
    }
}

// MARK: - Formatting

extension PlaylistGenerator {
    /// `milliseconds` as seconds with three decimals: `6006` → `"6.006"`.
    static func seconds(milliseconds: Int) -> String {
        let fraction = milliseconds % 1000
        let padding = fraction < 10 ? "00" : fraction < 100 ? "0" : ""
        return "\(milliseconds / 1000).\(padding)\(fraction)"
    }

    /// Milliseconds since 1970 of a UTC date and time (proleptic Gregorian calendar).
    static func millisecondsSince1970(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int64 {
        Int64(daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second) * 1000
    }

    /// `2026-11-30T05:00:00.000Z`: the form packagers write in EXT-X-PROGRAM-DATE-TIME and
    /// START-DATE.
    static func iso8601(millisecondsSince1970 milliseconds: Int64) -> String {
        let (days, millisecondOfDay) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let (year, month, day) = civilDate(daysSince1970: Int(days))
        let totalSeconds = Int(millisecondOfDay / 1000)
        return "\(year)-\(twoDigits(month))-\(twoDigits(day))T\(twoDigits(totalSeconds / 3600)):"
            + "\(twoDigits(totalSeconds / 60 % 60)):\(twoDigits(totalSeconds % 60)).\(threeDigits(Int(millisecondOfDay % 1000)))Z"
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    private static func threeDigits(_ value: Int) -> String {
        value < 10 ? "00\(value)" : value < 100 ? "0\(value)" : "\(value)"
    }

    /// Howard Hinnant's `days_from_civil`, for dates after 1970.
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = shiftedYear / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Howard Hinnant's `civil_from_days`, for dates after 1970.
    private static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = shifted / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
