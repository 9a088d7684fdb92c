import GroupWire
import HLSInterstitials
import MediaTime
import PlayerEngine

/// The breaks of the viewer's stream as the page needs them to switch by itself: where each
/// leaves primary, how long it plays, its assets' URLs and durations, and where primary resumes.
/// Chromium plays HLS natively but reads no EXT-X-DATERANGE, so the schedule comes from the
/// bridge's player, which loads the playlists and asset lists.
public struct BrowserSchedule: Sendable, Hashable {
    /// One break.
    public struct Break: Sendable, Hashable {
        /// The event's identifier.
        public var id: String
        /// Where primary is left, on the primary timeline.
        public var start: MediaTime
        /// How long the break plays (the assets', capped by X-PLAYOUT-LIMIT); `nil` until known.
        public var duration: MediaTime?
        /// Where primary resumes after it.
        public var resumeTime: MediaTime
        /// The assets in play order, once known (its asset list resolved, or X-ASSET-URI).
        public var assets: [Asset]?

        /// A break.
        public init(id: String, start: MediaTime, duration: MediaTime?, resumeTime: MediaTime, assets: [Asset]?) {
            self.id = id
            self.start = start
            self.duration = duration
            self.resumeTime = resumeTime
            self.assets = assets
        }

        /// The asset playing `offset` into the break and the offset into it; `nil` past the
        /// break's end or while its assets are unknown.
        public func asset(at offset: MediaTime) -> (index: Int, offset: MediaTime)? {
            guard let assets, !assets.isEmpty, let duration, offset < duration else { return nil }
            var start = MediaTime.zero
            for (index, asset) in assets.enumerated() {
                if offset < start + asset.duration || index == assets.count - 1 { return (index, offset - start) }
                start += asset.duration
            }
            return nil
        }

        /// Where asset `index` starts in the break.
        public func offset(ofAsset index: Int) -> MediaTime {
            (assets ?? []).prefix(index).reduce(MediaTime.zero) { $0 + $1.duration }
        }
    }

    /// One asset of a break.
    public struct Asset: Sendable, Hashable {
        /// Its absolute URL (an HLS playlist the page plays in its ad `<video>`).
        public var url: String
        /// How long it plays.
        public var duration: MediaTime

        /// An asset.
        public init(url: String, duration: MediaTime) {
            self.url = url
            self.duration = duration
        }
    }

    /// The breaks, in schedule order.
    public var breaks: [Break]

    /// A schedule.
    public init(breaks: [Break]) { self.breaks = breaks }

    /// The break `id`.
    public func scheduledBreak(id: String) -> Break? { breaks.first { $0.id == id } }

    /// The schedule of `machine`'s current item: empty before its playlist is loaded. An asset
    /// whose duration the asset list does not give takes the rest of the break's.
    public init(machine: PlaybackMachine) {
        guard let schedule = machine.interstitialSchedule else {
            self.init(breaks: [])
            return
        }
        self.init(breaks: schedule.breaks.map { scheduled in
            let assets = scheduled.assets.map { assets in
                var remaining = scheduled.duration ?? .zero
                return assets.map { asset -> Asset in
                    let length = asset.duration ?? MediaTime.max(remaining, .zero)
                    remaining = remaining - length
                    return Asset(url: machine.assetURL(asset.uri, eventID: scheduled.id), duration: length)
                }
            }
            return Break(id: scheduled.id, start: scheduled.start, duration: scheduled.duration, resumeTime: scheduled.resumeTime, assets: assets)
        })
    }

    /// The `schedule` message (docs/browser-participant.md).
    public var wire: WireValue {
        .typed("schedule", .object([
            "breaks": .array(breaks.map { scheduled in
                var object: WireObject = ["id": .string(scheduled.id), "start": .double(scheduled.start.seconds)]
                object["duration"] = scheduled.duration.map { .double($0.seconds) } ?? .null
                object["resume"] = .double(scheduled.resumeTime.seconds)
                object["assets"] = scheduled.assets.map { assets in
                    .array(assets.map { .object(["url": .string($0.url), "duration": .double($0.duration.seconds)]) })
                } ?? .null
                return .object(object)
            }),
        ]))
    }
}
