import InterludeCommandLine
import PlayerEngine
import PlayerInterface
import Testing

/// What `interlude watch` plays: channels switched through ChannelSwitchStateMachine, items let
/// through ParentalControlStateMachine, the player's item as the load, on virtual host time.
@Suite("WatchChannelsStateMachine")
struct WatchChannelsStateMachineTests {
    typealias Machine = WatchChannelsStateMachine

    static let news = Channel(id: "1", title: "News", url: "http://127.0.0.1/live/news/v/main.m3u8")
    static let sports = Channel(id: "2", title: "Sports", url: "http://127.0.0.1/live/sports/v/main.m3u8")
    static let film = Channel(id: "3", title: "Late film", url: "http://127.0.0.1/live/film/v/main.m3u8")
    static let entries: [WatchChannelList.Entry] = [.init(channel: news), .init(channel: sports, rating: .mpaaPG), .init(channel: film, rating: .mpaaR)]
    /// "1234", with few iterations so that the tests stay fast.
    static let passcode = PasscodeHash(passcode: "1234", salt: Array(0..<16), iterations: 1000)
    static let asking = ParentalRestrictions(maximumRating: .mpaaPG13, override: .passcode(passcode))
    static let forbidding = ParentalRestrictions(maximumRating: .mpaaPG13, override: .forbidden)
    static let open = ParentalRestrictions(maximumRating: nil, override: .forbidden)

    static func info(_ channel: Channel, _ number: Int, rating: ContentRating? = nil) -> Machine.Action {
        .publish(NowPlayingInfo(title: channel.title, album: "Channel \(number) of 3", contentRating: rating))
    }

    static let failure = PlayerError(kind: .load, url: film.url, message: "HTTP 404")

    /// A machine that has started and plays News.
    static func playingNews(_ restrictions: ParentalRestrictions = open) -> Machine {
        var machine = Machine(entries: entries, isChannelList: true, restrictions: restrictions, loadTimeout: .seconds(10))
        _ = machine.handle(.start, at: .zero)
        _ = machine.handle(.player(url: news.url, .readyToPlay), at: .seconds(1))
        return machine
    }

    /// Types `text` into the prompt, then Enter.
    static func enter(_ text: String, into machine: inout Machine, at now: Duration) -> [Machine.Action] {
        for character in text { #expect(machine.handle(.passcodeCharacter(character), at: now) == []) }
        return machine.handle(.passcodeEnter, at: now)
    }

    @Test("the first channel loads behind 'channel 1 of 3', then plays: its title shown and published")
    func start() {
        var machine = Machine(entries: Self.entries, isChannelList: true, restrictions: Self.open)
        #expect(machine.handle(.start, at: .zero) == [.play(Self.news)])
        #expect(machine.loadingScreen == .init(channel: Self.news, number: 1, count: 3))
        #expect(machine.title == nil)
        #expect(machine.handle(.player(url: Self.news.url, .unknown), at: .milliseconds(500)) == [])
        #expect(machine.handle(.player(url: Self.news.url, .readyToPlay), at: .seconds(1)) == [Self.info(Self.news, 1)])
        #expect(machine.loadingScreen == nil)
        #expect(machine.title == "News")
    }

    @Test("n loads the next channel behind its loading screen while the title stays; once it is ready, the title and now playing follow it; p comes back")
    func nextAndBack() {
        var machine = Self.playingNews()
        #expect(machine.handle(.nextChannel, at: .seconds(5)) == [.play(Self.sports)])
        #expect(machine.loadingScreen == .init(channel: Self.sports, number: 2, count: 3))
        #expect(machine.title == "News")
        #expect(machine.handle(.player(url: Self.news.url, .readyToPlay), at: .seconds(5)) == [], "the old item's status is not the new one's")
        #expect(machine.handle(.player(url: Self.sports.url, .readyToPlay), at: .seconds(6)) == [Self.info(Self.sports, 2, rating: .mpaaPG)])
        #expect(machine.title == "Sports")
        #expect(machine.loadingScreen == nil)
        #expect(machine.handle(.previousChannel, at: .seconds(7)) == [.play(Self.news)])
        #expect(machine.loadingScreen?.number == 1)
        #expect(machine.handle(.player(url: Self.news.url, .readyToPlay), at: .seconds(8)) == [Self.info(Self.news, 1)])
    }

    @Test("the list wraps: p from the first channel loads the last")
    func wraps() {
        var machine = Self.playingNews()
        #expect(machine.handle(.previousChannel, at: .seconds(5)) == [.play(Self.film)])
        #expect(machine.loadingScreen == .init(channel: Self.film, number: 3, count: 3))
    }

    @Test("a channel that fails to load puts the channel that played back on the player, with a notice; the title never changed")
    func loadFails() {
        var machine = Self.playingNews()
        _ = machine.handle(.previousChannel, at: .seconds(5))
        #expect(machine.handle(.player(url: Self.film.url, .failed(Self.failure)), at: .seconds(6)) == [.play(Self.news)])
        #expect(machine.notice(at: .seconds(6)) == .switchFailed(Self.film, .loadFailed(.unreachable)))
        #expect(machine.notice(at: .seconds(10)) == nil, "gone after four seconds")
        #expect(machine.loadingScreen == nil)
        #expect(machine.title == "News")
        #expect(machine.handle(.player(url: Self.news.url, .readyToPlay), at: .seconds(7)) == [], "News was published already")
    }

    @Test("a channel that does not load within the timeout is given up, and the channel that played comes back")
    func timesOut() {
        var machine = Self.playingNews()
        _ = machine.handle(.nextChannel, at: .seconds(5))
        #expect(machine.handle(.tick, at: .milliseconds(14_999)) == [])
        #expect(machine.loadingScreen != nil)
        #expect(machine.handle(.tick, at: .seconds(15)) == [.play(Self.news)])
        #expect(machine.notice(at: .seconds(15)) == .switchFailed(Self.sports, .timedOut))
        #expect(machine.handle(.player(url: Self.sports.url, .readyToPlay), at: .seconds(16)) == [], "the abandoned load's answer is ignored")
    }

    @Test("n while a channel loads steps on from it; p back to the channel playing ends the load at once and puts that channel back")
    func supersede() {
        var machine = Self.playingNews()
        _ = machine.handle(.nextChannel, at: .seconds(5))
        #expect(machine.handle(.nextChannel, at: .seconds(6)) == [.play(Self.film)])
        #expect(machine.loadingScreen?.number == 3)
        #expect(machine.handle(.previousChannel, at: .seconds(7)) == [.play(Self.sports)])
        #expect(machine.handle(.previousChannel, at: .seconds(8)) == [.play(Self.news)])
        #expect(machine.loadingScreen == nil, "back on the channel playing: nothing loads")
        #expect(machine.notice(at: .seconds(8)) == nil, "superseded requests are not failures")
        #expect(machine.title == "News")
    }

    @Test("a channel above the limit asks for the passcode before it loads, News plays on behind; the typed characters are counted, not shown")
    func promptBeforeLoading() throws {
        var machine = Self.playingNews(Self.asking)
        _ = machine.handle(.nextChannel, at: .seconds(2))
        _ = machine.handle(.player(url: Self.sports.url, .readyToPlay), at: .seconds(3))
        #expect(machine.handle(.nextChannel, at: .seconds(4)) == [], "nothing loads yet")
        #expect(machine.isPrompting)
        #expect(machine.loadingScreen == nil)
        #expect(machine.passcodePrompt == .init(title: "Late film", rating: .mpaaR, limit: .mpaaPG13, attemptsLeft: 3, isLastAttemptWrong: false, typedCount: 0))
        _ = machine.handle(.passcodeCharacter("9"), at: .seconds(4))
        _ = machine.handle(.passcodeCharacter("9"), at: .seconds(4))
        _ = machine.handle(.passcodeBackspace, at: .seconds(4))
        #expect(machine.passcodePrompt?.typedCount == 1)
        #expect(Self.enter("99", into: &machine, at: .seconds(5)) == [])
        #expect(machine.passcodePrompt == .init(title: "Late film", rating: .mpaaR, limit: .mpaaPG13, attemptsLeft: 2, isLastAttemptWrong: true, typedCount: 0))
        #expect(Self.enter("1234", into: &machine, at: .seconds(6)) == [.play(Self.film)])
        #expect(!machine.isPrompting)
        #expect(machine.loadingScreen?.number == 3)
        #expect(machine.handle(.player(url: Self.film.url, .readyToPlay), at: .seconds(7)) == [Self.info(Self.film, 3, rating: .mpaaR)])
    }

    @Test("Esc refuses the channel: the one playing stays, with a notice; landing on it again is refused without a prompt until u asks")
    func cancelAndUnlock() {
        var machine = Self.playingNews(Self.asking)
        _ = machine.handle(.previousChannel, at: .seconds(2))
        #expect(machine.isPrompting)
        #expect(machine.handle(.passcodeCancel, at: .seconds(3)) == [])
        #expect(!machine.isPrompting)
        #expect(machine.title == "News")
        #expect(machine.notice(at: .seconds(3)) == .notAllowed(Self.film, .mpaaR, .passcodeCancelled))
        #expect(machine.handle(.previousChannel, at: .seconds(4)) == [])
        #expect(!machine.isPrompting, "no second prompt without the user asking")
        #expect(machine.notice(at: .seconds(4)) == .notAllowed(Self.film, .mpaaR, .previouslyDenied))
        #expect(machine.handle(.unlock, at: .seconds(5)) == [])
        #expect(machine.passcodePrompt?.title == "Late film")
        #expect(Self.enter("1234", into: &machine, at: .seconds(6)) == [.play(Self.film)])
    }

    @Test("three wrong passcodes refuse the channel and close the prompt")
    func tooManyAttempts() {
        var machine = Self.playingNews(Self.asking)
        _ = machine.handle(.previousChannel, at: .seconds(2))
        _ = Self.enter("1", into: &machine, at: .seconds(3))
        _ = Self.enter("2", into: &machine, at: .seconds(3))
        #expect(Self.enter("3", into: &machine, at: .seconds(3)) == [])
        #expect(!machine.isPrompting)
        #expect(machine.notice(at: .seconds(3)) == .notAllowed(Self.film, .mpaaR, .tooManyAttempts))
        #expect(machine.title == "News")
    }

    @Test("a profile that forbids refuses the channel without a prompt, and u cannot lift it")
    func forbids() {
        var machine = Self.playingNews(Self.forbidding)
        #expect(machine.handle(.previousChannel, at: .seconds(2)) == [])
        #expect(!machine.isPrompting)
        #expect(machine.notice(at: .seconds(2)) == .notAllowed(Self.film, .mpaaR, .forbiddenByProfile))
        #expect(machine.handle(.unlock, at: .seconds(3)) == [])
        #expect(!machine.isPrompting)
        #expect(machine.notice(at: .seconds(3)) == .notAllowed(Self.film, .mpaaR, .forbiddenByProfile))
    }

    @Test("MPRIS Next while the prompt is up replaces it: the channel after is asked for")
    func nextWhilePrompting() {
        var machine = Self.playingNews(Self.asking)
        _ = machine.handle(.previousChannel, at: .seconds(2))
        #expect(machine.handle(.nextChannel, at: .seconds(3)) == [.play(Self.sports)])
        #expect(!machine.isPrompting)
        #expect(machine.notice(at: .seconds(3)) == nil, "the replaced prompt is not a refusal to report")
    }

    @Test("one URL: it plays at once when allowed; refused, the session ends; n and p say there is no channel list")
    func singleURL() {
        let entry = WatchChannelList.Entry(channel: Self.film, rating: .mpaaR)
        var allowed = Machine(entries: [entry], isChannelList: false, restrictions: Self.open)
        #expect(allowed.handle(.start, at: .zero) == [.play(Self.film), .publish(NowPlayingInfo(title: "Late film", contentRating: .mpaaR))])
        #expect(allowed.loadingScreen == nil)
        #expect(allowed.title == "Late film")
        #expect(allowed.handle(.nextChannel, at: .seconds(1)) == [])
        #expect(allowed.notice(at: .seconds(1)) == .noChannelList)

        var forbidden = Machine(entries: [entry], isChannelList: false, restrictions: Self.forbidding)
        #expect(forbidden.handle(.start, at: .zero) == [.end(.forbiddenByProfile)])

        var asked = Machine(entries: [entry], isChannelList: false, restrictions: Self.asking)
        #expect(asked.handle(.start, at: .zero) == [])
        #expect(asked.isPrompting)
        #expect(asked.title == nil, "nothing plays before the passcode")
        #expect(asked.handle(.passcodeCancel, at: .seconds(1)) == [.end(.passcodeCancelled)])

        var unlocked = Machine(entries: [entry], isChannelList: false, restrictions: Self.asking)
        _ = unlocked.handle(.start, at: .zero)
        #expect(Self.enter("1234", into: &unlocked, at: .seconds(1)) == [.play(Self.film), .publish(NowPlayingInfo(title: "Late film", contentRating: .mpaaR))])
    }

    @Test("the prompt takes at most 64 characters")
    func passcodeLength() {
        var machine = Self.playingNews(Self.asking)
        _ = machine.handle(.previousChannel, at: .seconds(2))
        for _ in 0..<100 { _ = machine.handle(.passcodeCharacter("7"), at: .seconds(2)) }
        #expect(machine.passcodePrompt?.typedCount == Machine.maximumPasscodeLength)
    }

    @Test("a group participant's machine loads nothing (the participant sets the item): it names the group's item once told, publishes it once, and n has no list")
    func groupParticipant() {
        var machine = Machine.groupParticipant()
        #expect(machine.isGroupParticipant && !machine.isChannelList)
        #expect(machine.handle(.start, at: .zero) == [])
        #expect(machine.title == nil)
        #expect(machine.handle(.player(url: nil, .unknown), at: .seconds(1)) == [])
        #expect(machine.handle(.groupItem(title: "Group news"), at: .seconds(2)) == [.publish(NowPlayingInfo(title: "Group news"))])
        #expect(machine.title == "Group news")
        #expect(machine.handle(.groupItem(title: "Group news"), at: .seconds(2)) == [], "published once")
        #expect(machine.handle(.player(url: "http://127.0.0.1/live/news/bob/main.m3u8", .readyToPlay), at: .seconds(3)) == [])
        #expect(machine.handle(.tick, at: .seconds(30)) == [])
        #expect(machine.handle(.nextChannel, at: .seconds(31)) == [])
        #expect(machine.notice(at: .seconds(31)) == .noChannelList)
        #expect(machine.handle(.unlock, at: .seconds(32)) == [])
        #expect(machine.notice(at: .seconds(32)) == .nothingToUnlock)
        #expect(!machine.isPrompting && machine.loadingScreen == nil)
    }
}

/// What the keys mean, with and without the passcode prompt.
@Suite("WatchKeystroke")
struct WatchKeystrokeTests {
    @Test("without the prompt: n, p and u are the channels', space, arrows, [ ], s, i and q the player's, Enter and Esc nothing")
    func keys() {
        #expect(WatchKeystroke.character("n").meaning(isPrompting: false) == .channels(.nextChannel))
        #expect(WatchKeystroke.character("p").meaning(isPrompting: false) == .channels(.previousChannel))
        #expect(WatchKeystroke.character("u").meaning(isPrompting: false) == .channels(.unlock))
        #expect(WatchKeystroke.character(" ").meaning(isPrompting: false) == .control(.playPause))
        #expect(WatchKeystroke.left.meaning(isPrompting: false) == .control(.seekBackward))
        #expect(WatchKeystroke.right.meaning(isPrompting: false) == .control(.seekForward))
        #expect(WatchKeystroke.character("[").meaning(isPrompting: false) == .control(.slower))
        #expect(WatchKeystroke.character("]").meaning(isPrompting: false) == .control(.faster))
        #expect(WatchKeystroke.character("s").meaning(isPrompting: false) == .control(.skip))
        #expect(WatchKeystroke.character("i").meaning(isPrompting: false) == .control(.toggleInfo))
        #expect(WatchKeystroke.character("q").meaning(isPrompting: false) == .control(.quit))
        #expect(WatchKeystroke.enter.meaning(isPrompting: false) == nil)
        #expect(WatchKeystroke.escape.meaning(isPrompting: false) == nil)
        #expect(WatchKeystroke.character("7").meaning(isPrompting: false) == nil)
    }

    @Test("with the prompt up every printable character is typed into it, q and n too; Backspace erases, Enter checks, Esc cancels")
    func prompting() {
        for character in ["q", "n", "p", " ", "7", "#"] as [Character] {
            #expect(WatchKeystroke.character(character).meaning(isPrompting: true) == .channels(.passcodeCharacter(character)))
        }
        #expect(WatchKeystroke.backspace.meaning(isPrompting: true) == .channels(.passcodeBackspace))
        #expect(WatchKeystroke.enter.meaning(isPrompting: true) == .channels(.passcodeEnter))
        #expect(WatchKeystroke.escape.meaning(isPrompting: true) == .channels(.passcodeCancel))
        #expect(WatchKeystroke.left.meaning(isPrompting: true) == nil)
        #expect(WatchKeystroke.character("\u{7}").meaning(isPrompting: true) == nil)
    }
}
