import MediaTime

/// How `interlude play` reads times and sizes on the command line: `30`, `30s`, `2.5s`, `1m30s` or
/// `1h2m`; `16M`. Its output writes times with `TimeFormat` (`1:30.000`).
enum PlayTime {
    /// A non-negative time: a decimal number of seconds, or decimal amounts of hours, minutes and
    /// seconds in that order, each suffixed with `h`, `m` or `s` (`1m30s`, `1h`, `90.5s`). Exact:
    /// `0.1s` is a tenth of a second, not a binary approximation. `nil` for anything else.
    ///
    /// - Complexity: O(n) in the length of the text.
    static func parse(_ text: String) -> MediaTime? {
        if let plain = MediaTime(decimal: text) { return plain.isNegative ? nil : plain }
        var total = MediaTime.zero
        var number = ""
        var seenUnits = 0
        let units: [(Character, Int64)] = [("h", 3600), ("m", 60), ("s", 1)]
        for character in text {
            if let index = units.firstIndex(where: { $0.0 == character }) {
                // Units must come in order, each at most once, each after a number.
                guard index >= seenUnits, !number.isEmpty, let amount = MediaTime(decimal: number), !amount.isNegative,
                    let scaled = amount.multipliedReportingOverflow(by: units[index].1),
                    let sum = total.addingReportingOverflow(scaled)
                else { return nil }
                total = sum
                seenUnits = index + 1
                number = ""
            } else if character.isASCII, character.isNumber || character == "." {
                number.append(character)
            } else {
                return nil
            }
        }
        guard number.isEmpty, seenUnits > 0 else { return nil }
        return total
    }

    /// A time as a plain decimal number of seconds: `0.5`, `600`.
    static func seconds(_ time: MediaTime) -> String { time.decimalString() }

    /// A size in bytes: a whole number, optionally suffixed with `k`, `M` or `G` (powers of 1,024;
    /// `16M` is 16 MiB). `nil` for anything else or on overflow.
    static func parseByteCount(_ text: String) -> Int? {
        let units: [Character: Int] = ["k": 1 << 10, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var digits = Substring(text)
        var scale = 1
        if let last = digits.last, let unit = units[last] {
            scale = unit
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(digits) else { return nil }
        let (bytes, overflow) = value.multipliedReportingOverflow(by: scale)
        return overflow ? nil : bytes
    }

    /// A time as a host duration (nanosecond precision, rounded down).
    static func duration(_ time: MediaTime) -> Duration {
        .nanoseconds(time.floorUnits(timescale: 1_000_000_000) ?? 0)
    }
}
