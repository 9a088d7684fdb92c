import GroupCoordination
import GroupPlayback
import GroupWire
import HLSInterstitials
import MediaTime
import PlayerEngine

/// One participant on virtual time, driven as the shells drive it: a ``PlaybackMachine`` loading a
/// 10-minute movie from memory (50 ms a load) and a ``ParticipantDriver``, whose outputs are
/// carried out in order; what the player reports meanwhile reaches the driver once they all are,
/// and the driver is asked again while it is due.
struct DriverParticipantRig {
    static let url = "http://origin.test/movie/main.m3u8"
    /// The movie with a 12 s ad stitched in at 40 s (item time 40–52).
    static let stitchedURL = "http://origin.test/movie-stitched/main.m3u8"

    var now: Duration = .zero
    var machine: PlaybackMachine
    var driver: ParticipantDriver
    /// Everything the driver asked, in order.
    private(set) var outputs: [ParticipantDriver.Output] = []
    /// Everything the player reported, in order.
    private(set) var playerEvents: [PlayerEvent] = []
    private var loads: [(at: Duration, id: UInt64, result: Result<LoadedResource, LoadError>)] = []
    private var pending: [PlayerEvent] = []
    private var isApplying = false
    private var answeredProbes = 0

    init(configuration: ParticipantDriver.Configuration) {
        var player = PlayerConfiguration()
        player.checksSegmentDurations = false
        machine = PlaybackMachine(configuration: player)
        driver = ParticipantDriver(configuration: configuration, startingAt: .zero)
    }

    /// Gives the player the movie (or another of ``respond(to:)``'s playlists).
    mutating func load(url: String = Self.url) {
        feed(.setItems([PlayerItem(url: url, contentIdentifier: "movie")]))
    }

    /// Feeds the driver an input now, and carries out what it asks.
    mutating func step(_ input: (inout ParticipantDriver, PlaybackMachine, Duration) -> [ParticipantDriver.Output]) {
        let isOutermost = !isApplying
        isApplying = true
        apply(input(&driver, machine, now))
        var rounds = 0
        while rounds < 4, let deadline = driver.nextDeadline, deadline <= now {
            rounds += 1
            apply(driver.timerFired(player: machine, at: now))
        }
        guard isOutermost else { return }
        isApplying = false
        deliver()
    }

    /// Feeds the player an input now.
    mutating func feed(_ input: PlaybackMachine.Input) {
        for action in machine.handle(input, now: now) {
            switch action {
            case .load(let id, let request): loads.append((now + .milliseconds(50), id, Self.respond(to: request)))
            case .cancelLoad(let id): loads.removeAll { $0.id == id }
            case .event(let event):
                playerEvents.append(event)
                pending.append(event)
            }
        }
        if !isApplying { deliver() }
    }

    /// Runs virtual time to `end`: loads finish, the player wakes, the driver's deadlines fire.
    mutating func run(until end: Duration) {
        while true {
            let candidates = [loads.map(\.at).min(), machine.nextWake, driver.nextDeadline].compactMap { $0 }
            guard let next = candidates.min(), next <= end else { break }
            now = max(now, next)
            if let index = loads.firstIndex(where: { $0.at <= now }) {
                let load = loads.remove(at: index)
                feed(.loadFinished(id: load.id, result: load.result))
            } else if let wake = machine.nextWake, wake <= now {
                feed(.wake)
            } else {
                step { driver, player, now in driver.timerFired(player: player, at: now) }
            }
        }
        now = end
        feed(.wake)
    }

    /// Answers the driver's probes, in order, as the keeper of a group clock `offset` ahead would,
    /// each reply arriving `roundTrip` after its probe, until `isDone` (at most 20 replies).
    /// Returns how many it answered.
    @discardableResult
    mutating func answerProbes(
        roundTrip: Duration = .milliseconds(20), offset: Duration = .seconds(3600), until isDone: (Self) -> Bool
    ) -> Int {
        var answered = 0
        while !isDone(self), answered < 20 {
            let probes = outputs.compactMap { output -> ClockProbe? in
                if case .probe(let probe) = output { return probe }
                return nil
            }
            guard answeredProbes < probes.count else {
                run(until: driver.nextDeadline ?? now)
                continue
            }
            let probe = probes[answeredProbes]
            answeredProbes += 1
            answered += 1
            run(until: probe.clientSendTime + roundTrip)
            let serverTime = probe.clientSendTime + roundTrip / 2 + offset
            let reply = ClockProbeReply(answering: probe, receivedAt: serverTime, sentAt: serverTime)
            step { driver, player, now in driver.clockProbeReply(reply, player: player, at: now) }
        }
        return answered
    }

    private mutating func apply(_ outputs: [ParticipantDriver.Output]) {
        self.outputs += outputs
        for case .player(let command, _) in outputs {
            for input in command.machineInputs { feed(input) }
        }
    }

    private mutating func deliver() {
        isApplying = true
        defer { isApplying = false }
        while !pending.isEmpty {
            let events = pending
            pending.removeAll()
            for event in events { step { driver, player, now in driver.playerEvent(event, player: player, at: now) } }
        }
    }

    /// A VOD movie of 150 four-second segments; the stitched one has three of them, from 40 s,
    /// between CUE-OUT and CUE-IN.
    private static func respond(to request: ResourceRequest) -> Result<LoadedResource, LoadError> {
        guard request.url == url || request.url == stitchedURL else {
            return .success(LoadedResource(bytes: [UInt8](repeating: 0, count: 1000), url: request.url, elapsed: .milliseconds(50)))
        }
        var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        for index in 0..<150 {
            if request.url == stitchedURL, index == 10 { text += "#EXT-X-DISCONTINUITY\n#EXT-X-CUE-OUT:12\n" }
            if request.url == stitchedURL, index == 13 { text += "#EXT-X-DISCONTINUITY\n#EXT-X-CUE-IN\n" }
            text += "#EXTINF:4.0,\nseg-\(index).ts\n"
        }
        text += "#EXT-X-ENDLIST\n"
        return .success(LoadedResource(bytes: Array(text.utf8), url: request.url, elapsed: .milliseconds(50)))
    }
}

extension ParticipantDriver.Output {
    /// The player command, if this is one.
    var playerCommand: PlayerCoordinationBinding.PlayerCommand? {
        if case .player(let command, _) = self { return command }
        return nil
    }
}
