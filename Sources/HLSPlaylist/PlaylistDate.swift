import MediaTime

/// An absolute date as HLS writes it: ISO 8601 / RFC 3339 with an optional fraction and time zone
/// (`2026-11-30T05:00:00.000Z`), used by EXT-X-PROGRAM-DATE-TIME and EXT-X-DATERANGE.
///
/// Stored as whole nanoseconds since 1970-01-01T00:00:00Z, so differences between dates are exact
/// ``MediaTime`` values. A date written without a zone is taken as UTC (RFC 8216bis §4.4.4.6 asks
/// for a zone; clients treat its absence as UTC).
///
///     let a = PlaylistDate(iso8601: "2026-11-30T05:00:00Z")!
///     let b = PlaylistDate(iso8601: "2026-11-30T06:00:09.009+01:00")!
///     b.timeIntervalSince(a)          // 9.009 exactly
public struct PlaylistDate: Sendable, Hashable, Comparable {
    /// Nanoseconds since the Unix epoch.
    public var nanosecondsSince1970: Int64
    /// The zone offset the date was written with, in seconds east of UTC; `nil` when it had none.
    /// Kept for display; equality and order use the instant only.
    public var timeZoneOffsetSeconds: Int32?

    /// The date `nanosecondsSince1970` nanoseconds after the epoch.
    public init(nanosecondsSince1970: Int64, timeZoneOffsetSeconds: Int32? = 0) {
        self.nanosecondsSince1970 = nanosecondsSince1970
        self.timeZoneOffsetSeconds = timeZoneOffsetSeconds
    }

    /// The date `seconds` after the epoch (exact when `seconds` has at most nine fractional digits).
    public init(secondsSince1970 seconds: MediaTime, timeZoneOffsetSeconds: Int32? = 0) {
        let nanos = seconds.converted(toTimescale: 1_000_000_000)?.value ?? 0
        self.init(nanosecondsSince1970: nanos, timeZoneOffsetSeconds: timeZoneOffsetSeconds)
    }

    /// Seconds since the epoch, exactly.
    public var secondsSince1970: MediaTime {
        MediaTime(value: nanosecondsSince1970, timescale: 1_000_000_000).reduced
    }

    /// Parses ISO 8601 text; `nil` when it is not a valid date.
    public init?(iso8601 text: some StringProtocol) {
        var text = String(text)
        guard let date = text.withUTF8({ PlaylistDate.parse($0, 0, $0.count) }) else { return nil }
        self = date
    }

    /// The exact time from `other` to this date (positive when this date is later).
    public func timeIntervalSince(_ other: PlaylistDate) -> MediaTime {
        MediaTime(value: nanosecondsSince1970 &- other.nanosecondsSince1970, timescale: 1_000_000_000).reduced
    }

    /// This date moved by `interval` (rounded to the nanosecond).
    public func adding(_ interval: MediaTime) -> PlaylistDate {
        let nanos = interval.converted(toTimescale: 1_000_000_000)?.value ?? 0
        return PlaylistDate(nanosecondsSince1970: nanosecondsSince1970 &+ nanos, timeZoneOffsetSeconds: timeZoneOffsetSeconds)
    }

    /// Same instant.
    public static func == (lhs: PlaylistDate, rhs: PlaylistDate) -> Bool {
        lhs.nanosecondsSince1970 == rhs.nanosecondsSince1970
    }

    /// Hashes the instant.
    public func hash(into hasher: inout Hasher) { hasher.combine(nanosecondsSince1970) }

    /// Earlier instant first.
    public static func < (lhs: PlaylistDate, rhs: PlaylistDate) -> Bool {
        lhs.nanosecondsSince1970 < rhs.nanosecondsSince1970
    }

    /// The canonical text: `YYYY-MM-DDThh:mm:ss.sssZ` in the original zone when one was given,
    /// with millisecond precision unless finer digits are needed.
    public var iso8601String: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        appendISO8601(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes ``iso8601String`` into `bytes` without making a `String` (the serializer writes one per
    /// dated segment).
    func appendISO8601(to bytes: inout [UInt8]) {
        let offset = Int64(timeZoneOffsetSeconds ?? 0)
        let local = nanosecondsSince1970 + offset * 1_000_000_000
        var seconds = local / 1_000_000_000
        var nanos = local % 1_000_000_000
        if nanos < 0 {
            nanos += 1_000_000_000
            seconds -= 1
        }
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let (year, month, day) = Self.civil(fromDays: days)
        func digits(_ value: Int64, _ width: Int) {
            if value < 0 {
                bytes.append(UInt8(ascii: "-"))
                digits(-value, width)
                return
            }
            var divisor: Int64 = 1
            var count = 1
            while value / divisor >= 10 {
                divisor *= 10
                count += 1
            }
            for _ in count..<max(count, width) { bytes.append(UInt8(ascii: "0")) }
            var rest = value
            while divisor > 0 {
                bytes.append(UInt8(48 + rest / divisor))
                rest %= divisor
                divisor /= 10
            }
        }
        digits(year, 4)
        bytes.append(UInt8(ascii: "-"))
        digits(month, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(day, 2)
        bytes.append(UInt8(ascii: "T"))
        digits(secondOfDay / 3600, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(secondOfDay / 60 % 60, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(secondOfDay % 60, 2)
        bytes.append(UInt8(ascii: "."))
        // Milliseconds at least; finer digits only when they are not zero.
        var fractionDigits = 9
        var fraction = nanos
        while fractionDigits > 3, fraction % 10 == 0 {
            fraction /= 10
            fractionDigits -= 1
        }
        digits(fraction, fractionDigits)
        if offset == 0 {
            bytes.append(UInt8(ascii: "Z"))
        } else {
            let magnitude = abs(offset)
            bytes.append(offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            digits(magnitude / 3600, 2)
            bytes.append(UInt8(ascii: ":"))
            digits(magnitude / 60 % 60, 2)
        }
    }

    /// Parses `bytes[start..<end]` as an ISO 8601 date-time: `YYYY-MM-DDThh:mm[:ss[.f…]][Z|±hh[:]mm]`.
    ///
    /// The playlist parser's hot path (a 24-hour DVR playlist has 43,200 of these): no allocation.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> PlaylistDate? {
        guard end - start >= 16, let base = bytes.baseAddress, let minute = localMinute(base + start) else { return nil }
        return parse(bytes, start + 16, end, localMinute: minute)
    }

    /// ``parse(_:_:_:)``, reusing the date and minute of the previous date parsed with `cache` when
    /// the first 16 bytes (`YYYY-MM-DDThh:mm`) are the same: in a playlist that dates every segment
    /// they change once a minute.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, cache: inout MinuteCache) -> PlaylistDate? {
        guard end - start >= 16, let base = bytes.baseAddress else { return nil }
        let prefix = UnsafeRawPointer(base + start)
        let first = prefix.loadUnaligned(as: UInt64.self)
        let second = prefix.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        if !cache.isValid || first != cache.first || second != cache.second {
            guard let minute = localMinute(base + start) else { return nil }
            cache = MinuteCache(first: first, second: second, localMinute: minute, isValid: true)
        }
        if let date = millisecondsInUTC(base + start + 16, count: end - start - 16, localMinute: cache.localMinute) { return date }
        return parse(bytes, start + 16, end, localMinute: cache.localMinute)
    }

    /// `:ss.sssZ` at `p`, the form most packagers write, checked and read as one word (XOR with the
    /// template leaves 0 in the separators and 0...9 in the digits); `nil` for any other text,
    /// which the general reader then reads or rejects.
    @inline(__always)
    private static func millisecondsInUTC(_ p: UnsafePointer<UInt8>, count: Int, localMinute: Int64) -> PlaylistDate? {
        guard count == 8 else { return nil }
        let template: StaticString = ":00.000Z"
        let x = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self) ^ UnsafeRawPointer(template.utf8Start).loadUnaligned(as: UInt64.self)
        let separators: UInt64 = 0xFF00_0000_FF00_00FF  // bytes 0, 3 and 7 (little-endian)
        guard x & separators == 0, (x &+ 0x7676_7676_7676_7676 | x) & 0x8080_8080_8080_8080 == 0 else { return nil }
        @inline(__always) func digit(_ index: Int) -> Int64 { Int64(truncatingIfNeeded: (x >> (8 * index)) & 0xFF) }
        let second = digit(1) * 10 + digit(2)
        let local = localMinute + second
        guard second <= 60, local > -9_000_000_000, local < 9_000_000_000 else { return nil }
        let nanos = (digit(4) * 100 + digit(5) * 10 + digit(6)) * 1_000_000
        return PlaylistDate(nanosecondsSince1970: local * 1_000_000_000 + nanos, timeZoneOffsetSeconds: 0)
    }

    /// The last date-and-minute prefix ``parse(_:_:_:cache:)`` read, as two words, and its value.
    struct MinuteCache {
        var first: UInt64 = 0
        var second: UInt64 = 0
        var localMinute: Int64 = 0
        var isValid = false
    }

    /// `YYYY-MM-DDThh:mm` at `p` (16 bytes) as seconds since 1970-01-01T00:00 in the date's own
    /// zone; `nil` unless every field is well formed and in range.
    @inline(__always)
    private static func localMinute(_ p: UnsafePointer<UInt8>) -> Int64? {
        @inline(__always) func digit(_ offset: Int) -> Int64 { Int64(p[offset] &- 48) }
        @inline(__always) func isDigit(_ offset: Int) -> Bool { p[offset] &- 48 < 10 }
        guard isDigit(0), isDigit(1), isDigit(2), isDigit(3), p[4] == UInt8(ascii: "-"), isDigit(5), isDigit(6),
            p[7] == UInt8(ascii: "-"), isDigit(8), isDigit(9), isDigit(11), isDigit(12), p[13] == UInt8(ascii: ":"),
            isDigit(14), isDigit(15)
        else { return nil }
        let separator = p[10]
        guard separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t") || separator == 0x20 else { return nil }
        let year = digit(0) * 1000 + digit(1) * 100 + digit(2) * 10 + digit(3)
        let month = digit(5) * 10 + digit(6)
        let day = digit(8) * 10 + digit(9)
        let hour = digit(11) * 10 + digit(12)
        let minute = digit(14) * 10 + digit(15)
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month), hour < 24, minute < 60
        else { return nil }
        return ((days(fromCivil: year, month, day) * 24 + hour) * 60 + minute) * 60
    }

    /// The rest of a date after its minute, `[:ss[.f…]][Z|±hh[:]mm]` in `bytes[index..<end]`.
    @inline(__always)
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, localMinute: Int64) -> PlaylistDate? {
        if let base = bytes.baseAddress, let date = millisecondsInUTC(base + start, count: end - start, localMinute: localMinute) {
            return date
        }
        var index = start
        var second: Int64 = 0
        var nanos: Int64 = 0
        if index < end, bytes[index] == UInt8(ascii: ":") {
            guard index + 2 < end, bytes[index + 1] &- 48 < 10, bytes[index + 2] &- 48 < 10 else { return nil }
            second = Int64(bytes[index + 1] &- 48) * 10 + Int64(bytes[index + 2] &- 48)
            index += 3
            if index < end, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") {
                index += 1
                // Digits past the ninth (below a nanosecond) are read and dropped.
                let fractionStart = index
                while index < end {
                    let value = bytes[index] &- 48
                    guard value < 10 else { break }
                    if index - fractionStart < 9 { nanos = nanos * 10 + Int64(value) }
                    index += 1
                }
                let fractionDigits = index - fractionStart
                guard fractionDigits > 0 else { return nil }
                for _ in min(fractionDigits, 9)..<9 { nanos *= 10 }
            }
        }
        var zone: Int32?
        if index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "Z") || byte == UInt8(ascii: "z") {
                zone = 0
                index += 1
            } else if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
                index += 1
                guard index + 2 <= end, bytes[index] &- 48 < 10, bytes[index + 1] &- 48 < 10 else { return nil }
                let zoneHours = Int64(bytes[index] &- 48) * 10 + Int64(bytes[index + 1] &- 48)
                index += 2
                if index < end, bytes[index] == UInt8(ascii: ":") { index += 1 }
                var zoneMinutes: Int64 = 0
                if index + 2 <= end, bytes[index] &- 48 < 10, bytes[index + 1] &- 48 < 10 {
                    zoneMinutes = Int64(bytes[index] &- 48) * 10 + Int64(bytes[index + 1] &- 48)
                    index += 2
                }
                guard zoneHours < 24, zoneMinutes < 60 else { return nil }
                let magnitude = Int32(zoneHours * 3600 + zoneMinutes * 60)
                zone = byte == UInt8(ascii: "-") ? -magnitude : magnitude
            }
        }
        guard index == end, second <= 60 else { return nil }
        let local = localMinute + second
        let utc = local - Int64(zone ?? 0)
        // Int64 nanoseconds reach 1677-09-21…2262-04-11; a date outside (in UTC, or in its own zone,
        // which iso8601String adds back) is not representable rather than an overflow trap. Seconds
        // well inside that span (every date of this millennium) need no wide arithmetic.
        let safeSeconds: Int64 = 9_000_000_000
        if utc > -safeSeconds, utc < safeSeconds, local > -safeSeconds, local < safeSeconds {
            return PlaylistDate(nanosecondsSince1970: utc * 1_000_000_000 + nanos, timeZoneOffsetSeconds: zone)
        }
        guard let instant = Int64(exactly: Int128(utc) * 1_000_000_000 + Int128(nanos)),
            Int64(exactly: Int128(local) * 1_000_000_000 + Int128(nanos)) != nil
        else { return nil }
        return PlaylistDate(nanosecondsSince1970: instant, timeZoneOffsetSeconds: zone)
    }

    private static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's algorithm).
    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01.
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension PlaylistDate: CustomStringConvertible {
    /// The ISO 8601 form.
    public var description: String { iso8601String }
}
