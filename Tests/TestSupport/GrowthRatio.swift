/// How much longer `work` takes on a large input than on a small one: the best of `runs` timings
/// of each, as a ratio. Linear work on 4× the input gives about 4; quadratic work about 16. The best
/// of several runs keeps a busy machine from inflating one timing; bounds on the ratio should stay
/// generous (a test asserts "well below quadratic", not a figure).
public func growthRatio(small: Int, large: Int, runs: Int = 3, _ work: (Int) throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    func best(_ size: Int) throws -> Duration {
        var fastest = Duration.seconds(Int64.max)
        for _ in 0..<runs {
            let elapsed = try clock.measure { try work(size) }
            fastest = min(fastest, elapsed)
        }
        return max(fastest, .microseconds(1))
    }
    // Once unmeasured, so that first-use costs (allocations, lazy globals) do not land on `small`.
    try work(small)
    let smallTime = try best(small)
    let largeTime = try best(large)
    return largeTime / smallTime
}
