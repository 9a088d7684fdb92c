import GroupWire
import MediaTime

/// Where the page's video is, or should be: primary content at a primary time, or an asset of a
/// break at an offset into that asset (each asset is its own HLS stream in the ad `<video>`).
public enum BrowserPosition: Sendable, Hashable, CustomStringConvertible {
    /// Primary content at this primary time.
    case primary(MediaTime)
    /// Asset `index` of break `breakID`, `offset` into the asset.
    case asset(breakID: String, index: Int, offset: MediaTime)

    /// The fields of the position in a message: `primary`, or `break`, `asset` and `offset`.
    var wireFields: [(String, WireValue)] {
        switch self {
        case .primary(let time): [("primary", .double(time.seconds))]
        case .asset(let id, let index, let offset): [("break", .string(id)), ("asset", .integer(Int64(index))), ("offset", .double(offset.seconds))]
        }
    }

    /// How far `other` is from this position, when both are in the same stream (primary, or
    /// the same asset); `nil` across streams.
    public func distance(to other: BrowserPosition) -> MediaTime? {
        switch (self, other) {
        case (.primary(let a), .primary(let b)): return b - a
        case (.asset(let id, let index, let a), .asset(let otherID, let otherIndex, let b)) where id == otherID && index == otherIndex: return b - a
        default: return nil
        }
    }

    /// `42.125` or `mid-1#0+3.200`.
    public var description: String {
        switch self {
        case .primary(let time): "\(time.seconds)"
        case .asset(let id, let index, let offset): "\(id)#\(index)+\(offset.seconds)"
        }
    }
}

extension Duration {
    /// The duration in seconds, as the page's JavaScript numbers carry it.
    var browserSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// A duration from seconds read off the page (finite, checked by the decoder).
    init(browserSeconds seconds: Double) {
        let whole = seconds.rounded(.down)
        self = .seconds(Int64(whole)) + .nanoseconds(Int64(((seconds - whole) * 1e9).rounded()))
    }
}
