import HLSInterstitials
import MediaTime
import MPRIS
import PlayerEngine
import PlayerInterface
import Synchronization
import Testing
import VirtualTime

/// A ``Player`` on virtual time with an in-memory network, its published states fed to an
/// ``MPRISPlayerModel`` in order, and the model's player commands performed on it as the service
/// performs them; the signals it asks for are recorded with the host time of the state that
/// caused them.
private final class ModelRig {
    static let origin = "http://origin.test/"
    let clock = ManualClock()
    let executor = ManualTaskExecutor()
    let loader: MemoryResourceLoader<ManualClock>
    let player: Player
    var model: MPRISPlayerModel
    private(set) var signals: [(hostTime: Duration, action: MPRISPlayerModel.Action)] = []
    private(set) var next = 0
    private final class Published: Sendable {
        let states = Mutex<[PlayerState]>([])
    }
    private let published = Published()
    private var task: Task<Void, Never>?

    /// A VOD of `count` 4 s segments with `extra` DATERANGE lines, and a 10 s ad at `ads/a10.m3u8`,
    /// each load taking `latency`.
    init(count: Int = 10, extra: String = "", info: NowPlayingInfo = NowPlayingInfo(title: "Movie"),
         capabilities: MPRISPlayerModel.Capabilities = .init(), latency: Duration = .zero) {
        loader = MemoryResourceLoader(clock: clock, conditions: .init(latency: latency))
        player = Player(clock: clock, loader: loader, executor: executor)
        model = MPRISPlayerModel(info: info, capabilities: capabilities)
        var main = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z\n" + extra
        for index in 0..<count {
            main += "#EXTINF:4.0,\nseg-\(index).ts\n"
            loader.set(Self.origin + "seg-\(index).ts", [UInt8](repeating: 0, count: 1000))
        }
        loader.set(Self.origin + "main.m3u8", text: main + "#EXT-X-ENDLIST\n")
        loader.set(Self.origin + "ads/a10.m3u8", text: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:10.0,\na10-0.ts\n#EXT-X-ENDLIST\n")
        loader.set(Self.origin + "ads/a10-0.ts", [UInt8](repeating: 0, count: 1000))
        let states = player.states()
        let published = self.published
        task = Task(executorPreference: executor) {
            for await state in states { published.states.withLock { $0.append(state) } }
        }
        player.replaceCurrentItem(with: PlayerItem(url: Self.origin + "main.m3u8", primaryID: "P1"))
        drain()
    }

    deinit {
        task?.cancel()
        executor.runUntilIdle()
    }

    /// A DATERANGE interstitial at `seconds` into the VOD.
    static func interstitial(_ id: String, at seconds: Int, _ attributes: String = "X-ASSET-URI=\"ads/a10.m3u8\",X-RESUME-OFFSET=0") -> String {
        let date = "2026-01-01T00:00:\(seconds < 10 ? "0" : "")\(seconds).000Z"
        return "#EXT-X-DATERANGE:ID=\"\(id)\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"\(date)\",\(attributes)\n"
    }

    /// Runs virtual time for `duration`, then hands the model every state published meanwhile.
    func run(for duration: Duration) {
        VirtualTimeDriver(clock: clock, executor: executor).run(for: duration)
        drain()
    }

    /// Hands the model the player's state as read now, as if the player had published it (any
    /// input would: a load finishing, a command from elsewhere).
    func observe() {
        drain()
        let state = player.state
        perform(model.handle(.state(state)), at: state.hostTime)
    }

    /// What a client's `call` does now; its player commands are performed.
    @discardableResult
    func call(_ call: MPRISMethodCall) -> [MPRISPlayerModel.Action] {
        drain()
        let actions = model.handle(.call(call, current: player.state))
        perform(actions, at: player.hostTime)
        drain()
        return actions
    }

    /// The Seeked signals so far: host time and position in seconds.
    var seeks: [(hostTime: Duration, seconds: Double)] {
        signals.compactMap { signal in
            if case .seeked(let position) = signal.action { return (signal.hostTime, Double(position) / 1_000_000) }
            return nil
        }
    }

    /// The properties named in PropertiesChanged so far.
    var changes: [[MPRISPlayerProperty]] {
        signals.compactMap { signal in
            if case .propertiesChanged(let names) = signal.action { return names }
            return nil
        }
    }

    var position: Int64 { model.positionMicroseconds(of: player.state) }

    private func drain() {
        executor.runUntilIdle()
        let states = published.states.withLock { states in
            defer { states.removeAll() }
            return states
        }
        for state in states { perform(model.handle(.state(state)), at: state.hostTime) }
    }

    private func perform(_ actions: [MPRISPlayerModel.Action], at hostTime: Duration) {
        for action in actions {
            switch action {
            case .play(let rate), .setRate(let rate): player.setRate(rate)
            case .pause: player.pause()
            case .seek(let time): player.startSeek(to: time, integrated: true)
            case .next: next += 1
            case .previous: next -= 1
            case .quit: break
            case .propertiesChanged, .seeked: signals.append((hostTime, action))
            }
        }
    }
}

@Suite("MPRIS player model")
struct MPRISPlayerModelTests {
    @Test("metadata carries the app's title, artist, artwork and rating, the item's URL, and the integrated timeline's length once the item loads")
    func metadataFollowsTheItem() {
        let info = NowPlayingInfo(title: "Movie", artists: ["Alice"], album: "Films", artworkURL: "file:///art.png", contentRating: .mpaaPG13)
        let rig = ModelRig(extra: ModelRig.interstitial("mid", at: 8) + ModelRig.interstitial(
            "range", at: 20, "X-ASSET-URI=\"ads/a10.m3u8\",DURATION=10,X-RESUME-OFFSET=0,X-TIMELINE-OCCUPIES=\"RANGE\""), info: info,
            latency: .milliseconds(50))
        #expect(rig.model.properties.playbackStatus == .paused)
        #expect(rig.model.properties.canSeek == false)
        #expect(rig.model.properties.metadata.lengthMicroseconds == nil)
        rig.run(for: .seconds(1))
        let metadata = rig.model.properties.metadata
        // 40 s of primary content and the range break's 10 s (it resumes where it left primary);
        // the point break takes none.
        #expect(metadata.lengthMicroseconds == 50_000_000)
        #expect(metadata.entries == [
            .init("mpris:trackid", .objectPath("/org/interlude/track/1")),
            .init("mpris:length", .int64(50_000_000)),
            .init("xesam:title", .string("Movie")),
            .init("xesam:artist", .strings(["Alice"])),
            .init("xesam:album", .string("Films")),
            .init("mpris:artUrl", .string("file:///art.png")),
            .init("xesam:url", .string(ModelRig.origin + "main.m3u8")),
            .init("interlude:contentRating", .string("PG-13")),
            .init("interlude:isLive", .boolean(false)),
        ])
        #expect(rig.model.properties.canSeek)
        #expect(rig.changes.contains { $0.contains(.metadata) && $0.contains(.canSeek) })

        // New metadata from the app is announced.
        #expect(rig.model.handle(.info(NowPlayingInfo(title: "Another title"))) == [.propertiesChanged([.metadata])])
        #expect(rig.model.properties.metadata.title == "Another title")
        #expect(rig.model.properties.metadata.artists.isEmpty)
        #expect(rig.model.handle(.info(NowPlayingInfo(title: "Another title"))) == [], "nothing changed")
    }

    @Test("Play, Pause and PlayPause move the player's rate, and the status and Rate follow its state")
    func playAndPause() {
        let rig = ModelRig()
        #expect(rig.call(.play) == [.play(rate: 1)])
        rig.run(for: .seconds(2))
        #expect(rig.model.properties.playbackStatus == .playing)
        #expect(rig.player.state.rate == 1)
        #expect(rig.call(.pause) == [.pause])
        #expect(rig.model.properties.playbackStatus == .paused)
        // Pausing a paused player does nothing.
        #expect(rig.call(.pause) == [])
        #expect(rig.call(.playPause) == [.play(rate: 1)])
        #expect(rig.model.properties.playbackStatus == .playing)
        #expect(rig.call(.playPause) == [.pause])
        // From no item to Paused, then the four changes above.
        #expect(rig.changes.filter { $0.contains(.playbackStatus) }.count == 5)
    }

    @Test("Rate written while paused is kept for the next Play; while playing it changes the rate; 0 pauses; out of range is ignored")
    func rate() {
        let rig = ModelRig()
        rig.run(for: .seconds(1))
        #expect(rig.call(.setRate(1.5)) == [.propertiesChanged([.rate])])
        #expect(rig.player.state.rate == 0)
        #expect(rig.model.properties.rate == 1.5)
        #expect(rig.call(.play) == [.play(rate: 1.5)])
        #expect(rig.player.state.rate == 1.5)
        #expect(rig.call(.setRate(0.5)) == [.setRate(0.5)])
        #expect(rig.player.state.rate == 0.5)
        #expect(rig.call(.setRate(8)) == [])
        #expect(rig.call(.setRate(-1)) == [])
        #expect(rig.call(.setRate(.nan)) == [])
        #expect(rig.call(.setRate(0)) == [.pause])
        #expect(rig.model.properties.playbackStatus == .paused)
        #expect(rig.model.properties.rate == 0.5, "Rate is never zero; the status says paused")
    }

    @Test("SetPosition moves the player on the integrated timeline and Seeked tells clients, playing or paused")
    func setPositionSeeks() throws {
        let rig = ModelRig()
        rig.call(.play)
        rig.run(for: .seconds(3))
        #expect(rig.seeks.isEmpty, "playing at the rate asked for is no jump")
        let track = rig.model.properties.metadata.trackID
        #expect(rig.call(.setPosition(trackID: track, positionMicroseconds: 20_000_000)) == [.seek(toIntegratedTime: MediaTime(seconds: 20))])
        rig.run(for: .seconds(1))
        #expect(rig.seeks.map(\.seconds) == [20])
        #expect(rig.seeks.first?.hostTime == .seconds(3))
        #expect(rig.position == 21_000_000)

        rig.call(.pause)
        rig.call(.setPosition(trackID: track, positionMicroseconds: 4_500_000))
        rig.run(for: .seconds(1))
        #expect(rig.seeks.map(\.seconds) == [20, 4.5])
        #expect(rig.position == 4_500_000)
    }

    @Test("SetPosition is ignored with a stale track ID, a negative position or one past the end, as the MPRIS spec asks")
    func setPositionIgnored() {
        let rig = ModelRig()
        rig.run(for: .seconds(1))
        let track = rig.model.properties.metadata.trackID
        #expect(rig.call(.setPosition(trackID: "/org/interlude/track/0", positionMicroseconds: 10_000_000)) == [])
        #expect(rig.call(.setPosition(trackID: track, positionMicroseconds: -1)) == [])
        #expect(rig.call(.setPosition(trackID: track, positionMicroseconds: 40_000_001)) == [])
        #expect(rig.call(.setPosition(trackID: track, positionMicroseconds: 40_000_000)) == [.seek(toIntegratedTime: MediaTime(seconds: 40))])
    }

    @Test("Seek moves by an offset from the current position, stops at the start, and past the end acts as Next when the app has one")
    func seekByOffset() {
        let rig = ModelRig(capabilities: .init(canGoNext: true))
        rig.call(.play)
        rig.run(for: .seconds(10))
        #expect(rig.call(.seek(offsetMicroseconds: 5_000_000)) == [.seek(toIntegratedTime: MediaTime(seconds: 15))])
        #expect(rig.call(.seek(offsetMicroseconds: -60_000_000)) == [.seek(toIntegratedTime: .zero)])
        #expect(rig.call(.seek(offsetMicroseconds: .min)) == [.seek(toIntegratedTime: .zero)])
        #expect(rig.call(.seek(offsetMicroseconds: 100_000_000)) == [.next])
        #expect(rig.next == 1)

        let alone = ModelRig()
        alone.run(for: .seconds(1))
        #expect(alone.call(.seek(offsetMicroseconds: 100_000_000)) == [])
        #expect(alone.call(.next) == [])
        #expect(alone.call(.previous) == [])
        #expect(alone.call(.quit) == [])
        #expect(alone.model.properties.canGoNext == false)
    }

    @Test("a point break holds Position still while it plays, and one Seeked tells clients where primary resumed")
    func pointBreak() {
        let rig = ModelRig(extra: ModelRig.interstitial("mid", at: 8))
        rig.call(.play)
        rig.run(for: .seconds(12))
        rig.observe()
        // 8 s of primary, then 4 s into the 10 s break: the integrated timeline stands at 8 s.
        #expect(rig.player.state.currentEvent?.identifier == "mid")
        #expect(rig.position == 8_000_000)
        #expect(rig.model.properties.metadata.interstitialEventID == "mid")
        #expect(rig.model.properties.playbackStatus == .playing)
        #expect(rig.seeks.isEmpty)
        rig.run(for: .seconds(3))
        rig.observe()
        #expect(rig.seeks.isEmpty)
        rig.run(for: .seconds(7))
        #expect(rig.seeks.map(\.seconds) == [8])
        #expect(rig.seeks.first?.hostTime == .seconds(18))
        #expect(rig.position == 12_000_000)
        #expect(rig.model.properties.metadata.interstitialEventID == nil)
    }

    @Test("a break that fills time on the integrated timeline moves Position through it with no Seeked")
    func rangeBreak() {
        let rig = ModelRig(extra: ModelRig.interstitial("range", at: 8, "X-ASSET-URI=\"ads/a10.m3u8\",DURATION=10,X-TIMELINE-OCCUPIES=\"RANGE\""))
        rig.call(.play)
        rig.run(for: .seconds(12))
        #expect(rig.player.state.currentEvent?.identifier == "range")
        #expect(rig.position == 12_000_000)
        rig.run(for: .seconds(10))
        #expect(rig.position == 22_000_000)
        #expect(rig.seeks.isEmpty)
    }

    @Test("a SKIP-restricted break turns CanSeek off while it plays")
    func restrictedBreak() {
        let rig = ModelRig(extra: ModelRig.interstitial("mid", at: 8, "X-ASSET-URI=\"ads/a10.m3u8\",X-RESUME-OFFSET=0,X-RESTRICT=\"SKIP\""))
        rig.call(.play)
        rig.run(for: .seconds(4))
        #expect(rig.model.properties.canSeek)
        rig.run(for: .seconds(6))
        #expect(rig.model.properties.canSeek == false)
        #expect(rig.call(.seek(offsetMicroseconds: 1_000_000)) == [])
        rig.run(for: .seconds(10))
        #expect(rig.model.properties.canSeek)
    }

    @Test("Stop pauses and returns to the start with the status Stopped; Play then plays from the beginning")
    func stop() {
        let rig = ModelRig()
        rig.call(.play)
        rig.run(for: .seconds(6))
        #expect(rig.call(.stop) == [.pause, .seek(toIntegratedTime: .zero), .propertiesChanged([.playbackStatus])])
        rig.run(for: .seconds(1))
        #expect(rig.model.properties.playbackStatus == .stopped)
        #expect(rig.position == 0)
        #expect(rig.call(.stop) == [])
        #expect(rig.call(.play) == [.seek(toIntegratedTime: .zero), .play(rate: 1)])
        rig.run(for: .seconds(2))
        #expect(rig.model.properties.playbackStatus == .playing)
        #expect(rig.position == 2_000_000)
    }

    @Test("an item played to its end is Stopped, and Play starts it again from the beginning")
    func playedToEnd() {
        let rig = ModelRig(count: 2)
        rig.call(.play)
        rig.run(for: .seconds(10))
        #expect(rig.player.state.hasPlayedToEnd)
        #expect(rig.model.properties.playbackStatus == .stopped)
        #expect(rig.call(.play) == [.seek(toIntegratedTime: .zero), .play(rate: 1)])
        rig.run(for: .seconds(1))
        #expect(rig.model.properties.playbackStatus == .playing)
        #expect(rig.position == 1_000_000)
    }

    @Test("a new item gets a new track ID; a live item has no length and says it is live; a failed item is Stopped and cannot play")
    func itemChanges() {
        let rig = ModelRig()
        rig.run(for: .seconds(1))
        var state = rig.player.state
        var model = rig.model
        state.item = PlayerItem(url: ModelRig.origin + "live.m3u8")
        state.duration = .indefinite
        state.snapshot = nil
        #expect(model.handle(.state(state)) == [.propertiesChanged([.metadata, .canSeek])])
        #expect(model.properties.metadata.trackID == "/org/interlude/track/2")
        #expect(model.properties.metadata.lengthMicroseconds == nil)
        #expect(model.properties.metadata.isLive)
        #expect(model.properties.canSeek == false)

        state.itemStatus = .failed(PlayerError(kind: .load, url: nil, message: "gone"))
        #expect(model.handle(.state(state)) == [.propertiesChanged([.playbackStatus, .canPlay, .canPause])])
        #expect(model.properties.playbackStatus == .stopped)
        #expect(model.properties.canPlay == false)
        #expect(model.handle(.call(.play, current: state)) == [])

        state.item = nil
        _ = model.handle(.state(state))
        #expect(model.properties.metadata == .noTrack)
        #expect(model.properties.metadata.entries == [.init("mpris:trackid", .objectPath("/org/mpris/MediaPlayer2/TrackList/NoTrack"))])
        #expect(model.positionMicroseconds(of: state) == 0)
    }
}
