/// Live channel switching (S3.11), with the contract of `AVPlayerViewControllerDelegate`'s
/// `skipToNextChannel` / `skipToPreviousChannel` requests: each request carries a completion
/// that is called exactly once, with success or failure, whatever happens next; and while the
/// channel loads, an interstitial screen describes it (`nextChannelInterstitialViewController`).
///
/// - A request made while another is loading supersedes it: the earlier one completes at once with
///   ``ChannelSwitchFailure/superseded`` and its load is cancelled. Next and previous step from the
///   channel being loaded, so that pressing next twice moves two channels on; the list wraps
///   around at both ends.
/// - A load that fails, or that does not answer within ``loadTimeout``, completes its request
///   with a failure and the current channel stays what it was.
/// - A request for the channel already playing completes at once with success.
///
/// The caller names every request with an identifier of its own choosing and keeps the completion;
/// the machine answers with ``Action/complete(requestID:_:)``. Pure: inputs carry the host time.
public struct ChannelSwitchStateMachine: Sendable {
    /// What the loading screen shows.
    public struct LoadingScreen: Sendable, Hashable {
        /// The channel being loaded.
        public var channel: Channel
        /// Its place in the list, from 1.
        public var number: Int
        /// How many channels the list has.
        public var count: Int

        /// A loading screen.
        public init(channel: Channel, number: Int, count: Int) {
            self.channel = channel
            self.number = number
            self.count = count
        }
    }

    /// What can happen.
    public enum Input: Sendable, Hashable {
        /// The user asked for the next channel.
        case next(requestID: Int)
        /// The user asked for the previous channel.
        case previous(requestID: Int)
        /// The user picked a channel by its index in the list.
        case select(index: Int, requestID: Int)
        /// A load started by ``Action/load(id:_:)`` is playing.
        case loadSucceeded(id: Int)
        /// A load started by ``Action/load(id:_:)`` failed.
        case loadFailed(id: Int, ChannelLoadError)
        /// The view went away: whatever is pending completes with
        /// ``ChannelSwitchFailure/cancelled``.
        case cancel
        /// Host time passed (a scheduled wake).
        case wake
    }

    /// What the view and the player must do.
    public enum Action: Sendable, Hashable {
        /// Start playing `channel`; answer with ``Input/loadSucceeded(id:)`` or
        /// ``Input/loadFailed(id:_:)``.
        case load(id: Int, Channel)
        /// Stop a load that is no longer wanted (its answer, if any, is ignored).
        case cancelLoad(id: Int)
        /// Show (or update) the loading screen.
        case showLoadingScreen(LoadingScreen)
        /// Take the loading screen down.
        case hideLoadingScreen
        /// Call the completion of request `requestID`.
        case complete(requestID: Int, Result<Channel, ChannelSwitchFailure>)
        /// Feed ``Input/wake`` at this host time.
        case scheduleWake(at: Duration)
    }

    private struct Switch: Sendable, Hashable {
        var requestID: Int
        var loadID: Int
        var from: Int?
        var to: Int
        var deadline: Duration
    }

    private enum State: Sendable, Hashable {
        case idle(current: Int?)
        case switching(Switch)
    }

    /// The channels, in order.
    public let channels: [Channel]
    /// How long a load may take before its request fails with ``ChannelSwitchFailure/timedOut``.
    public let loadTimeout: Duration
    private var state: State
    private var nextLoadID = 1

    /// A machine over `channels`, playing the one at `current` (none yet when `nil`).
    public init(channels: [Channel], current: Int? = nil, loadTimeout: Duration = .seconds(15)) {
        self.channels = channels
        self.loadTimeout = loadTimeout
        self.state = .idle(current: current.flatMap { channels.indices.contains($0) ? $0 : nil })
    }

    /// The index of the channel playing now (while switching, the one switched from).
    public var currentIndex: Int? {
        switch state {
        case .idle(let current): current
        case .switching(let pending): pending.from
        }
    }

    /// The index of the channel being loaded, if any.
    public var loadingIndex: Int? {
        if case .switching(let pending) = state { return pending.to }
        return nil
    }

    /// Handles one input at host time `now`.
    public mutating func handle(_ input: Input, at now: Duration) -> [Action] {
        switch input {
        case .next(let requestID): return request(requestID, now: now) { $0.map { $0 + 1 } ?? 0 }
        case .previous(let requestID): return request(requestID, now: now) { $0.map { $0 - 1 } ?? -1 }
        case .select(let index, let requestID):
            guard channels.indices.contains(index) else {
                return [.complete(requestID: requestID, .failure(.noSuchChannel))]
            }
            return request(requestID, now: now) { _ in index }
        case .loadSucceeded(let id):
            guard case .switching(let pending) = state, pending.loadID == id else { return [] }
            state = .idle(current: pending.to)
            return [.hideLoadingScreen, .complete(requestID: pending.requestID, .success(channels[pending.to]))]
        case .loadFailed(let id, let error):
            guard case .switching(let pending) = state, pending.loadID == id else { return [] }
            state = .idle(current: pending.from)
            return [.hideLoadingScreen, .complete(requestID: pending.requestID, .failure(.loadFailed(error)))]
        case .cancel:
            guard case .switching(let pending) = state else { return [] }
            state = .idle(current: pending.from)
            return [.cancelLoad(id: pending.loadID), .hideLoadingScreen, .complete(requestID: pending.requestID, .failure(.cancelled))]
        case .wake:
            guard case .switching(let pending) = state, !(now < pending.deadline) else { return [] }
            state = .idle(current: pending.from)
            return [.cancelLoad(id: pending.loadID), .hideLoadingScreen, .complete(requestID: pending.requestID, .failure(.timedOut))]
        }
    }

    /// Starts a switch to the channel `target` picks from the channel being loaded, or else the
    /// one playing (an index that may step past either end).
    private mutating func request(_ requestID: Int, now: Duration, target: (Int?) -> Int) -> [Action] {
        guard !channels.isEmpty else { return [.complete(requestID: requestID, .failure(.noChannels))] }
        var actions: [Action] = []
        var from: Int?
        let base: Int?
        switch state {
        case .idle(let current):
            from = current
            base = current
        case .switching(let pending):
            from = pending.from
            base = pending.to
            actions += [.cancelLoad(id: pending.loadID), .complete(requestID: pending.requestID, .failure(.superseded))]
        }
        let count = channels.count
        let index = ((target(base) % count) + count) % count
        if index == from {
            state = .idle(current: from)
            if !actions.isEmpty { actions.append(.hideLoadingScreen) }
            return actions + [.complete(requestID: requestID, .success(channels[index]))]
        }
        let loadID = nextLoadID
        nextLoadID += 1
        let pending = Switch(requestID: requestID, loadID: loadID, from: from, to: index, deadline: now + loadTimeout)
        state = .switching(pending)
        return actions + [
            .showLoadingScreen(LoadingScreen(channel: channels[index], number: index + 1, count: count)),
            .load(id: loadID, channels[index]),
            .scheduleWake(at: pending.deadline),
        ]
    }
}
