extension MediaTime {
    /// ⌊self ÷ unit⌋ for a positive `unit`: how many whole units fit (negative below zero).
    public func floorQuotient(dividingBy unit: MediaTime) -> Int64 {
        let numerator = Int128(value) * Int128(unit.timescale)
        let denominator = Int128(unit.value) * Int128(timescale)
        precondition(denominator > 0, "dividing by a time that is not positive")
        var quotient = numerator / denominator
        if numerator % denominator != 0, numerator < 0 { quotient -= 1 }
        return Int64(clamping: quotient)
    }

    /// ⌈self ÷ unit⌉ for a positive `unit`.
    public func ceilingQuotient(dividingBy unit: MediaTime) -> Int64 {
        let floor = floorQuotient(dividingBy: unit)
        return unit * floor == self ? floor : floor + 1
    }

    /// self ÷ unit when it is a whole number, else `nil`.
    public func exactQuotient(dividingBy unit: MediaTime) -> Int64? {
        let floor = floorQuotient(dividingBy: unit)
        return unit * floor == self ? floor : nil
    }

    /// The smallest whole number of seconds not below this time, as EXT-X-TARGETDURATION needs.
    public var ceilingSeconds: Int { Int(ceilingQuotient(dividingBy: MediaTime(seconds: 1))) }
}
