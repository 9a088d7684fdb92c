/// Steele, Lea and Flood's SplitMix64: a seeded generator whose sequence is fixed by its seed.
///
/// The generator draws from it through its own ``next(below:)`` and ``shuffle(_:)`` rather than the
/// standard library's `Int.random(in:using:)` and `shuffle(using:)`, whose algorithms may change
/// between toolchains; the generated playlists stay byte-identical for a given seed.
struct SplitMix64 {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (Lemire's multiply-shift; the bias is below 2⁻³² for the bounds used
    /// here, which is irrelevant for test data).
    mutating func next(below bound: Int) -> Int {
        precondition(bound > 0, "the bound must be positive")
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// `true` with probability `numerator / denominator`.
    mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
        next(below: denominator) < numerator
    }

    /// One element of `choices`, uniformly.
    mutating func pick<Element>(_ choices: [Element]) -> Element {
        choices[next(below: choices.count)]
    }

    /// Fisher–Yates shuffle of `elements`.
    mutating func shuffle<Element>(_ elements: inout [Element]) {
        guard elements.count > 1 else { return }
        for index in stride(from: elements.count - 1, to: 0, by: -1) {
            elements.swapAt(index, next(below: index + 1))
        }
    }

    /// `count` random bytes as upper-case hexadecimal digits.
    mutating func hexadecimal(byteCount count: Int) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count * 2)
        for _ in 0..<count {
            let byte = Int(next() & 0xFF)
            bytes.append(digits[byte >> 4])
            bytes.append(digits[byte & 0xF])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
