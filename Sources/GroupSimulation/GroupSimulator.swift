import GroupCoordination
import GroupPlayback
import GroupPlaybackTesting
import GroupWire
import HLSInterstitials
import HLSPlaylist
import MediaTime
import PlayerEngine
import StreamOrigin

/// Runs a group of participants on virtual time: each has the real player engine
/// (``PlaybackMachine``) loading its own playlists and asset lists from an in-process origin (its
/// own ads), the real participant driver (``ParticipantDriver``: the coordinator bound to the
/// player, the group-clock estimate, the observations and deadlines, as real participants run
/// it), a drifting local clock synchronised with the group clock by NTP-style exchanges, and
/// reliable channels to the others over a simulated network with latency, jitter, loss and
/// partitions. Everything is a discrete-event simulation: no threads, no sleeping, exactly
/// repeatable from the scenario's seed.
///
/// The simulator is a shell like ``PlayerPlaybackCoordinator``: it carries out the driver's
/// outputs in order, and hands the driver what the player reported while it did so once they are
/// all carried out, as the player's event stream does for the real shell.
///
/// Not copyable: it holds its participants by reference (they are reached at every event), so a
/// copy would share them; make one simulator per run.
public struct GroupSimulator: ~Copyable {
    /// What happens next. The frequent small events (observations, timers) are held inline; the
    /// large ones in a box, so that the queue's slots stay small.
    enum Event {
        case join(Int)
        case playerWake(Int)
        case driverWake(Int)
        indirect case loaded(Int, id: UInt64, result: Result<LoadedResource, LoadError>, item: Int)
        indirect case frame(to: Int, from: Int, ReliableFrame<CoordinationMessage>)
        case channelTick(Int, peer: Int)
        indirect case probeAtServer(Int, ClockProbe)
        indirect case probeReply(Int, ClockProbeReply)
        case sample
        case action(Int)
    }

    /// One participant's whole state. A class: the simulator reaches into it at every event, and a
    /// reference costs one retain where an array of structs would copy the player and driver out
    /// and back.
    final class Participant {
        let spec: SimulationScenario.Participant
        let name: String
        let id: CoordinatedPlaybackParticipant.ID
        let peer: PeerID
        let url: String
        let clock: DriftingClock
        var machine: PlaybackMachine
        var driver: ParticipantDriver
        /// The reliable channel to each other participant, by index (made at the first message).
        var channels: [ReliableChannel<CoordinationMessage>?]
        /// Each channel's timer and when it fires.
        var channelTimers: [(id: SimulationScheduler<Event>.EventID, at: Duration)?]
        var playerTimer: (id: SimulationScheduler<Event>.EventID, at: Duration)?
        var driverTimer: (id: SimulationScheduler<Event>.EventID, at: Duration)?
        /// What the player reported while the driver's outputs were carried out, for the driver
        /// once they all are.
        var pendingEvents: [PlayerEvent] = []
        /// Whether the driver's outputs are being carried out, or the player's events handed to
        /// it (what the player reports meanwhile waits its turn).
        var isApplying = false
        var hasLeft = false
        var itemGeneration = 0
        var stats = ParticipantStatistics()
        /// Where primary resumed after the break that ended at this true time: until the player
        /// settles there, its clock can still read the primary time it kept counting through a
        /// break at item time 0, so a re-alignment at that instant is measured from here.
        /// `passed` is the primary the resumption offset went over, counted as skipped.
        var resumedAfterBreak: (trueTime: Duration, itemTime: MediaTime, passed: MediaTime)?

        init(spec: SimulationScenario.Participant, peer: PeerID, url: String, clock: DriftingClock, machine: PlaybackMachine,
             driver: ParticipantDriver, groupSize: Int)
        {
            self.spec = spec
            name = spec.name
            id = CoordinatedPlaybackParticipant.ID(rawValue: spec.name)
            self.peer = peer
            self.url = url
            self.clock = clock
            self.machine = machine
            self.driver = driver
            channels = Array(repeating: nil, count: groupSize)
            channelTimers = Array(repeating: nil, count: groupSize)
        }

        /// Whether the participant is in the group's session: joined, and not left.
        var isConnected: Bool { !hasLeft && inPlace { _, driver in driver.isJoined } }

        /// Whether its player's item is coordinated.
        var hasStartedItem: Bool { inPlace { _, driver in driver.hasStartedItem } }

        /// When the driver is next due, on the participant's clock.
        var nextDeadline: Duration? { inPlace { _, driver in driver.nextDeadline } }

        private var lastLocalTime: (trueTime: Duration, localTime: Duration)?

        /// The participant's clock reading at a true time; the last one is kept, as an event asks
        /// for it several times.
        func localTime(atTrueTime trueTime: Duration) -> Duration {
            if let last = lastLocalTime, last.trueTime == trueTime { return last.localTime }
            let local = clock.localTime(atTrueTime: trueTime)
            lastLocalTime = (trueTime, local)
            return local
        }

        /// `body` with the channel to `peer`, made at the first use, in place.
        func withChannel<T>(to peer: Int, configuration: ReliableChannel<CoordinationMessage>.Configuration,
                            _ body: (inout ReliableChannel<CoordinationMessage>) -> T) -> T
        {
            if channels[peer] == nil { channels[peer] = ReliableChannel(configuration: configuration) }
            return body(&channels[peer]!)
        }

        /// `body` with the player and its driver in place. Reading a struct stored in a class
        /// copies it whole (every array and dictionary in it retained and released); an inout
        /// access does not, and the simulator reads both at nearly every event.
        func inPlace<T>(_ body: (inout PlaybackMachine, inout ParticipantDriver) -> T) -> T { body(&machine, &driver) }
    }

    struct ParticipantStatistics {
        var waited: Duration = .zero
        var inBreaks: Duration = .zero
        var skipped = MediaTime.zero
        var rewound = MediaTime.zero
        var stalls = 0
        var joinedAt: Duration?
        /// Each wait for the group: when it began (true time) and how long it lasted.
        var waits: [(start: Duration, length: Duration, told: MediaTime?)] = []
        var series: [(time: Duration, coordinated: Double, state: SeriesState)] = []
    }

    enum SeriesState: String { case playing, waiting, inBreak, paused }

    /// The scenario.
    public let scenario: SimulationScenario
    let origin: Origin
    let originBase = "http://origin.sim"
    var scheduler = SimulationScheduler<Event>()
    var network: SimulatedNetwork
    var participants: [Participant] = []
    let serverPeer: PeerID
    let sampleInterval: Duration
    let observeInterval: Duration
    var skew = SkewStatistics()
    var notes: [SimulationReport.Note] = []
    var lastAnchor: Duration?
    var seekCounter = 0
    /// Acknowledgements go out at once: a delayed one costs a timer per message, and in a
    /// simulated group nothing flows back to piggyback on.
    let channelConfiguration: ReliableChannel<CoordinationMessage>.Configuration = {
        var configuration = ReliableChannel<CoordinationMessage>.Configuration()
        configuration.acknowledgementDelay = .zero
        return configuration
    }()
    /// Receives one line per player event, coordinator output and message, when set (for
    /// `interlude simulate --trace`).
    public var trace: ((String) -> Void)?

    /// A simulation of `scenario` against `origin` (its streams and per-viewer ads).
    public init(scenario: SimulationScenario, origin: Origin) {
        self.scenario = scenario
        self.origin = origin
        let seed = scenario.seed ?? 1
        network = SimulatedNetwork(seed: seed, defaultConditions: scenario.network?.conditions ?? LinkConditions(latency: .milliseconds(20)))
        serverPeer = PeerID(rawValue: UInt32(scenario.participants.count))
        let first = scenario.participants.first
        itemIdentifier = "\(first?.kind ?? "vod")/\(first?.stream ?? "movie")"
        sampleInterval = scenario.sampleInterval?.duration ?? .milliseconds(100)
        observeInterval = scenario.observeInterval?.duration ?? .seconds(1)
        var clockConfiguration = GroupClockEstimator.Configuration()
        clockConfiguration.refreshInterval = scenario.clockRefreshInterval?.duration ?? .seconds(5)
        for (index, spec) in scenario.participants.enumerated() {
            let peer = PeerID(rawValue: UInt32(index))
            let ppb = Int64(((spec.clock?.driftPPM ?? 0) * 1000).rounded())
            let clock = DriftingClock(offset: spec.clock?.offset?.duration ?? .zero, driftPartsPerBillion: ppb)
            network.setClock(clock, for: peer)
            if let conditions = spec.network?.conditions {
                for other in 0...scenario.participants.count where other != index {
                    network.setConditions(conditions, between: peer, and: PeerID(rawValue: UInt32(other)))
                }
            }
            var configuration = PlayerConfiguration()
            configuration.checksSegmentDurations = false
            var driverConfiguration = ParticipantDriver.Configuration(participant: CoordinatedPlaybackParticipant.ID(rawValue: spec.name))
            driverConfiguration.observationInterval = observeInterval
            driverConfiguration.clockEstimator = clockConfiguration
            let identifier = itemIdentifier
            var driver = ParticipantDriver(
                configuration: driverConfiguration, startingAt: clock.localTime(atTrueTime: spec.joinAt?.duration ?? .zero),
                itemIdentifier: { _ in identifier })
            let policy = scenario.policy
            driver.configure { coordinator in
                if let reasons = policy?.waitFor {
                    coordinator.suspensionReasonsThatTriggerWaiting = reasons.map { CoordinatedPlaybackSuspension.Reason(rawValue: $0) }
                }
                for (reason, limit) in policy?.participantLimits ?? [:] {
                    coordinator.setParticipantLimit(limit, forWaitingOutSuspensionsWithReason: CoordinatedPlaybackSuspension.Reason(rawValue: reason))
                }
                if let snaps = policy?.pauseSnapsToOriginator { coordinator.pauseSnapsToMediaTimeOfOriginator = snaps }
            }
            let kind = spec.kind ?? "vod"
            let url = "\(originBase)/\(kind)/\(spec.stream ?? "movie")/\(spec.viewer ?? spec.name)/main.m3u8"
            participants.append(Participant(
                spec: spec, peer: peer, url: url, clock: clock, machine: PlaybackMachine(configuration: configuration), driver: driver,
                groupSize: scenario.participants.count))
        }
        for partition in scenario.network?.partitions ?? [] {
            guard let index = scenario.participants.firstIndex(where: { $0.name == partition.participant }) else { continue }
            network.addPartition(Partition(isolating: [PeerID(rawValue: UInt32(index))], from: partition.from.duration, until: partition.until.duration))
        }
    }

    // MARK: Running

    /// Runs the whole scenario and reports.
    public mutating func run() -> SimulationReport {
        for index in participants.indices {
            scheduler.schedule(.join(index), at: participants[index].spec.joinAt?.duration ?? .zero)
        }
        for (index, action) in (scenario.actions ?? []).enumerated() {
            scheduler.schedule(.action(index), at: action.at.duration)
        }
        scheduler.schedule(.sample, at: sampleInterval)
        let end = scenario.duration.duration
        while let next = scheduler.nextEventTime, !(end < next) {
            guard let (_, event) = scheduler.next() else { break }
            handle(event)
        }
        return report(until: end)
    }

    var now: Duration { scheduler.now }

    func localTime(_ index: Int) -> Duration { participants[index].localTime(atTrueTime: now) }

    mutating func handle(_ event: Event) {
        switch event {
        case .join(let index):
            participants[index].hasLeft = false
            participants[index].stats.joinedAt = participants[index].stats.joinedAt ?? now
            step(index) { machine, driver, local in driver.connect(player: machine, at: local) }
        case .probeAtServer(let index, let probe):
            // The group clock is true time.
            let reply = ClockProbeReply(answering: probe, receivedAt: now, sentAt: now)
            network.send(Event.probeReply(index, reply), from: serverPeer, to: participants[index].peer, on: &scheduler)
        case .probeReply(let index, let reply):
            step(index) { machine, driver, local in driver.clockProbeReply(reply, player: machine, at: local) }
        case .playerWake(let index):
            participants[index].playerTimer = nil
            feed(index, .wake)
        case .driverWake(let index):
            participants[index].driverTimer = nil
            step(index) { machine, driver, local in driver.timerFired(player: machine, at: local) }
        case .loaded(let index, let id, let result, let item):
            guard item == participants[index].itemGeneration else { return }
            feed(index, .loadFinished(id: id, result: result))
        case .frame(let to, let from, let frame):
            guard !participants[to].hasLeft else { return }
            let local = localTime(to)
            let output = participants[to].withChannel(to: from, configuration: channelConfiguration) { $0.receive(frame, at: local) }
            transmit(output.frames, from: to, to: from)
            scheduleChannelTick(to, peer: from)
            // A frame that only acknowledges changes nothing but the channel.
            guard !output.delivered.isEmpty else { return }
            let sender = participants[from].id
            step(to) { _, driver, local in
                output.delivered.flatMap { driver.receive($0, from: sender, at: local) }
            }
        case .channelTick(let index, let peer):
            let participant = participants[index]
            participant.channelTimers[peer] = nil
            guard participant.channels[peer] != nil else { return }
            let output = participant.channels[peer]!.tick(at: localTime(index))
            transmit(output.frames, from: index, to: peer)
            scheduleChannelTick(index, peer: peer)
        case .sample:
            sample()
            scheduler.schedule(.sample, after: sampleInterval)
        case .action(let number):
            perform(scenario.actions![number])
        }
    }

    /// Feeds the participant's driver one input (with its player and its clock's reading now) and
    /// carries out what it asks, then what fell due meanwhile (an observation the driver leaves for
    /// after its commands), as the real shell's settling does. The player's events wait until the
    /// outermost step is done; then the driver has them, in order.
    mutating func step(_ index: Int, _ input: (inout PlaybackMachine, inout ParticipantDriver, Duration) -> [ParticipantDriver.Output]) {
        let participant = participants[index]
        let isOutermost = !participant.isApplying
        participant.isApplying = true
        let local = localTime(index)
        apply(index, participant.inPlace { machine, driver in input(&machine, &driver, local) })
        var rounds = 0
        while rounds < 4, let deadline = participant.nextDeadline, deadline <= local {
            rounds += 1
            apply(index, participant.inPlace { machine, driver in driver.timerFired(player: machine, at: local) })
        }
        guard isOutermost else { return }
        participant.isApplying = false
        deliverEvents(index)
        rescheduleTimers(index)
    }

    /// Gives the player its items once the participant has joined the group (its clock is
    /// synchronised), as the app of a participant would.
    mutating func startPlayer(_ index: Int) {
        participants[index].itemGeneration += 1
        var item = PlayerItem(url: participants[index].url, primaryID: "sim-\(participants[index].name)", contentIdentifier: itemIdentifier)
        // Live: every participant counts item time from the same date, whenever it joins.
        item.liveTimeOrigin = origin.liveStartDate
        feed(index, .setItems([item]))
    }

    /// The item every participant plays, the same whatever the viewer's URL.
    let itemIdentifier: String

    // MARK: The player

    /// Feeds the player an input. What it reports goes to the statistics at once, and to the
    /// driver after the driver's outputs being carried out, if any, are (at once otherwise).
    mutating func feed(_ index: Int, _ input: PlaybackMachine.Input) {
        let actions = participants[index].machine.handle(input, now: localTime(index))
        for action in actions {
            switch action {
            case .load(let id, let request):
                let (result, delay) = respond(to: request)
                scheduler.schedule(.loaded(index, id: id, result: result, item: participants[index].itemGeneration), after: delay)
            case .cancelLoad:
                break
            case .event(let event):
                observe(index, event)
                participants[index].pendingEvents.append(event)
            }
        }
        if !participants[index].isApplying { deliverEvents(index) }
        rescheduleTimers(index)
    }

    /// Answers a request from the in-process origin: playlists and asset lists are the origin's
    /// real answers for the viewer; segments are not fetched (their bytes do not matter to
    /// coordination), only their time is simulated.
    func respond(to request: ResourceRequest) -> (Result<LoadedResource, LoadError>, Duration) {
        let latency = Duration.milliseconds(20)
        let path = request.url.dropFirst(originBase.count)
        let base = path.split(separator: "?").first.map(String.init) ?? String(path)
        guard base.hasSuffix(".m3u8") || base.hasSuffix(".json") else {
            return (.success(LoadedResource(bytes: [0x47], url: request.url, elapsed: .milliseconds(120))), latency + .milliseconds(100))
        }
        let wallClock = origin.liveStartDate.adding(MediaTime(seconds: 120) + MediaTime(now))
        let response = origin.respond(to: OriginRequest(target: String(path), baseURL: originBase), at: wallClock)
        guard response.status == 200 else {
            let kind: LoadError.Kind = response.status == 404 ? .notFound : .httpStatus
            return (.failure(LoadError(kind: kind, url: request.url, status: response.status, message: "HTTP \(response.status)")), latency)
        }
        return (.success(LoadedResource(bytes: response.body, url: request.url, elapsed: latency)), latency)
    }


    /// A line for the trace, when one is kept.
    func log(_ index: Int, _ text: @autoclosure () -> String) {
        guard let trace else { return }
        trace("\(SimulationReport.clock(now)) \(participants[index].name) \(text())")
    }

    /// A player event, for the statistics.
    mutating func observe(_ index: Int, _ event: PlayerEvent) {
        log(index, "player \(event.traceLine)")
        if case .stalled = event.kind { participants[index].stats.stalls += 1 }
        if case .breakEnded(let eventID, let end, let resumeAt) = event.kind, end != .seekedAway {
            participants[index].resumedAfterBreak = (now, resumeAt, .zero)
            // Primary passed over by the break's resumption offset (live: the ad's duration, so
            // that the ad watcher rejoins the live edge, missing what played meanwhile).
            if participants[index].hasStartedItem, let start = participants[index].machine.interstitialSchedule?.scheduledBreak(id: eventID)?.start {
                let mapping = participants[index].driver.binding.coordinator.mapping
                let passed = mapping.coordinatedTime(for: .item(resumeAt)) - mapping.coordinatedTime(for: .item(start))
                if passed > MediaTime(value: 1, timescale: 2) {
                    participants[index].stats.skipped += passed
                    participants[index].resumedAfterBreak?.passed = passed
                }
            }
        }
    }

    /// Hands the driver what the player reported, in order, and carries out what it asks; what the
    /// player reports meanwhile follows. A chain that does not settle (a player that cannot go where
    /// the group is) is cut and noted.
    mutating func deliverEvents(_ index: Int) {
        let participant = participants[index]
        guard !participant.isApplying, !participant.pendingEvents.isEmpty else { return }
        participant.isApplying = true
        defer { participant.isApplying = false }
        var rounds = 0
        while !participant.pendingEvents.isEmpty {
            guard rounds < 16 else {
                participant.pendingEvents.removeAll()
                if notes.last?.text.hasPrefix("commands did not settle") != true {
                    notes.append(.init(time: now, participant: participant.name, text: "commands did not settle (the player cannot go where the group is); dropped until the next input"))
                }
                return
            }
            rounds += 1
            let events = participant.pendingEvents
            participant.pendingEvents.removeAll(keepingCapacity: true)
            for event in events {
                step(index) { machine, driver, local in driver.playerEvent(event, player: machine, at: local) }
            }
        }
    }

    /// Carries out what the driver asks, in order: player commands (measuring the content skipped
    /// or gone over again to re-align with the group), messages over the channels to the
    /// participants in the session, probes to the group clock's server, events for the report.
    mutating func apply(_ index: Int, _ outputs: [ParticipantDriver.Output]) {
        for output in outputs {
            log(index, "driver \(output)")
            switch output {
            case .player(let command, let originator):
                var before = coordinatedTime(index)
                if let resumed = participants[index].resumedAfterBreak, resumed.trueTime == now, before != nil {
                    before = participants[index].driver.binding.coordinator.mapping.coordinatedTime(for: .item(resumed.itemTime))
                }
                for input in command.machineInputs { feed(index, input) }
                // Content skipped or gone over again to re-align with the group (not a seek someone made).
                if originator == nil, let before, let after = coordinatedTime(index) {
                    switch command {
                    case .play, .hold, .pause:
                        if after - before > MediaTime(value: 1, timescale: 2) { participants[index].stats.skipped += after - before }
                        if before - after > MediaTime(value: 1, timescale: 2) {
                            // Back over primary the resumption offset had just passed (it resumed at
                            // a segment boundary past the group): that part was not missed after all.
                            var back = before - after
                            if let resumed = participants[index].resumedAfterBreak, resumed.trueTime == now {
                                let returned = MediaTime.min(back, resumed.passed)
                                participants[index].stats.skipped -= returned
                                participants[index].resumedAfterBreak?.passed = resumed.passed - returned
                                back = back - returned
                            }
                            participants[index].stats.rewound += back
                        }
                    case .setRate:
                        break
                    }
                }
            case .send(let message, let recipients):
                let targets: [Int]
                switch recipients {
                case .all: targets = participants.indices.filter { $0 != index && participants[$0].isConnected }
                case .participant(let id): targets = participants.indices.filter { participants[$0].id == id }
                }
                for target in targets { send(message, from: index, to: target) }
            case .probe(let probe):
                guard !participants[index].hasLeft else { continue }
                network.send(Event.probeAtServer(index, probe), from: participants[index].peer, to: serverPeer, on: &scheduler)
            case .event(.clockSynchronized):
                // The app gives its player the item once the session is ready.
                let isIdle = participants[index].inPlace { machine, _ in machine.itemStatus == .unknown && machine.currentSnapshot == nil }
                if isIdle { startPlayer(index) }
            case .event(.coordinator(let event)):
                note(index, event)
            case .event(.itemCoordinated), .event(.groupWait):
                continue
            }
        }
    }

    mutating func send(_ message: CoordinationMessage, from index: Int, to target: Int) {
        guard !participants[index].hasLeft else { return }
        let local = localTime(index)
        let output = participants[index].withChannel(to: target, configuration: channelConfiguration) { $0.send(message, at: local) }
        transmit(output.frames, from: index, to: target)
        scheduleChannelTick(index, peer: target)
    }

    mutating func transmit(_ frames: [ReliableFrame<CoordinationMessage>], from index: Int, to target: Int) {
        for frame in frames {
            network.send(Event.frame(to: target, from: index, frame), from: participants[index].peer, to: participants[target].peer, on: &scheduler)
        }
    }

    /// Sets the channel's timer for its next deadline. A timer already set for that time or earlier
    /// is kept: one that fires early ticks a channel with nothing due, which then sets it again.
    mutating func scheduleChannelTick(_ index: Int, peer: Int) {
        let participant = participants[index]
        guard let deadline = participant.channels[peer]?.nextDeadline else {
            if let timer = participant.channelTimers[peer] {
                scheduler.cancel(timer.id)
                participant.channelTimers[peer] = nil
            }
            return
        }
        let at = max(participant.clock.trueTime(atLocalTime: deadline), now)
        if let timer = participant.channelTimers[peer] {
            if !(at < timer.at) { return }
            scheduler.cancel(timer.id)
        }
        participant.channelTimers[peer] = (scheduler.schedule(.channelTick(index, peer: peer), at: at), at)
    }

    /// Sets the player's timer for its next wake and the driver's for its next deadline. A timer
    /// already set for earlier than needed is kept: it wakes the player or the driver a little
    /// early, which then asks again (cheaper than cancelling and re-queueing at every input).
    mutating func rescheduleTimers(_ index: Int) {
        let participant = participants[index]
        let clock = participant.clock
        let (wake, deadline) = participant.inPlace { machine, driver in (machine.nextWake, driver.nextDeadline) }
        if let wake {
            let at = max(clock.trueTime(atLocalTime: wake), now)
            if let timer = participant.playerTimer, !(at < timer.at) {
                // keep it
            } else {
                if let timer = participant.playerTimer { scheduler.cancel(timer.id) }
                participant.playerTimer = (scheduler.schedule(.playerWake(index), at: at), at)
            }
        }
        if let deadline {
            let at = max(clock.trueTime(atLocalTime: deadline), now)
            if let timer = participant.driverTimer, !(at < timer.at) {
                // keep it
            } else {
                if let timer = participant.driverTimer { scheduler.cancel(timer.id) }
                participant.driverTimer = (scheduler.schedule(.driverWake(index), at: at), at)
            }
        }
    }

    // MARK: Users

    mutating func perform(_ action: SimulationScenario.Action) {
        guard let index = participants.firstIndex(where: { $0.name == action.participant }) else { return }
        notes.append(.init(time: now, participant: action.participant, text: "user: \(action.action)\(action.to.map { " to \($0) s" } ?? "")\(action.timeline.map { " to \($0) s of the timeline" } ?? "")\(action.breakID.map { " into \($0) at \(action.offset ?? 0) s" } ?? "")\(action.rate.map { " at \($0)×" } ?? "")"))
        if ["play", "pause", "rate", "seek"].contains(action.action), !participants[index].hasStartedItem || !participants[index].isConnected {
            // The player is not in the group yet (its clock is not synchronised or its item not
            // ready): what the user does reaches only its own player, and joining the group then
            // takes the group's state.
            notes.append(.init(time: now, participant: action.participant, text: "user's \(action.action) came before the session was ready: not shared with the group"))
        }
        switch action.action {
        case "play": feed(index, .setRate(action.rate ?? 1, originator: .user))
        case "pause": feed(index, .setRate(0, originator: .user))
        case "rate": feed(index, .setRate(action.rate ?? 1, originator: .user))
        case "seek":
            seekCounter += 1
            feed(index, .seek(id: seekCounter, to: seekTarget(of: action, for: index), originator: .user))
        case "leave":
            // The session loses the participant (its network, as a server's presence would tell
            // the others); its player plays on alone, and nothing it sends reaches anyone.
            participants[index].hasLeft = true
            let id = participants[index].id
            for other in participants.indices where other != index && participants[other].isConnected {
                step(other) { _, driver, local in driver.participantLeft(id, at: local) }
            }
        case "rejoin":
            participants[index].hasLeft = false
            participants[index].channels = Array(repeating: nil, count: participants.count)
            for other in participants.indices where other != index { participants[other].channels[index] = nil }
            step(index) { machine, driver, local in driver.connect(player: machine, at: local) }
        default:
            break
        }
    }

    /// A seek action's target for the participant's player: a primary time, a break at an offset,
    /// or an integrated time (a time inside a fill break lands in that break at that offset).
    func seekTarget(of action: SimulationScenario.Action, for index: Int) -> PlaybackMachine.SeekTarget {
        func time(_ seconds: Double?) -> MediaTime { seconds.flatMap { MediaTime(seconds: $0, preferredTimescale: 1000) } ?? .zero }
        if let eventID = action.breakID { return .interstitial(eventID: eventID, offset: time(action.offset)) }
        guard let seconds = action.timeline else { return .primary(time(action.to)) }
        let target = time(seconds)
        if case .interstitial(let eventID, let offset)? = participants[index].machine.currentSnapshot?.position(atTimelineTime: target), offset > .zero {
            return .interstitial(eventID: eventID, offset: offset)
        }
        return .integrated(target)
    }

    // MARK: Observing the group

    func coordinatedTime(_ index: Int) -> MediaTime? {
        guard participants[index].hasStartedItem else { return nil }
        let local = localTime(index)
        return participants[index].inPlace { machine, driver in
            driver.binding.coordinator.mapping.coordinatedTime(for: PlayerCoordinationBinding.playbackPosition(machine.position(atHost: local)))
        }
    }

    mutating func note(_ index: Int, _ event: PlaybackCoordinatorStateMachine.Event) {
        switch event {
        case .groupStatusChanged(let status):
            guard index == participants.firstIndex(where: { $0.isConnected && $0.hasStartedItem }) else { return }
            let blockers = status.blockers.map { "\($0.participant.rawValue) (\($0.cause))" }
            notes.append(.init(time: now, participant: nil, text: "group \(status.status)" + (blockers.isEmpty ? "" : ", waiting for " + blockers.joined(separator: ", "))))
        case .contentDurationMismatch(let mismatch):
            notes.append(.init(time: now, participant: participants[index].name,
                               text: "content duration differs from \(mismatch.participant.rawValue)'s: \(mismatch.localDuration.decimalString()) s vs \(mismatch.participantDuration.decimalString()) s"))
        case .stitchedBreakMismatch(let mismatch):
            notes.append(.init(time: now, participant: participants[index].name,
                               text: "stitched break at \(mismatch.coordinatedTime.decimalString()) s lasts \(mismatch.localDuration.decimalString()) s here, \(mismatch.participantDuration.decimalString()) s for \(mismatch.participant.rawValue) (S1.7: live ad durations should match)"))
        case .sharedBreakMismatch(let mismatch):
            notes.append(.init(time: now, participant: participants[index].name, text: "shared break \(mismatch.eventIdentifier) differs from \(mismatch.participant.rawValue)'s"))
        default:
            break
        }
    }

    /// Samples every participant's position: skew among those playing steadily, and each one's
    /// state for the statistics and the drawing.
    mutating func sample() {
        var steady: [(index: Int, coordinated: Double)] = []
        steady.reserveCapacity(participants.count)
        for (index, participant) in participants.enumerated() where participant.hasStartedItem && !participant.hasLeft {
            let local = participant.localTime(atTrueTime: now)
            let (coordinated, state, isSuspended, isInSharedBreak) = participant.inPlace { machine, driver in
                let position = PlayerCoordinationBinding.playbackPosition(machine.position(atHost: local))
                let mapping = driver.binding.coordinator.mapping
                let inLocalBreak = machine.currentEvent != nil || mapping.localBreak(at: position) != nil
                let state: SeriesState
                switch machine.timeControlStatus {
                case .playing: state = inLocalBreak ? .inBreak : .playing
                case .waitingToPlayAtSpecifiedRate(.interstitialEvent): state = .inBreak
                case .waitingToPlayAtSpecifiedRate(.waitingForCoordinatedPlayback): state = .waiting
                case .waitingToPlayAtSpecifiedRate: state = inLocalBreak ? .inBreak : .waiting
                case .paused: state = .paused
                }
                // A break whose content may not vary is on the shared timeline: the group plays it in
                // step, so its positions count for the skew like primary's.
                let isInSharedBreak = machine.timeControlStatus != .paused && machine.currentEvent.map { !$0.contentMayVary } == true
                return (mapping.coordinatedTime(for: position).seconds, state, driver.binding.coordinator.isSuspended, isInSharedBreak)
            }
            if state == .waiting {
                if let last = participant.stats.waits.last, last.start + last.length + sampleInterval >= now {
                    participant.stats.waits[participant.stats.waits.count - 1].length += sampleInterval
                } else {
                    // What the waiter is told is left when its wait begins (S1.11: from the others'
                    // reports and shared ad schedules), for the break it is waiting at.
                    // Counted from the sample the wait is dated at (the previous one).
                    let local = participant.clock.localTime(atTrueTime: now - sampleInterval)
                    let told = participant.inPlace { _, driver in
                        driver.binding.coordinator.expectedWaitLeft(
                            at: driver.groupClock.groupTime(atLocalTime: local),
                            standingAt: MediaTime(seconds: max(0, coordinated), preferredTimescale: 1000) ?? .zero
                        ).map { MediaTime($0) }
                    }
                    participant.stats.waits.append((now - sampleInterval, sampleInterval, told))
                }
            }
            switch state {
            case .waiting: participant.stats.waited += sampleInterval
            case .inBreak: participant.stats.inBreaks += sampleInterval
            case .playing, .paused: break
            }
            if state == .playing, !isSuspended { steady.append((index, coordinated)) }
            if state == .inBreak, isInSharedBreak { steady.append((index, coordinated)) }
            if participant.stats.series.last.map({ now - $0.time >= .seconds(1) || $0.state != state }) ?? true {
                participant.stats.series.append((now, coordinated, state))
            }
        }
        // Group transitions: a new anchor of the group's playing phase (a start, a resume, a seek).
        if let reference = participants.firstIndex(where: { $0.hasStartedItem && $0.isConnected }),
            let phase = participants[reference].driver.binding.coordinator.groupTimeline?.phase(at: now),
            let anchor = phase.anchorGroupTime, anchor != lastAnchor
        {
            lastAnchor = anchor
            skew.transitions.append(.init(anchor: anchor, skew: nil))
        }
        guard steady.count >= 2, let low = steady.lazy.map(\.coordinated).min(), let high = steady.lazy.map(\.coordinated).max() else { return }
        let spread = (high - low) * 1000
        if spread > 40, let trace {
            let positions = steady.map { "\(participants[$0.index].name)=\($0.coordinated)" }
            trace("\(SimulationReport.clock(now)) skew \(Int(spread)) ms: \(positions.joined(separator: ","))")
        }
        if let last = skew.transitions.last, now - last.anchor < .seconds(3) {
            if last.skew == nil, !(now - last.anchor < .seconds(1)) {
                skew.transitions[skew.transitions.count - 1].skew = spread
            }
        } else {
            skew.steady.append(spread)
        }
    }

    func report(until end: Duration) -> SimulationReport {
        SimulationReport(
            scenario: scenario.name, description: scenario.description, duration: end,
            participants: participants.map { participant in
                SimulationReport.ParticipantReport(
                    name: participant.name, url: participant.url,
                    waited: participant.stats.waited, inBreaks: participant.stats.inBreaks,
                    skipped: participant.stats.skipped.seconds, rewound: participant.stats.rewound.seconds,
                    corrections: participant.driver.binding.coordinator.driftCorrector.correctionCount,
                    stalls: participant.stats.stalls,
                    finalPosition: coordinatedTime(participants.firstIndex { $0.name == participant.name }!)?.seconds,
                    waits: participant.stats.waits.map { .init(start: $0.start, length: $0.length, told: $0.told?.seconds) },
                    series: participant.stats.series.map { .init(time: $0.time, coordinated: $0.coordinated, state: $0.state.rawValue) })
            },
            skew: skew, notes: notes)
    }
}

extension PlayerCoordinationBinding {
    /// A player position in the coordinator's terms.
    public static func playbackPosition(_ position: IntegratedTimeline.Position) -> PlaybackPosition {
        switch position {
        case .primary(let time): return .item(time)
        case .interstitial(let eventID, let offset): return .interstitial(eventIdentifier: eventID, offset: offset)
        }
    }
}
