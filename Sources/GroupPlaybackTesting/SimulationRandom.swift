import GroupWire
/// SplitMix64 (Steele, Lea and Flood, 2014): the simulator's deterministic random numbers, so that a
/// seed fixes every jitter, loss and drift of a run on every machine.
public struct SimulationRandom: RandomNumberGenerator, Sendable, Hashable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    /// An independent stream for a part of the simulation (a link, a participant), fixed by the
    /// seed and the part's numbers, so that adding a part does not change the others' draws.
    public init(seed: UInt64, stream: UInt64, _ substream: UInt64 = 0) {
        var mixer = SimulationRandom(seed: seed ^ 0x5851_F42D_4C95_7F2D)
        var streamMixer = SimulationRandom(seed: mixer.next() ^ (stream &* 0x9E37_79B9_7F4A_7C15))
        state = streamMixer.next() ^ (substream &* 0xC2B2_AE3D_27D4_EB4F)
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in `0 ..< 1` (53 random bits).
    public mutating func nextUnit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// `true` with probability `probability`. Always draws, so that streams stay aligned.
    public mutating func chance(_ probability: Double) -> Bool { nextUnit() < probability }

    /// A whole number of nanoseconds uniform in `-spread ... spread` (nanosecond resolution).
    public mutating func nanoseconds(within spread: Duration) -> Duration {
        let limit = spread.attoseconds / 1_000_000_000
        guard limit > 0 else {
            _ = next()
            return .zero
        }
        let width = UInt64(clamping: limit * 2 + 1)
        return .nanoseconds(Int64(next() % width) - Int64(limit))
    }
}
