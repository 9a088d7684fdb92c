import Glibc
import GroupCoordination
import GroupPlayback
import PlayerEngine
import PlayerInterface
import Synchronization

/// One run of `interlude watch`: the shell around ``WatchControlStateMachine``,
/// ``WatchChannelsStateMachine`` and ``WatchScreen``. ``run()`` owns the terminal on the thread
/// that calls it: it paints the screen from the player's state, a few times a second and whenever
/// the player's state changes (``stateChanged()``), reads the keys, performs what the machines ask
/// of the player, and returns when the user quits, the item ends or fails (a single URL), is
/// refused by parental controls (a single URL), the terminal goes away, or ``interrupt()`` is
/// called (a signal, a client's Quit). A client's Next and Previous reach it through
/// ``requestChannel(_:)``.
///
/// As a group participant (`--join`) it also runs a ``WatchGroupStateMachine`` over the
/// participant's events (``groupEvent(_:)``), plays the group's item once admitted, shows the
/// group line from what the participant reads, and ends when the server refuses the participant
/// for good. The keys act on the player as ever: the participant's coordinator, which observes
/// the player, makes them the group's.
final class WatchSession: Sendable {
    /// How a run ended.
    enum Ending: Sendable, Hashable {
        /// `q`.
        case quit
        /// A signal (SIGINT, SIGTERM, SIGHUP) or a client's Quit.
        case interrupted
        /// Standard input hung up: the terminal was closed.
        case terminalClosed
        /// The item played to its end.
        case playedToEnd
        /// The item failed.
        case failed(PlayerError)
        /// Parental controls refused the item.
        case denied(ParentalControlStateMachine.Denial)
        /// The group server refused the participant for good.
        case groupStopped(SessionError)
    }

    /// How often the screen is painted when nothing happens (the countdown moves on).
    static let tick: Duration = .milliseconds(250)

    let player: Player
    /// The items and the restrictions, as the session starts.
    let channels: WatchChannelsStateMachine
    private let wake: WakeUpPipe
    private let isInterrupted = Atomic(false)
    /// Requests from other threads (MPRIS Next and Previous), taken by ``run()``.
    private let inbox = Mutex<[WatchChannelsStateMachine.Input]>([])
    private let publisher = Mutex<(@Sendable (NowPlayingInfo) -> Void)?>(nil)
    /// The group participant and what the session makes of its events, with `--join`.
    private let group: (participant: GroupSessionParticipant, machine: WatchGroupStateMachine)?
    /// The participant's events, taken by ``run()``.
    private let groupInbox = Mutex<[GroupSessionParticipant.Event]>([])

    /// A session showing `player`, playing what `channels` decides.
    ///
    /// - Throws: when no pipe can be made (out of file descriptors).
    init(player: Player, channels: WatchChannelsStateMachine, group: (participant: GroupSessionParticipant, machine: WatchGroupStateMachine)? = nil) throws {
        precondition(channels.isGroupParticipant == (group != nil), "a group participant's session needs the group participant's channels")
        self.player = player
        self.channels = channels
        self.group = group
        wake = try WakeUpPipe()
    }

    /// Hands ``run()`` one of the group participant's events (from another task).
    func groupEvent(_ event: GroupSessionParticipant.Event) {
        groupInbox.withLock { $0.append(event) }
        wake.signal()
    }

    /// Where now-playing information goes each time what plays changes (MPRIS); set before
    /// ``run()``.
    func publishNowPlaying(to publish: @escaping @Sendable (NowPlayingInfo) -> Void) {
        publisher.withLock { $0 = publish }
    }

    /// Asks ``run()`` for the next or previous channel (from another thread: MPRIS).
    func requestChannel(_ input: WatchChannelsStateMachine.Input) {
        inbox.withLock { $0.append(input) }
        wake.signal()
    }

    /// Asks ``run()`` to end at once (from a signal handler or another thread).
    func interrupt() {
        isInterrupted.store(true, ordering: .releasing)
        wake.signal()
    }

    /// Tells ``run()`` to paint now: the player's state changed.
    func stateChanged() { wake.signal() }

    /// Runs the terminal until the session ends; blocks the calling thread. The terminal is given
    /// back as it was before this returns.
    ///
    /// - Throws: ``CommandFailure`` when the terminal's type is unknown.
    func run() throws -> Ending {
        let terminal = try WatchTerminal()
        defer { terminal.close() }
        var controls = WatchControlStateMachine()
        var channels = self.channels
        var groupMachine = group?.machine
        var nextTick = ContinuousClock.now

        /// Performs the channels' actions; the ending, if one of them ends the session.
        func perform(_ actions: [WatchChannelsStateMachine.Action]) -> Ending? {
            for action in actions {
                switch action {
                case .play(let channel):
                    player.replaceCurrentItem(with: PlayerItem(url: channel.url))
                    player.play()
                case .stop:
                    player.replaceCurrentItem(with: nil)
                case .publish(let info):
                    // Called with no lock held.
                    let publish = publisher.withLock { $0 }
                    publish?(info)
                case .end(let denial):
                    return .denied(denial)
                }
            }
            return nil
        }

        if let ending = perform(channels.handle(.start, at: player.hostTime)) { return ending }
        while true {
            if isInterrupted.load(ordering: .acquiring) { return .interrupted }
            for input in inbox.withLock({ inputs in defer { inputs = [] }; return inputs }) {
                if let ending = perform(channels.handle(input, at: player.hostTime)) { return ending }
            }
            for event in groupInbox.withLock({ events in defer { events = [] }; return events }) {
                for action in groupMachine?.handle(event, at: player.hostTime) ?? [] {
                    switch action {
                    case .play(let title):
                        // The participant has put the group's item on the player.
                        player.play()
                        if let ending = perform(channels.handle(.groupItem(title: title), at: player.hostTime)) { return ending }
                    case .end(let error):
                        return .groupStopped(error)
                    }
                }
            }
            var state = player.state
            if let ending = perform(channels.handle(.player(url: state.item?.url, state.itemStatus), at: state.hostTime)
                                    + channels.handle(.tick, at: state.hostTime)) {
                return ending
            }
            state = player.state
            if !channels.isChannelList, let error = state.error { return .failed(error) }
            if state.hasPlayedToEnd { return .playedToEnd }
            controls.update(state)
            let size = terminal.size
            var details = WatchScreen.Details()
            if controls.isInfoShown {
                details.variant = player.accessLog.last.map { ($0.uri, $0.indicatedBitrate) }
                details.buffered = player.loadedTimeRanges
            }
            let overlay: WatchScreen.Overlay? = channels.passcodePrompt.map { .passcode($0) }
                ?? (channels.isChannelList ? channels.loadingScreen.map { .loading($0) } : nil)
            let extras = WatchScreen.Channels(overlay: overlay, notice: channels.notice(at: state.hostTime), isChannelList: channels.isChannelList)
            // The participant's readings take its lock, one after another; none is held here.
            let groupLine = group.flatMap { group in
                groupMachine?.groupLine(phase: group.participant.phase, status: group.participant.groupStatus, skew: group.participant.skew,
                                        others: group.participant.otherParticipants.count, at: state.hostTime)
            }
            let title = channels.title ?? (channels.isGroupParticipant ? "Joining the session" : "No channel playing")
            terminal.paint(WatchScreen(state: state, title: title, isInfoShown: controls.isInfoShown,
                                       notice: controls.notice(at: state.hostTime), details: details, width: size.width, height: size.height,
                                       charset: terminal.charset, channels: extras, group: groupLine))

            let now = ContinuousClock.now
            if !(now < nextTick) { nextTick = now + Self.tick }
            guard wait(until: nextTick) else { return .terminalClosed }
            terminal.followResize()
            for input in terminal.read() {
                guard case .key(let key) = input, let meaning = key.meaning(isPrompting: channels.isPrompting) else { continue }
                switch meaning {
                case .channels(let input):
                    if let ending = perform(channels.handle(input, at: player.hostTime)) { return ending }
                case .control(let key):
                    for action in controls.handle(key, state: player.state) {
                        switch action {
                        case .play(let rate), .setRate(let rate): player.setRate(rate)
                        case .pause: player.pause()
                        case .seek(let target): player.startSeek(to: target)
                        case .skipCurrentBreak: player.skipCurrentEvent()
                        case .quit: return .quit
                        }
                    }
                }
            }
        }
    }

    /// Waits until a key, a wake-up or `deadline`; `false` when standard input hung up (after
    /// which every read would return at once, and the loop would spin).
    private func wait(until deadline: ContinuousClock.Instant) -> Bool {
        let left = ContinuousClock.now.duration(to: deadline)
        let milliseconds = max(0, Int32(clamping: left.components.seconds * 1_000 + left.components.attoseconds / 1_000_000_000_000_000))
        var descriptors = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&descriptors, 2, milliseconds)
        guard ready > 0 else { return true }
        if descriptors[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return false }
        if descriptors[1].revents & Int16(POLLIN) != 0 { wake.drain() }
        return true
    }
}

/// A pipe whose read end wakes a `poll`: a byte written is a wake-up; both ends non-blocking,
/// so that a full pipe (wake-ups already pending) drops the byte instead of blocking.
private final class WakeUpPipe: Sendable {
    let readEnd: Int32
    private let writeEnd: Int32

    init() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw CommandFailure(message: "cannot make a pipe: \(String(cString: strerror(errno)))") }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &buffer, buffer.count) > 0 {}
    }
}
