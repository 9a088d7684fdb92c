import MediaTime

/// How the player layer writes a time for people, like the elapsed and remaining labels at the two
/// ends of `AVPlayerViewController`'s transport bar: `m:ss` under an hour, `h:mm:ss` from an hour
/// on, optionally with fractional digits (`1:05.2`).
///
/// An elapsed time is truncated and a remaining time rounded up, both to the last digit shown, so
/// that the two labels always add up to the duration on screen and a countdown reads `-0:01` until
/// the very end rather than `-0:00` for most of the last second. A remaining time carries a
/// leading minus (`-0:42`). A duration that is not known yet (live) reads `live`; any other value
/// that is not a number reads `--:--`.
public enum TimeFormat {
    /// `time` truncated to `fractionDigits` (0 to 3) digits: `0:07`, `1:02:03`, `-0:05` for a
    /// negative time. With `omittingZeroFraction`, a time whose digits are all zero has none
    /// (`0:07` but `0:07.250`), for logs where most times fall on whole seconds.
    public static func elapsed(_ time: MediaTime, fractionDigits: Int = 0, omittingZeroFraction: Bool = false) -> String {
        guard time.isNumeric else { return placeholder(time) }
        var digits = max(0, min(3, fractionDigits))
        // Truncation toward zero: the magnitude's floor.
        guard var units = time.magnitude.floorUnits(timescale: Int32(Self.scales[digits])) else { return placeholder(time) }
        if omittingZeroFraction, units % Self.scales[digits] == 0 {
            units /= Self.scales[digits]
            digits = 0
        }
        return (time.isNegative && units > 0 ? "-" : "") + clock(units: units, scale: Self.scales[digits], digits: digits)
    }

    /// `time` still to play, as a countdown: rounded up to `fractionDigits` (0 to 3) digits, with a
    /// leading minus (`-0:42`; `-0:00` once nothing remains). A negative time counts as zero.
    public static func remaining(_ time: MediaTime, fractionDigits: Int = 0) -> String {
        guard time.isNumeric else { return placeholder(time) }
        let digits = max(0, min(3, fractionDigits))
        let scale = Self.scales[digits]
        // The ceiling is minus the floor of the negation.
        guard let floorOfNegation = (-MediaTime.max(time, .zero)).floorUnits(timescale: Int32(scale)) else { return placeholder(time) }
        return "-" + clock(units: -floorOfNegation, scale: scale, digits: digits)
    }

    private static let scales: [Int64] = [1, 10, 100, 1000]

    private static func placeholder(_ time: MediaTime) -> String {
        time.isIndefinite ? "live" : "--:--"
    }

    private static func clock(units: Int64, scale: Int64, digits: Int) -> String {
        let whole = units / scale
        let fraction = units % scale
        let (hours, minutes, seconds) = (whole / 3600, whole / 60 % 60, whole % 60)
        var text = hours > 0 ? "\(hours):\(padded(minutes, 2)):\(padded(seconds, 2))" : "\(minutes):\(padded(seconds, 2))"
        if digits > 0 { text += "." + padded(fraction, digits) }
        return text
    }

    private static func padded(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
