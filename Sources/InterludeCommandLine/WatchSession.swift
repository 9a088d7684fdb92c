import Glibc
import PlayerEngine
import Synchronization

/// One run of `interlude watch`: the shell around ``WatchControlStateMachine`` and
/// ``WatchScreen``. ``run()`` owns the terminal on the thread that calls it: it paints the screen
/// from the player's state, a few times a second and whenever the player's state changes
/// (``stateChanged()``), reads the keys, performs what the controls ask of the player, and
/// returns when the user quits, the item ends or fails, the terminal goes away, or
/// ``interrupt()`` is called (a signal, a client's Quit).
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
    }

    /// How often the screen is painted when nothing happens (the countdown moves on).
    static let tick: Duration = .milliseconds(250)

    let player: Player
    let title: String
    private let wake: WakeUpPipe
    private let isInterrupted = Atomic(false)

    /// A session showing `player`, titled `title`.
    ///
    /// - Throws: when no pipe can be made (out of file descriptors).
    init(player: Player, title: String) throws {
        self.player = player
        self.title = title
        wake = try WakeUpPipe()
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
        var nextTick = ContinuousClock.now
        while true {
            if isInterrupted.load(ordering: .acquiring) { return .interrupted }
            let state = player.state
            if let error = state.error { return .failed(error) }
            if state.hasPlayedToEnd { return .playedToEnd }
            controls.update(state)
            let size = terminal.size
            var details = WatchScreen.Details()
            if controls.isInfoShown {
                details.variant = player.accessLog.last.map { ($0.uri, $0.indicatedBitrate) }
                details.buffered = player.loadedTimeRanges
            }
            terminal.paint(WatchScreen(state: state, title: title, isInfoShown: controls.isInfoShown, notice: controls.notice(at: state.hostTime),
                                       details: details, width: size.width, height: size.height, charset: terminal.charset))

            let now = ContinuousClock.now
            if !(now < nextTick) { nextTick = now + Self.tick }
            guard wait(until: nextTick) else { return .terminalClosed }
            terminal.followResize()
            for input in terminal.read() {
                guard case .key(let key) = input else { continue }
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
