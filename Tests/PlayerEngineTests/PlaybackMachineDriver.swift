import MediaTime
import PlayerEngine

/// Drives a ``PlaybackMachine`` by hand, input by input, as its shell does but with no tasks and
/// no clock: host time moves only when a test says so, and a load is answered only when a test
/// answers it (or at once, when its URL is in ``served``). It wakes the machine at each deadline
/// the machine reports, as ``Player`` does, so every load is seen at the host time it is asked for.
struct PlaybackMachineDriver {
    /// A load the machine asked for.
    struct Load: Hashable {
        var id: UInt64
        var request: ResourceRequest
        /// The host time it was asked for.
        var askedAt: Duration
        var url: String { request.url }
    }

    private(set) var machine: PlaybackMachine
    private(set) var now: Duration = .zero
    /// Every action, in the order the machine returned them.
    private(set) var actions: [PlaybackMachine.Action] = []
    /// Every load asked for, in order.
    private(set) var loads: [Load] = []
    /// Loads asked for and neither answered nor cancelled, in order.
    private(set) var outstanding: [Load] = []
    /// Bodies answered as soon as they are asked for, by URL; any other load waits for ``answer(_:with:)``.
    var served: [String: [UInt8]] = [:]

    init(configuration: PlayerConfiguration = PlayerConfiguration()) {
        machine = PlaybackMachine(configuration: configuration)
    }

    /// Every event, in order.
    var events: [PlayerEvent] {
        actions.compactMap { action in
            if case .event(let event) = action { return event }
            return nil
        }
    }

    /// The events stamped with host time `time`, in order, less loads (their `loaded` events).
    func kinds(at time: Duration, includingLoads: Bool = false) -> [PlayerEvent.Kind] {
        events.filter { $0.hostTime == time && (includingLoads || !$0.kind.isLoad) }.map(\.kind)
    }

    /// The host times of the events that `matches` picks, in order.
    func times(of matches: (PlayerEvent.Kind) -> Bool) -> [Duration] {
        events.filter { matches($0.kind) }.map(\.hostTime)
    }

    /// The time-control statuses reported, in order.
    var statuses: [TimeControlStatus] {
        events.compactMap { event in
            if case .timeControlStatusChanged(let status) = event.kind { return status }
            return nil
        }
    }

    /// The loads of `url`, in order.
    func loads(of url: String) -> [Load] { loads.filter { $0.url == url } }

    /// Serves `text` at `url`.
    mutating func serve(_ url: String, _ text: String) { served[url] = Array(text.utf8) }

    /// Serves a small body at each of `urls` (zeros: not probed for a duration).
    mutating func serveSegments(_ urls: [String]) {
        for url in urls { served[url] = [UInt8](repeating: 0, count: 1000) }
    }

    /// Feeds `input` at the current host time; returns the actions it produced (and those of any
    /// served loads it led to).
    @discardableResult
    mutating func send(_ input: PlaybackMachine.Input) -> [PlaybackMachine.Action] {
        let start = actions.count
        record(machine.handle(input, now: now))
        serveOutstanding()
        return Array(actions[start...])
    }

    /// Moves host time to `time`, waking the machine at each deadline on the way and at `time`.
    /// Returns the actions taken meanwhile.
    @discardableResult
    mutating func run(until time: Duration) -> [PlaybackMachine.Action] {
        precondition(!(time < now), "host time goes forward only")
        let start = actions.count
        // A deadline not after the present would not move time on: the wake at `time` handles it.
        while let wake = machine.nextWake, now < wake, wake < time {
            now = wake
            record(machine.handle(.wake, now: wake))
            serveOutstanding()
        }
        now = time
        record(machine.handle(.wake, now: time))
        serveOutstanding()
        return Array(actions[start...])
    }

    /// Moves host time on by `duration` (see ``run(until:)``).
    @discardableResult
    mutating func run(for duration: Duration) -> [PlaybackMachine.Action] { run(until: now + duration) }

    /// Answers the one outstanding load of `url` with `bytes`, at the current host time.
    @discardableResult
    mutating func answer(_ url: String, with bytes: [UInt8] = [UInt8](repeating: 0, count: 1000)) -> [PlaybackMachine.Action] {
        let load = take(url)
        return send(.loadFinished(id: load.id, result: .success(LoadedResource(bytes: bytes, url: url, elapsed: .zero))))
    }

    /// Answers the one outstanding load of `url` with `text`.
    @discardableResult
    mutating func answer(_ url: String, text: String) -> [PlaybackMachine.Action] { answer(url, with: Array(text.utf8)) }

    /// Fails the one outstanding load of `url`.
    @discardableResult
    mutating func fail(_ url: String, _ kind: LoadError.Kind = .network, status: Int? = nil) -> [PlaybackMachine.Action] {
        let load = take(url)
        return send(.loadFinished(id: load.id, result: .failure(LoadError(kind: kind, url: url, status: status, message: "refused by the test"))))
    }

    /// Whether a load of `url` is outstanding.
    func isOutstanding(_ url: String) -> Bool { outstanding.contains { $0.url == url } }

    private mutating func take(_ url: String) -> Load {
        let matching = outstanding.filter { $0.url == url }
        precondition(matching.count == 1, "expected one outstanding load of \(url), found \(matching.count): \(outstanding.map(\.url))")
        outstanding.removeAll { $0.id == matching[0].id }
        return matching[0]
    }

    private mutating func record(_ produced: [PlaybackMachine.Action]) {
        for action in produced {
            switch action {
            case .load(let id, let request):
                let load = Load(id: id, request: request, askedAt: now)
                loads.append(load)
                outstanding.append(load)
            case .cancelLoad(let id):
                outstanding.removeAll { $0.id == id }
            case .event:
                break
            }
        }
        actions += produced
    }

    /// Answers served loads, oldest first, until none is left (answers can ask for more).
    private mutating func serveOutstanding() {
        while let load = outstanding.first(where: { served[$0.url] != nil }) {
            outstanding.removeAll { $0.id == load.id }
            let resource = LoadedResource(bytes: served[load.url]!, url: load.url, elapsed: .zero)
            record(machine.handle(.loadFinished(id: load.id, result: .success(resource)), now: now))
        }
    }
}

extension PlayerEvent.Kind {
    /// Whether the event reports a load (finished or failed).
    var isLoad: Bool {
        switch self {
        case .loaded, .loadFailed, .loadRecovered: return true
        default: return false
        }
    }
}
