import GroupCoordination
import GroupPlayback
import GroupPlaybackTesting
import GroupWire
import HLSInterstitials
import MediaTime
import PlayerEngine
import Synchronization
import VirtualTime

/// Real ``Player``s with ``PlayerPlaybackCoordinator``s on one virtual clock (each host clock
/// drifting from it as asked), each loading its own playlists from its own in-memory origin,
/// connected through an ``InMemoryGroupNetwork`` with a ``GroupClockServer`` (peer 0) whose group
/// clock is an hour ahead of every host clock.
final class ShellGroupRig: Sendable {
    static let origin = "http://origin.test/"

    final class Member: Sendable {
        let name: String
        let peer: PeerID
        let loader: MemoryResourceLoader<ManualClock>
        let player: Player
        let coordinator: PlayerPlaybackCoordinator
        private let log = Mutex<[(time: Duration, event: PlayerPlaybackCoordinator.Event)]>([])
        private let playerLog = Mutex<[PlayerEvent]>([])

        init(name: String, peer: PeerID, loader: MemoryResourceLoader<ManualClock>, player: Player, coordinator: PlayerPlaybackCoordinator) {
            self.name = name
            self.peer = peer
            self.loader = loader
            self.player = player
            self.coordinator = coordinator
        }

        func record(_ event: PlayerPlaybackCoordinator.Event) { log.withLock { $0.append((player.hostTime, event)) } }
        func record(_ event: PlayerEvent) { playerLog.withLock { $0.append(event) } }

        /// The coordinator's events so far, with their host times.
        var events: [(time: Duration, event: PlayerPlaybackCoordinator.Event)] { log.withLock { $0 } }
        /// The player's events so far.
        var playerEvents: [PlayerEvent] { playerLog.withLock { $0 } }

        /// The commands the coordinator applied to the player, with their originators.
        var commands: [(time: Duration, command: PlayerCoordinationBinding.PlayerCommand, originator: CoordinatedPlaybackParticipant.ID?)] {
            events.compactMap { entry in
                if case .playerCommand(let command, let originator) = entry.event { return (entry.time, command, originator) }
                return nil
            }
        }

        /// Every list of local suspension reasons the coordinator reported, in order.
        var suspensionHistory: [[CoordinatedPlaybackSuspension.Reason]] {
            events.compactMap { entry in
                if case .coordinator(.suspensionReasonsChanged(let reasons)) = entry.event { return reasons }
                return nil
            }
        }

        /// The primary item time now.
        var time: MediaTime { player.currentTime }
        var seconds: Double { player.currentTime.seconds }
    }

    let clock = ManualClock()
    let executor = ManualTaskExecutor()
    let network: InMemoryGroupNetwork
    let server: GroupClockServer
    let members: [Member]
    private let tasks = Mutex<[Task<Void, Never>]>([])

    /// Members named `names` (peers 1, 2, …), each serving its own streams with `serve`.
    init(
        _ names: [String],
        conditions: LinkConditions = .wideAreaNetwork,
        seed: UInt64 = 1,
        player playerConfiguration: PlayerConfiguration = ShellGroupRig.playerConfiguration,
        clocks: [String: DriftingClock] = [:],
        configure: (String, inout PlayerPlaybackCoordinator.Configuration) -> Void = { _, _ in },
        serve: (String, MemoryResourceLoader<ManualClock>) -> Void = { _, loader in ShellGroupRig.serveMovie(loader) }
    ) {
        let clock = self.clock, executor = self.executor
        network = InMemoryGroupNetwork(clock: clock, seed: seed, defaultConditions: conditions, executor: executor)
        server = GroupClockServer(transport: network.join(as: 0), clock: clock, offset: .seconds(3600))
        let peers = names.indices.map { PeerID(rawValue: UInt32($0 + 1)) }
        var members: [Member] = []
        for (index, name) in names.enumerated() {
            let loader = MemoryResourceLoader(clock: clock, conditions: .init(latency: .milliseconds(50)))
            serve(name, loader)
            // Each host clock drifts as asked against true time (the shared manual clock).
            let hostClock = DriftingManualClock(base: clock, drift: clocks[name] ?? .perfect)
            let player = Player(clock: hostClock, loader: loader, configuration: playerConfiguration, executor: executor)
            var configuration = PlayerPlaybackCoordinator.Configuration(participant: .init(rawValue: name), clockServer: 0, peers: peers)
            configure(name, &configuration)
            let coordinator = PlayerPlaybackCoordinator(
                player: player, transport: network.join(as: peers[index]), clock: hostClock, configuration: configuration)
            members.append(Member(name: name, peer: peers[index], loader: loader, player: player, coordinator: coordinator))
        }
        self.members = members
    }

    static var playerConfiguration: PlayerConfiguration {
        var configuration = PlayerConfiguration()
        configuration.checksSegmentDurations = false
        return configuration
    }

    subscript(name: String) -> Member { members.first { $0.name == name }! }

    /// Starts the clock server and every coordinator, and records their events.
    func start() {
        var started: [Task<Void, Never>] = [Task(executorPreference: executor) { [server] in await server.run() }]
        for member in members {
            let events = member.coordinator.events()
            started.append(Task(executorPreference: executor) { for await event in events { member.record(event) } })
            member.player.addEventHandler { event in member.record(event) }
            started.append(Task(executorPreference: executor) { [coordinator = member.coordinator] in await coordinator.run() })
        }
        tasks.withLock { $0 += started }
        executor.runUntilIdle()
    }

    /// Every member loads the movie (the same content whatever each one's URL).
    func load(_ names: [String]? = nil) {
        for member in members where names?.contains(member.name) ?? true {
            member.player.replaceCurrentItem(with: PlayerItem(url: Self.origin + "\(member.name)/main.m3u8", contentIdentifier: "movie"))
        }
        executor.runUntilIdle()
    }

    /// Runs virtual time until `seconds` after the start.
    func run(until seconds: Double) {
        VirtualTimeDriver(clock: clock, executor: executor).run(until: ManualClock.Instant(offset: .seconds(seconds)))
    }

    var now: Double { Double(clock.now.offset.components.seconds) + Double(clock.now.offset.components.attoseconds) * 1e-18 }

    /// The differences between the members' primary times, in milliseconds, sampled every `step`
    /// seconds from now until `end`, among `names` (all by default).
    func skews(until end: Double, step: Double = 0.05, among names: [String]? = nil) -> [Double] {
        let chosen = members.filter { names?.contains($0.name) ?? true }
        var skews: [Double] = []
        var time = now
        while time < end - 1e-9 {
            time += step
            run(until: time)
            let seconds = chosen.map(\.seconds)
            skews.append((seconds.max()! - seconds.min()!) * 1000)
        }
        return skews
    }

    /// The largest of ``skews(until:step:among:)``.
    func maximumSkew(until end: Double, step: Double = 0.05, among names: [String]? = nil) -> Double {
        skews(until: end, step: step, among: names).max() ?? 0
    }

    /// The skew between the members' primary times now, in milliseconds.
    var skew: Double {
        let seconds = members.map(\.seconds)
        return (seconds.max()! - seconds.min()!) * 1000
    }

    /// Cancels every task and lets them finish.
    func stop() {
        for task in tasks.withLock({ $0 }) { task.cancel() }
        executor.runUntilIdle()
    }

    // MARK: Streams

    /// A VOD media playlist of `count` 4-second segments with `extra` lines after the header.
    static func vodPlaylist(count: Int, duration: Int = 4, extra: String = "", base: String = "") -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:\(duration)\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z\n"
        text += extra
        for index in 0..<count { text += "#EXTINF:\(duration).0,\n\(base)seg-\(index).ts\n" }
        return text + "#EXT-X-ENDLIST\n"
    }

    /// Serves a 10-minute movie at `<origin>/<any name>/main.m3u8`, with `extra` lines (DATERANGEs).
    static func serveMovie(_ loader: MemoryResourceLoader<ManualClock>, extra: String = "") {
        let playlist = vodPlaylist(count: 150, extra: extra)
        let segment = [UInt8](repeating: 0, count: 1000)
        for name in ["alice", "bob", "carol"] {
            loader.set(origin + "\(name)/main.m3u8", text: playlist)
            for index in 0..<150 { loader.set(origin + "\(name)/seg-\(index).ts", segment) }
        }
    }

    /// A DATERANGE interstitial at `seconds` into the movie, playing `ads/<asset>.m3u8`.
    static func interstitial(_ id: String, at seconds: Int, asset: String, duration: Int? = nil) -> String {
        let minutes = seconds / 60, rest = seconds % 60
        let date = "2026-01-01T00:\(minutes < 10 ? "0" : "")\(minutes):\(rest < 10 ? "0" : "")\(rest).000Z"
        let declared = duration.map { ",DURATION=\($0).0" } ?? ""
        return "#EXT-X-DATERANGE:ID=\"\(id)\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"\(date)\",X-ASSET-URI=\"\(origin)ads/\(asset).m3u8\"\(declared)\n"
    }

    /// Serves an ad of one segment of `seconds` at `ads/<name>.m3u8`.
    static func serveAd(_ loader: MemoryResourceLoader<ManualClock>, _ name: String, seconds: Int) {
        loader.set(origin + "ads/\(name).m3u8", text: vodPlaylist(count: 1, duration: seconds, base: "\(name)-"))
        loader.set(origin + "ads/\(name)-seg-0.ts", [UInt8](repeating: 0, count: 1000))
    }
}
