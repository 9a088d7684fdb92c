import Foundation

/// Chooses a variant from measured throughput, with hysteresis so that a player does not flap
/// between variants (pure state machine: feed it measurements, ask it what to play).
///
/// Throughput is estimated with two exponentially weighted moving averages (a fast and a slow
/// one, weighted by bytes, as players commonly do) and the lower of the two is used, so a drop is
/// seen at once and a rise only once it lasts. The selector then:
/// - switches **down** as soon as the current variant's bandwidth exceeds `safety × estimate`;
/// - switches **up** only when the higher variant fits under `safety × estimate` with an extra
///   `upSwitchMargin`, for `samplesBeforeUpSwitch` consecutive measurements.
public struct VariantSelector: Sendable, Hashable {
    /// The variants' peak bandwidths in bits per second, ascending.
    public let bandwidths: [Int]
    /// The index of the variant in use.
    public private(set) var current: Int
    /// The fraction of the estimate a variant may use (default 0.8).
    public var safety: Double = 0.8
    /// How much more than needed the estimate must be to switch up (default 1.2).
    public var upSwitchMargin: Double = 1.2
    /// Consecutive measurements that must agree before switching up (default 3).
    public var samplesBeforeUpSwitch: Int = 3

    private var fast = MovingAverage(halfLifeBytes: 250_000)
    private var slow = MovingAverage(halfLifeBytes: 2_000_000)
    private var upVotes = 0

    /// A selector over `bandwidths` (any order), starting at `initial` (an index into the sorted
    /// list; by default the lowest variant).
    public init(bandwidths: [Int], initial: Int = 0) {
        precondition(!bandwidths.isEmpty, "a variant selector needs at least one variant")
        self.bandwidths = bandwidths.sorted()
        self.current = min(max(0, initial), bandwidths.count - 1)
    }

    /// The estimated throughput in bits per second, when any measurement has been made.
    public var estimate: Double? {
        guard let fastValue = fast.value, let slowValue = slow.value else { return nil }
        return min(fastValue, slowValue)
    }

    /// Records one download of `bytes` at `bitsPerSecond` and returns the variant to use next
    /// (its index).
    @discardableResult
    public mutating func record(bytes: Int, bitsPerSecond: Double) -> Int {
        guard bytes > 0, bitsPerSecond.isFinite, bitsPerSecond > 0 else { return current }
        fast.add(bitsPerSecond, weight: Double(bytes))
        slow.add(bitsPerSecond, weight: Double(bytes))
        guard let estimate else { return current }
        let budget = safety * estimate
        if Double(bandwidths[current]) > budget, current > 0 {
            // Down at once, to the best variant that fits (or the lowest).
            current = bandwidths.lastIndex { Double($0) <= budget } ?? 0
            upVotes = 0
        } else if current + 1 < bandwidths.count, Double(bandwidths[current + 1]) * upSwitchMargin <= budget {
            upVotes += 1
            if upVotes >= samplesBeforeUpSwitch {
                current = bandwidths.lastIndex { Double($0) * upSwitchMargin <= budget } ?? current
                upVotes = 0
            }
        } else {
            upVotes = 0
        }
        return current
    }

    /// Forces a variant (for example after a failover) and forgets pending up-switch votes.
    public mutating func select(_ index: Int) {
        current = min(max(0, index), bandwidths.count - 1)
        upVotes = 0
    }
}

/// An exponentially weighted moving average whose decay is measured in bytes, so that many small
/// downloads weigh as much as one large one.
struct MovingAverage: Sendable, Hashable {
    let halfLifeBytes: Double
    private var estimate = 0.0
    private var totalWeight = 0.0

    init(halfLifeBytes: Double) { self.halfLifeBytes = halfLifeBytes }

    var value: Double? { totalWeight > 0 ? estimate / (1 - pow2(-totalWeight / halfLifeBytes)) : nil }

    mutating func add(_ sample: Double, weight: Double) {
        let alpha = pow2(-weight / halfLifeBytes)
        estimate = alpha * estimate + (1 - alpha) * sample
        totalWeight += weight
    }

    private func pow2(_ exponent: Double) -> Double { exp2(exponent) }
}
