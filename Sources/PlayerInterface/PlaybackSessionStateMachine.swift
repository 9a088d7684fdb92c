import MediaTime

/// The life of the playback objects behind a player view, following Apple's advice for
/// `AVPlayer` apps (S3.8): make the player and item, observe the item's status, seek the item to
/// its start time before the view presents it (so that the first frame shown is the right one),
/// read the error when the status turns to failed, and when the media services are reset
/// (`AVAudioSession.mediaServicesWereResetNotification`) throw every playback object away, build
/// new ones and resume where the user was, at the rate they had.
///
/// Each set of playback objects is a *generation*; reports from an older generation (a status
/// change of an item already thrown away) are ignored. Pure: the shell makes and discards the
/// objects, runs the seeks and reports back.
public struct PlaybackSessionStateMachine: Sendable {
    /// What the app asks to play.
    public struct Request: Sendable, Hashable {
        /// The item's URL.
        public var url: String
        /// Where to start; `nil`: the item's default start.
        public var startTime: MediaTime?
        /// Whether to play as soon as it is presented.
        public var playsWhenReady: Bool

        /// A request.
        public init(url: String, startTime: MediaTime? = nil, playsWhenReady: Bool = true) {
            self.url = url
            self.startTime = startTime
            self.playsWhenReady = playsWhenReady
        }
    }

    /// An item's status (`AVPlayerItem.Status`).
    public enum ItemStatus: Sendable, Hashable {
        /// Not known yet.
        case unknown
        /// Ready to play.
        case readyToPlay
        /// Failed, with the error read from the item.
        case failed(PlaybackError)
    }

    /// What can happen.
    public enum Input: Sendable, Hashable {
        /// The app asks to play an item (replacing whatever played).
        case load(Request)
        /// The item of a generation changed status.
        case itemStatusChanged(generation: Int, ItemStatus)
        /// A seek started by ``Action/seek(generation:id:to:)`` ended, finished or interrupted.
        case seekCompleted(generation: Int, id: Int, finished: Bool)
        /// The player's position and rate, as a periodic observer saw them.
        case progress(generation: Int, time: MediaTime, rate: Double)
        /// The media services were reset: every playback object is dead.
        case mediaServicesReset
    }

    /// What the shell must do.
    public enum Action: Sendable, Hashable {
        /// Make a player and an item for `url`, observe the item's status and the player's
        /// progress, and report them with `generation`.
        case makePlaybackObjects(generation: Int, url: String)
        /// Throw away the playback objects of `generation` (stop observing them first).
        case discardPlaybackObjects(generation: Int)
        /// Seek the item of `generation` to `time`.
        case seek(generation: Int, id: Int, to: MediaTime)
        /// Attach the view to the player of `generation` and show it.
        case present(generation: Int)
        /// Play the player of `generation` at `rate`.
        case play(generation: Int, rate: Double)
        /// Tell the user what went wrong.
        case reportError(PlaybackError)
    }

    private enum Phase: Sendable, Hashable {
        /// Waiting for the item to be ready.
        case awaitingReady
        /// Seeking to the start (or resume) time before presenting.
        case seeking(id: Int)
        /// Presented.
        case presented
    }

    private struct Session: Sendable, Hashable {
        var generation: Int
        var request: Request
        var phase: Phase
        /// Where to start this generation (the request's start, or where the user was).
        var startTime: MediaTime?
        /// The rate to play at once presented (0: stay paused).
        var rate: Double
        /// The last position and rate seen, to resume from after a reset.
        var lastTime: MediaTime?
        var lastRate: Double
    }

    private enum State: Sendable, Hashable {
        case idle
        case active(Session)
        case failed(generation: Int, PlaybackError)
    }

    private var state: State = .idle
    private var nextGeneration = 1
    private var nextSeekID = 1

    /// Nothing loaded.
    public init() {}

    /// The generation of the live playback objects, if any.
    public var generation: Int? { Self.generation(of: state) }

    private static func generation(of state: State) -> Int? {
        switch state {
        case .idle: nil
        case .active(let session): session.generation
        case .failed(let generation, _): generation
        }
    }

    /// Whether the view presents the item.
    public var isPresented: Bool {
        if case .active(let session) = state { return session.phase == .presented }
        return false
    }

    /// Handles one input.
    public mutating func handle(_ input: Input) -> [Action] {
        // Every case reads a copy of `state` and writes `state` whole: matching the stored property
        // while assigning it trips the 6.3 optimizer's ownership verifier in a release build.
        let current = state
        switch input {
        case .load(let request):
            let discard = Self.generation(of: current).map { [Action.discardPlaybackObjects(generation: $0)] } ?? []
            return discard + start(request, at: request.startTime, rate: request.playsWhenReady ? 1 : 0)
        case .itemStatusChanged(let generation, let status):
            guard case .active(var session) = current, session.generation == generation else { return [] }
            switch status {
            case .unknown:
                return []
            case .failed(let error):
                state = .failed(generation: generation, error)
                return [.reportError(error)]
            case .readyToPlay:
                guard session.phase == .awaitingReady else { return [] }
                guard let startTime = session.startTime else {
                    session.phase = .presented
                    state = .active(session)
                    return present(session)
                }
                let id = nextSeekID
                nextSeekID += 1
                session.phase = .seeking(id: id)
                state = .active(session)
                return [.seek(generation: generation, id: id, to: startTime)]
            }
        case .seekCompleted(let generation, let id, _):
            // Presented whether or not the seek finished: an interrupted start seek leaves the
            // item where it is, and holding the view back for ever would be worse.
            guard case .active(var session) = current, session.generation == generation, session.phase == .seeking(id: id) else { return [] }
            session.phase = .presented
            state = .active(session)
            return present(session)
        case .progress(let generation, let time, let rate):
            guard case .active(var session) = current, session.generation == generation, session.phase == .presented else { return [] }
            session.lastTime = time
            session.lastRate = rate
            state = .active(session)
            return []
        case .mediaServicesReset:
            switch current {
            case .idle:
                return []
            case .failed(let generation, _):
                // Nothing to resume: the dead objects go; the reported error stays on screen.
                state = .idle
                return [.discardPlaybackObjects(generation: generation)]
            case .active(let session):
                let resumeAt = session.lastTime ?? session.startTime
                let rate = session.phase == .presented ? session.lastRate : session.rate
                return [.discardPlaybackObjects(generation: session.generation)] + start(session.request, at: resumeAt, rate: rate)
            }
        }
    }

    private mutating func start(_ request: Request, at startTime: MediaTime?, rate: Double) -> [Action] {
        let generation = nextGeneration
        nextGeneration += 1
        state = .active(Session(generation: generation, request: request, phase: .awaitingReady, startTime: startTime, rate: rate,
                                lastTime: nil, lastRate: rate))
        return [.makePlaybackObjects(generation: generation, url: request.url)]
    }

    private func present(_ session: Session) -> [Action] {
        var actions: [Action] = [.present(generation: session.generation)]
        if session.rate != 0 { actions.append(.play(generation: session.generation, rate: session.rate)) }
        return actions
    }
}
