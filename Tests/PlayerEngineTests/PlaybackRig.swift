import HLSInterstitials
import MediaTime
import PlayerEngine
import Synchronization
import VirtualTime

/// A player on virtual time with an in-memory network, recording every event as a trace line.
final class PlaybackRig: Sendable {
    let clock = ManualClock()
    let executor = ManualTaskExecutor()
    let loader: MemoryResourceLoader<ManualClock>
    let player: Player
    private let recorded = EventLog()

    init(configuration: PlayerConfiguration = PlayerConfiguration(), conditions: MemoryResourceLoader<ManualClock>.Conditions = .init(latency: .milliseconds(50))) {
        loader = MemoryResourceLoader(clock: clock, conditions: conditions)
        player = Player(clock: clock, loader: loader, configuration: configuration, executor: executor)
        let recorded = self.recorded
        player.addEventHandler { event in recorded.append(event) }
    }

    var events: [PlayerEvent] { recorded.events }

    /// The trace, without load events unless asked for.
    func trace(includingLoads: Bool = false) -> [String] {
        events.filter { event in
            switch event.kind {
            case .loaded, .loadFailed: return includingLoads
            default: return true
            }
        }.map(\.traceLine)
    }

    /// Serves a media playlist text at `url`, and a tiny body for each of its segment URIs.
    func serve(_ url: String, _ text: String) { loader.set(url, text: text) }

    func serveSegments(_ urls: [String], bytes: Int = 1000) {
        for url in urls { loader.set(url, [UInt8](repeating: 0, count: bytes)) }
    }

    /// Runs virtual time until the item plays to its end (or fails) or `limit` passes.
    @discardableResult
    func runToEnd(limit: Duration = .seconds(20_000)) -> Bool {
        VirtualTimeDriver(clock: clock, executor: executor).run(until: { self.isOver }, limit: ManualClock.Instant(offset: limit))
    }

    func run(for duration: Duration) {
        VirtualTimeDriver(clock: clock, executor: executor).run(for: duration)
    }

    var isOver: Bool {
        events.contains { event in
            switch event.kind {
            case .playedToEnd: return true
            case .itemStatusChanged(.failed): return true
            default: return false
            }
        }
    }
}

/// A VOD media playlist of `count` segments of `duration` seconds, `seg-N.ts`, with extra lines
/// (DATERANGEs) after the header.
func vodPlaylist(count: Int, duration: Int = 4, extra: String = "", base: String = "") -> String {
    var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:\(duration)\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z\n"
    text += extra
    for index in 0..<count { text += "#EXTINF:\(duration).0,\n\(base)seg-\(index).ts\n" }
    return text + "#EXT-X-ENDLIST\n"
}

/// Events recorded from any thread.
final class EventLog: Sendable {
    private let storage = Mutex<[PlayerEvent]>([])
    func append(_ event: PlayerEvent) { storage.withLock { $0.append(event) } }
    var events: [PlayerEvent] { storage.withLock { $0 } }
}
