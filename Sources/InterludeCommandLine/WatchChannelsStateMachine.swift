import PlayerEngine
import PlayerInterface

/// What `interlude watch` plays: its one URL, or the channels of a channel file switched with `n`
/// and `p` (or MPRIS Next and Previous), each item let through parental controls first; or, for a
/// group participant (`--join`), the group's item, which the participant puts on the player.
///
/// It drives two machines of the player layer and keeps them to their contracts:
/// ``ChannelSwitchStateMachine`` for the switch (the list wraps; a request made while a channel
/// loads supersedes it and steps on from it; a load that fails or takes longer than the timeout
/// leaves the channel that played) and ``ParentalControlStateMachine`` for the rating (above the
/// limit a passcode prompt decides, or the profile forbids; a denial dismisses the item, and it is
/// not asked about again until the user asks with `u`).
///
/// A channel is authorized before it is loaded: while its prompt is up, the channel playing plays
/// on behind it, and a denial leaves it playing, with a notice. For a single URL a denial ends the
/// session (``Action/end(_:)``). A load is the player's item: it succeeded when the item is ready
/// to play, and failed when the item failed; whatever the switch machine then settles on is put
/// back on the player. The title shown and published is the channel playing.
///
/// A group participant's machine (``groupParticipant()``) loads nothing and rates nothing: the
/// participant gives the player its item once the server admits it, and the machine only names it
/// (``Input/groupItem(title:)``) and says that `n` and `p` have no list to switch.
///
/// Pure: the shell feeds it the keys, the player's item and status, and the host time (a tick a
/// few times a second serves the switch machine's timeout), and performs the actions it returns.
package struct WatchChannelsStateMachine: Sendable {
    /// What can happen.
    package enum Input: Sendable, Hashable {
        /// The session starts: the first item is asked for.
        case start
        /// The next channel (`n`, MPRIS Next).
        case nextChannel
        /// The previous channel (`p`, MPRIS Previous).
        case previousChannel
        /// `u`: ask again for the item parental controls refused last.
        case unlock
        /// A character typed into the passcode prompt.
        case passcodeCharacter(Character)
        /// Backspace in the prompt.
        case passcodeBackspace
        /// Enter in the prompt: check the passcode.
        case passcodeEnter
        /// Esc in the prompt: close it (a denial).
        case passcodeCancel
        /// The player's current item (its URL) and status, as read now.
        case player(url: String?, ItemStatus)
        /// Host time passed.
        case tick
        /// The group's item is on the player, under this title (a group participant's machine).
        case groupItem(title: String)
    }

    /// What the shell must do.
    package enum Action: Sendable, Hashable {
        /// Put this channel on the player and play it.
        case play(Channel)
        /// Take the player's item away: nothing plays.
        case stop
        /// Publish this now-playing information (MPRIS).
        case publish(NowPlayingInfo)
        /// End the session: the one URL was refused.
        case end(ParentalControlStateMachine.Denial)
    }

    /// A message about the channels or the rating, shown on the notice line for a few seconds.
    package enum Notice: Sendable, Hashable {
        /// A switch to this channel failed (it did not load, or not in time).
        case switchFailed(Channel, ChannelSwitchFailure)
        /// Parental controls refused this channel.
        case notAllowed(Channel, ContentRating?, ParentalControlStateMachine.Denial)
        /// `n` or `p` without a channel list.
        case noChannelList
        /// `u` with nothing refused.
        case nothingToUnlock
    }

    /// What the passcode prompt shows.
    package struct PasscodePrompt: Sendable, Hashable {
        /// The item waiting: its title and rating.
        package var title: String
        package var rating: ContentRating?
        /// The restriction's limit.
        package var limit: ContentRating?
        package var attemptsLeft: Int
        package var isLastAttemptWrong: Bool
        /// How many characters are typed (they are shown masked).
        package var typedCount: Int

        package init(title: String, rating: ContentRating?, limit: ContentRating?, attemptsLeft: Int, isLastAttemptWrong: Bool, typedCount: Int) {
            self.title = title
            self.rating = rating
            self.limit = limit
            self.attemptsLeft = attemptsLeft
            self.isLastAttemptWrong = isLastAttemptWrong
            self.typedCount = typedCount
        }
    }

    /// The longest passcode the prompt takes.
    package static let maximumPasscodeLength = 64

    /// The items: the channels, or the one URL.
    package let entries: [WatchChannelList.Entry]
    /// Whether the items are a channel list (`n` and `p` switch, a denial keeps the channel playing).
    package let isChannelList: Bool
    /// Whether the group puts the item on the player (`watch --join`): nothing is loaded here.
    package let isGroupParticipant: Bool
    /// The title of the group's item, once the participant is admitted.
    private var groupTitle: String?
    private var switcher: ChannelSwitchStateMachine
    private var parental: ParentalControlStateMachine
    /// The index of the entry on the player.
    private var onPlayer: Int?
    /// The switch machine's load whose channel is on the player.
    private var loadOnPlayer: Int?
    /// The index of the entry whose information was published last.
    private var published: Int?
    /// The single URL has been let through.
    private var isSinglePresented = false
    private var prompt: ParentalControlStateMachine.Prompt?
    private var typed: [Character] = []
    private var requests: [Int: Int] = [:]
    private var nextRequestID = 1
    private var notice: (notice: Notice, expiry: Duration)?
    private(set) package var loadingScreen: ChannelSwitchStateMachine.LoadingScreen?

    /// A machine over `entries` (a channel list when `isChannelList`, else one URL) under
    /// `restrictions`, with `loadTimeout` for a channel to load.
    package init(entries: [WatchChannelList.Entry], isChannelList: Bool, restrictions: ParentalRestrictions, loadTimeout: Duration = .seconds(15)) {
        precondition(!entries.isEmpty, "nothing to watch")
        self.entries = entries
        self.isChannelList = isChannelList
        isGroupParticipant = false
        switcher = ChannelSwitchStateMachine(channels: entries.map(\.channel), loadTimeout: loadTimeout)
        parental = ParentalControlStateMachine(restrictions: restrictions)
    }

    /// A machine for a group participant: no items of its own, no restrictions.
    package static func groupParticipant() -> WatchChannelsStateMachine {
        WatchChannelsStateMachine(groupParticipant: ())
    }

    private init(groupParticipant: Void) {
        entries = []
        isChannelList = false
        isGroupParticipant = true
        switcher = ChannelSwitchStateMachine(channels: [])
        parental = ParentalControlStateMachine(restrictions: ParentalRestrictions(maximumRating: nil, override: .forbidden))
    }

    /// The restrictions in force.
    package var restrictions: ParentalRestrictions { parental.restrictions }

    /// Whether the passcode prompt is up (keys are then typed into it).
    package var isPrompting: Bool { prompt != nil }

    /// The passcode prompt, if it is up.
    package var passcodePrompt: PasscodePrompt? {
        guard let prompt, let index = index(of: prompt.itemID) else { return nil }
        return PasscodePrompt(title: entries[index].channel.title, rating: prompt.rating, limit: parental.restrictions.maximumRating,
                              attemptsLeft: prompt.attemptsLeft, isLastAttemptWrong: prompt.lastAttemptWasWrong, typedCount: typed.count)
    }

    /// The index of the entry playing (for a channel list, the one switched from while another
    /// loads).
    package var currentIndex: Int? { isChannelList ? switcher.currentIndex : (isSinglePresented ? 0 : nil) }

    /// The title of what plays, `nil` when nothing does.
    package var title: String? { isGroupParticipant ? groupTitle : currentIndex.map { entries[$0].channel.title } }

    /// The notice showing at `hostTime`, if any.
    package func notice(at hostTime: Duration) -> Notice? {
        guard let notice, hostTime < notice.expiry else { return nil }
        return notice.notice
    }

    /// Handles one input at host time `now`.
    package mutating func handle(_ input: Input, at now: Duration) -> [Action] {
        var actions: [Action] = []
        switch input {
        case .start:
            if !isGroupParticipant { actions += authorize(0, now: now) }
        case .nextChannel, .previousChannel:
            guard isChannelList else {
                show(.noChannelList, at: now)
                break
            }
            let step = input == .nextChannel ? 1 : -1
            let count = entries.count
            let target = switcher.loadingIndex ?? switcher.currentIndex ?? (step > 0 ? -1 : count)
            actions += authorize(((target + step) % count + count) % count, now: now)
        case .unlock:
            guard !isPrompting else { break }
            let answer = parental.handle(.userRequestedAuthorization)
            if answer.isEmpty { show(.nothingToUnlock, at: now) }
            actions += perform(answer, now: now)
        case .passcodeCharacter(let character):
            if isPrompting, typed.count < Self.maximumPasscodeLength { typed.append(character) }
        case .passcodeBackspace:
            if !typed.isEmpty { typed.removeLast() }
        case .passcodeEnter:
            guard isPrompting else { break }
            let passcode = String(typed)
            typed = []
            actions += perform(parental.handle(.passcodeEntered(passcode)), now: now)
        case .passcodeCancel:
            guard isPrompting else { break }
            actions += perform(parental.handle(.promptCancelled), now: now)
        case .player(let url, let status):
            guard isChannelList, let loadID = loadOnPlayer, let index = onPlayer, url == entries[index].channel.url else { break }
            switch status {
            case .unknown: break
            case .readyToPlay: follow(switcher.handle(.loadSucceeded(id: loadID), at: now), now: now)
            case .failed(let error):
                follow(switcher.handle(.loadFailed(id: loadID, error.kind == .load ? .unreachable : .unplayable), at: now), now: now)
            }
        case .tick:
            follow(switcher.handle(.wake, at: now), now: now)
        case .groupItem(let title):
            guard isGroupParticipant, title != groupTitle else { break }
            groupTitle = title
            actions.append(.publish(NowPlayingInfo(title: title)))
        }
        return isGroupParticipant ? actions : actions + reconcile()
    }

    /// Asks parental controls for the entry at `index`.
    private mutating func authorize(_ index: Int, now: Duration) -> [Action] {
        let entry = entries[index]
        return perform(parental.handle(.requestAuthorization(itemID: entry.channel.id, rating: entry.rating)), now: now)
    }

    private mutating func perform(_ answer: [ParentalControlStateMachine.Action], now: Duration) -> [Action] {
        var actions: [Action] = []
        for action in answer {
            switch action {
            case .present(let itemID):
                guard let index = index(of: itemID) else { continue }
                if isChannelList {
                    let requestID = nextRequestID
                    nextRequestID += 1
                    requests[requestID] = index
                    follow(switcher.handle(.select(index: index, requestID: requestID), at: now), now: now)
                } else {
                    isSinglePresented = true
                }
            case .showPasscodePrompt(let shown):
                if prompt?.itemID != shown.itemID { typed = [] }
                prompt = shown
            case .hidePasscodePrompt:
                prompt = nil
                typed = []
            case .dismiss(let itemID, let denial):
                guard denial != .superseded, let index = index(of: itemID) else { continue }
                if isChannelList {
                    show(.notAllowed(entries[index].channel, entries[index].rating, denial), at: now)
                } else {
                    actions.append(.end(denial))
                }
            }
        }
        return actions
    }

    /// Follows the switch machine's answer (the player is reconciled after).
    private mutating func follow(_ answer: [ChannelSwitchStateMachine.Action], now: Duration) {
        for action in answer {
            switch action {
            case .load(let id, _): loadOnPlayer = id
            case .cancelLoad(let id): if loadOnPlayer == id { loadOnPlayer = nil }
            case .showLoadingScreen(let screen): loadingScreen = screen
            case .hideLoadingScreen: loadingScreen = nil
            case .complete(let requestID, let result):
                let index = requests.removeValue(forKey: requestID)
                switch result {
                case .success: break
                case .failure(.superseded), .failure(.cancelled): break
                case .failure(let failure):
                    if let index { show(.switchFailed(entries[index].channel, failure), at: now) }
                }
            case .scheduleWake: break
            }
        }
    }

    /// Puts on the player what should play (the channel loading, else the one playing) and
    /// publishes what plays, each when it changed.
    private mutating func reconcile() -> [Action] {
        var actions: [Action] = []
        if switcher.loadingIndex == nil { loadOnPlayer = nil }
        let wanted = isChannelList ? (switcher.loadingIndex ?? switcher.currentIndex) : currentIndex
        if wanted != onPlayer {
            onPlayer = wanted
            actions.append(wanted.map { .play(entries[$0].channel) } ?? .stop)
        }
        if let current = currentIndex, current != published {
            published = current
            let entry = entries[current]
            actions.append(.publish(NowPlayingInfo(title: entry.channel.title, album: isChannelList ? "Channel \(current + 1) of \(entries.count)" : nil,
                                                   contentRating: entry.rating)))
        }
        return actions
    }

    private func index(of itemID: String) -> Int? {
        entries.firstIndex { $0.channel.id == itemID }
    }

    private mutating func show(_ notice: Notice, at now: Duration) {
        self.notice = (notice, now + WatchControlStateMachine.noticeDuration)
    }
}
