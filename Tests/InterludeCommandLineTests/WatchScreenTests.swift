import GroupCoordination
import HLSInterstitials
import HLSPlaylist
import InterludeCommandLine
import MediaTime
import PlayerEngine
import PlayerInterface
import Testing

/// Player states for the terminal player's tests: a 60 s VOD of ten 6 s segments with a 15 s
/// point pre-roll "pre" of two ads that carries `X-RESTRICT="SKIP"`, a 10 s range break "mid" at
/// 20 s and a 5 s point break "dot" at 45 s with a skip control from 2 s. The integrated timeline
/// is 70 s long: "mid" spans 20–30 s of it, "dot" sits at 55 s.
enum WatchFixture {
    static let epoch = PlaylistDate(iso8601: "2026-01-01T00:00:00.000Z")!

    static func time(_ text: String) -> MediaTime {
        guard let value = MediaTime(decimal: text) else { preconditionFailure("not a decimal time: \(text)") }
        return value
    }

    static func interstitial(_ id: String, at offset: String, _ attributes: String) -> String {
        "#EXT-X-DATERANGE:ID=\"\(id)\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"\(epoch.adding(time(offset)).iso8601String)\","
            + "X-ASSET-LIST=\"https://ads.example.com/\(id).json\",\(attributes)"
    }

    static let tags = [
        interstitial("pre", at: "0", "CUE=\"PRE\",DURATION=15,X-RESUME-OFFSET=0,X-RESTRICT=\"SKIP,JUMP\""),
        interstitial("mid", at: "20", "DURATION=10,X-RESUME-OFFSET=0,X-TIMELINE-OCCUPIES=\"RANGE\""),
        interstitial("dot", at: "45", "DURATION=5,X-RESUME-OFFSET=0,X-SKIP-CONTROL-OFFSET=2"),
    ]

    static func asset(_ name: String, _ seconds: String) -> AssetList.Asset {
        AssetList.Asset(uri: "https://ads.example.com/\(name).m3u8", duration: time(seconds))
    }

    /// The schedule, with the pre-roll's asset list (two ads, 5 s and 10 s) answered.
    static func schedule(live: Bool = false) throws -> InterstitialSchedule {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:6"]
        if !live { lines.append("#EXT-X-PLAYLIST-TYPE:VOD") }
        lines.append("#EXT-X-PROGRAM-DATE-TIME:\(epoch.iso8601String)")
        lines += live ? [] : tags
        for index in 0..<10 { lines += ["#EXTINF:6,", "segment\(index).ts"] }
        if !live { lines.append("#EXT-X-ENDLIST") }
        let playlist = try MediaPlaylist(parsing: lines.joined(separator: "\n") + "\n")
        let options = InterstitialSchedule.Options(assetLists: ["pre": .resolved(AssetList(assets: [asset("legal", "5"), asset("spot", "10")]))])
        return InterstitialSchedule(primary: PrimaryTimeline(playlist: playlist, firstSegmentStart: live ? time("600") : .zero),
                                    events: InterstitialEvent.events(in: playlist).events, options: options)
    }

    /// The player's state with playback at `position`, playing at `rate` (0: paused).
    static func state(at position: IntegratedTimeline.Position, rate: Double = 1, live: Bool = false,
                      status: TimeControlStatus = .playing) throws -> PlayerState {
        let snapshot = IntegratedTimeline.Snapshot(schedule: try schedule(live: live), position: position)
        var state = PlaybackMachine().playerState
        state.hostTime = .seconds(30)
        state.item = PlayerItem(url: "https://example.com/main.m3u8")
        state.itemStatus = .readyToPlay
        state.timeControlStatus = rate == 0 ? .paused : status
        state.rate = rate
        state.position = position
        state.snapshot = snapshot
        state.integratedCurrentTime = snapshot.currentTime
        state.duration = live ? .indefinite : time("60")
        if case .interstitial(let eventID, let offset) = position {
            state.currentEvent = snapshot.schedule.scheduledBreak(id: eventID)?.event
            state.currentEventOffset = offset
        }
        if case .primary(let primary) = position { state.currentTime = primary }
        return state
    }
}

@Suite("WatchScreen")
struct WatchScreenTests {
    typealias Fixture = WatchFixture

    @Test("the bar puts the range break's span and the point break's dot where the integrated timeline puts them, with the times at its two ends")
    func barAndTimes() throws {
        // 12 s of primary content played: integrated 12 s of 70, in 98 columns.
        let state = try Fixture.state(at: .primary(Fixture.time("12")))
        let screen = WatchScreen(state: state, title: "The Long Take", isInfoShown: false, notice: nil, width: 100, height: 12)
        let lines = screen.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "The Long Take")
        let bar = lines[2]
        #expect(bar.count == 100)
        #expect(bar.first == "[" && bar.last == "]")
        let cells = Array(bar.dropFirst().dropLast())
        // 98 columns over 70 s: "pre" at 0 s (column 0), "mid" from 20 s (column 28) to 30 s
        // (column 42, excluded), "dot" at 55 s (column 77), the playhead at 12 s (column 16).
        #expect(cells.indices.filter { cells[$0] == "#" } == Array(28..<42))
        #expect(cells.indices.filter { cells[$0] == "o" } == [0, 77])
        #expect(cells.firstIndex(of: "|") == 16)
        #expect(cells[1..<16].allSatisfy { $0 == "=" })
        #expect(lines[3].hasPrefix("0:12 / 1:10 "))
        #expect(lines[3].hasSuffix(" -0:58"))
        #expect(lines[3].count == 100)
        #expect(screen.bar?.row == 2)
        #expect(screen.bar?.cells.count == 98)
    }

    @Test("inside a restricted break: which ad of how many, the break's time left rounded up, and that it cannot be skipped")
    func restrictedBreak() throws {
        let state = try Fixture.state(at: .interstitial(eventID: "pre", offset: Fixture.time("7.5")), status: .waitingToPlayAtSpecifiedRate(.interstitialEvent))
        let text = WatchScreen(state: state, title: "t", isInfoShown: false, notice: nil, width: 100, height: 12).text
        #expect(text.contains("Ad 2 of 2 · 0:08 left · cannot be skipped"))
        #expect(text.contains("\nplaying\n"))
        let first = try Fixture.state(at: .interstitial(eventID: "pre", offset: Fixture.time("1")))
        #expect(WatchScreen(state: first, title: "t", isInfoShown: false, notice: nil, width: 100, height: 12).text.contains("Ad 1 of 2 · 0:14 left"))
    }

    @Test("a break whose skip control is open says s skips it; before it opens, neither skip nor a restriction is shown")
    func skippableBreak() throws {
        let open = try Fixture.state(at: .interstitial(eventID: "dot", offset: Fixture.time("3")))
        #expect(WatchScreen(state: open, title: "t", isInfoShown: false, notice: nil, width: 100, height: 12).text
            .contains("Break \"dot\" · 0:02 left · s to skip"))
        let early = try Fixture.state(at: .interstitial(eventID: "dot", offset: Fixture.time("1")))
        let line = WatchScreen(state: early, title: "t", isInfoShown: false, notice: nil, width: 100, height: 12).lines[4].text
        #expect(line.hasPrefix("Break \"dot\" · 0:04 left"))
        #expect(!line.contains("skip"))
    }

    @Test("the status says paused, the rate when it is not 1, live for a live stream, and the notice shows under it")
    func statusAndNotice() throws {
        let paused = try Fixture.state(at: .primary(Fixture.time("12")), rate: 0)
        let screen = WatchScreen(state: paused, title: "t", isInfoShown: false, notice: .refused(.restricted(eventID: "pre")), width: 100, height: 12)
        #expect(screen.lines[5].text == "paused")
        #expect(screen.lines[6].text == "refused: \"pre\" cannot be skipped or sought through (X-RESTRICT=SKIP)")
        #expect(screen.lines[6].style == .notice)
        let fast = try Fixture.state(at: .primary(Fixture.time("12")), rate: 1.5)
        #expect(WatchScreen(state: fast, title: "t", isInfoShown: false, notice: nil, width: 100, height: 12).lines[5].text == "playing at 1.5×")
        let live = try Fixture.state(at: .primary(Fixture.time("630")), live: true)
        let liveScreen = WatchScreen(state: live, title: "t", isInfoShown: false, notice: nil, width: 100, height: 12)
        #expect(liveScreen.lines[5].text == "playing · live")
        #expect(liveScreen.lines[3].text == "0:30 / live")
    }

    @Test("the key help sits on the last row; an ASCII terminal gets no Unicode")
    func help() throws {
        let state = try Fixture.state(at: .interstitial(eventID: "pre", offset: Fixture.time("1")))
        let screen = WatchScreen(state: state, title: "t", isInfoShown: false, notice: nil, width: 100, height: 20)
        #expect(screen.lines.count == 20)
        #expect(screen.lines[19].text == "space play/pause · ←/→ seek 5 s · [ ] rate · s skip · i info · q quit")
        let ascii = WatchScreen(state: state, title: "t", isInfoShown: false, notice: nil, width: 100, height: 20, charset: .ascii)
        #expect(ascii.lines[19].text == "space play/pause - left/right seek 5 s - [ ] rate - s skip - i info - q quit")
        #expect(ascii.lines.allSatisfy { $0.text.unicodeScalars.allSatisfy(\.isASCII) })
    }

    @Test("the info panel lists the variant, the position, what is buffered and every break with its kind, length and restrictions")
    func infoPanel() throws {
        let state = try Fixture.state(at: .primary(Fixture.time("12")))
        let details = WatchScreen.Details(variant: ("https://example.com/720p.m3u8", 2_000_000),
                                          buffered: [MediaTimeRange(start: .zero, end: Fixture.time("24"))])
        let text = WatchScreen(state: state, title: "t", isInfoShown: true, notice: nil, details: details, width: 100, height: 20).text
        #expect(text.contains("variant   https://example.com/720p.m3u8 (2000000 bit/s)"))
        #expect(text.contains("position  primary 0:12.0, integrated 0:12.0"))
        #expect(text.contains("buffered  0:00.0–0:24.0"))
        #expect(text.contains("  pre at 0:00, point, 0:15.0 long, 2 ads, X-RESTRICT=SKIP,JUMP"))
        #expect(text.contains("  mid at 0:20, range, 0:10.0 long"))
        #expect(text.contains("  dot at 0:45, point, 0:05.0 long"))
        let hidden = WatchScreen(state: state, title: "t", isInfoShown: false, notice: nil, details: details, width: 100, height: 20).text
        #expect(!hidden.contains("variant"))
    }

    @Test("a small terminal keeps the bar, the break and the help, and no line is wider than the terminal")
    func small() throws {
        let state = try Fixture.state(at: .interstitial(eventID: "pre", offset: Fixture.time("1")))
        let screen = WatchScreen(state: state, title: "A title much longer than the terminal is wide", isInfoShown: true, notice: nil,
                                 width: 30, height: 7)
        #expect(screen.lines.count == 7)
        #expect(screen.lines.allSatisfy { $0.text.count <= 30 })
        #expect(screen.lines[0].text == "A title much longer than the t")
        #expect(screen.lines[1].style == .bar)
        #expect(screen.bar?.row == 1)
        #expect(screen.lines[3].text.hasPrefix("Ad 1 of 2"))
        #expect(screen.lines[6].text.hasPrefix("space play/pause"))
    }

    @Test("before the playlist is loaded: no bar, the status says loading")
    func loading() {
        var state = PlaybackMachine().playerState
        state.item = PlayerItem(url: "https://example.com/main.m3u8")
        state.timeControlStatus = .waitingToPlayAtSpecifiedRate(.evaluatingBufferingRate)
        let screen = WatchScreen(state: state, title: "t", isInfoShown: false, notice: nil, width: 80, height: 10)
        #expect(screen.bar == nil)
        #expect(screen.lines[5].text == "loading")
    }

    static let sports = Channel(id: "2", title: "Sports", url: "http://127.0.0.1/live/sports/v/main.m3u8")

    @Test("while a channel loads, the loading screen replaces the player: which channel of how many, its title and URL, n/p and q in the help")
    func loadingScreen() throws {
        let state = try Fixture.state(at: .primary(Fixture.time("12")))
        let channels = WatchScreen.Channels(overlay: .loading(.init(channel: Self.sports, number: 2, count: 3)), isChannelList: true)
        let screen = WatchScreen(state: state, title: "News", isInfoShown: true, notice: .rate(2), width: 100, height: 12, channels: channels)
        #expect(screen.lines.count == 12)
        #expect(screen.lines[0].text == "Loading channel 2 of 3: Sports")
        #expect(screen.lines[0].style == .title)
        #expect(screen.lines[2].text == "http://127.0.0.1/live/sports/v/main.m3u8")
        #expect(screen.lines[3].text == "rate 2×", "the notice still shows")
        #expect(screen.lines[11].text == "n/p channel · q quit")
        #expect(screen.bar == nil)
        #expect(!screen.text.contains("News"), "the player's screen is gone")
        #expect(!screen.text.contains("variant"))
    }

    @Test("the passcode prompt names the item, its rating and the limit, masks what is typed, and says when a passcode was wrong and how many attempts are left")
    func passcodePrompt() throws {
        let state = try Fixture.state(at: .primary(Fixture.time("12")))
        let prompt = WatchChannelsStateMachine.PasscodePrompt(title: "Late film", rating: .mpaaR, limit: .mpaaPG13, attemptsLeft: 3,
                                                              isLastAttemptWrong: false, typedCount: 4)
        let first = WatchScreen(state: state, title: "News", isInfoShown: false, notice: nil, width: 100, height: 12,
                                channels: .init(overlay: .passcode(prompt), isChannelList: true)).text
        #expect(first.hasPrefix("Late film\n\nRated R, above the limit PG-13: enter the passcode to watch it.\nPasscode: ****\n3 attempts left\n"))
        #expect(first.hasSuffix("\nEnter check · Esc cancel · Backspace erase"))
        var wrong = prompt
        wrong.isLastAttemptWrong = true
        wrong.attemptsLeft = 1
        wrong.typedCount = 0
        let second = WatchScreen(state: state, title: "News", isInfoShown: false, notice: nil, width: 100, height: 12,
                                 channels: .init(overlay: .passcode(wrong), isChannelList: false))
        #expect(second.lines[3].text == "Passcode: ")
        #expect(second.lines[4].text == "Wrong passcode · 1 attempt left")
        #expect(second.lines[4].style == .notice)
    }

    @Test("with a channel list the help has n/p, and a notice of the channels' shows instead of the controls' one")
    func channelHelpAndNotice() throws {
        let state = try Fixture.state(at: .primary(Fixture.time("12")))
        let channels = WatchScreen.Channels(notice: .switchFailed(Self.sports, .loadFailed(.unreachable)), isChannelList: true)
        let screen = WatchScreen(state: state, title: "News", isInfoShown: false, notice: .rate(2), width: 100, height: 12, channels: channels)
        #expect(screen.lines[0].text == "News")
        #expect(screen.lines[6].text == "could not switch to Sports: the stream cannot be reached")
        #expect(screen.lines[11].text == "space play/pause · ←/→ seek 5 s · [ ] rate · n/p channel · s skip · i info · q quit")
        let single = WatchScreen(state: state, title: "News", isInfoShown: false, notice: nil, width: 100, height: 12, channels: .init(isChannelList: false))
        #expect(single.lines[11].text == "space play/pause · ←/→ seek 5 s · [ ] rate · s skip · i info · q quit")
    }

    @Test("the channels' notices in words", arguments: [
        (WatchChannelsStateMachine.Notice.switchFailed(sports, .timedOut), "could not switch to Sports: it did not load in time"),
        (.switchFailed(sports, .loadFailed(.unplayable)), "could not switch to Sports: the stream cannot be played"),
        (.notAllowed(sports, .mpaaR, .forbiddenByProfile), "Sports (R) is not allowed on this profile"),
        (.notAllowed(sports, .mpaaR, .passcodeCancelled), "Sports (R) not shown: passcode cancelled · u to enter it"),
        (.notAllowed(sports, .mpaaR, .tooManyAttempts), "Sports (R) not shown: too many wrong passcodes · u to try again"),
        (.notAllowed(sports, nil, .previouslyDenied), "Sports was refused · u to enter the passcode"),
        (.noChannelList, "n and p switch channels when a channel list is given (--channels)"),
    ])
    func channelNotices(notice: WatchChannelsStateMachine.Notice, text: String) {
        #expect(WatchScreen.text(for: notice) == text)
    }
}


/// The group participant's lines (`watch --join`).
@Suite("WatchScreen's group line")
struct WatchScreenGroupTests {
    typealias Fixture = WatchFixture
    typealias Group = WatchScreen.Group

    static let inSession = Group(session: "s-42", name: "bob", role: .controller, connection: .inSession, status: .playing,
                                 skew: .microseconds(1_300), others: 1)

    @Test("under the status: the session, the name and role, in session, the skew and the others; then what the group does")
    func inSession() throws {
        let live = try Fixture.state(at: .primary(Fixture.time("630")), live: true)
        let screen = WatchScreen(state: live, title: "News", isInfoShown: false, notice: nil, width: 100, height: 14, group: Self.inSession)
        #expect(screen.lines[5].text == "playing · live")
        #expect(screen.lines[6].text == "session s-42 · bob (controller) · in session · skew +1.3 ms · 1 other")
        #expect(screen.lines[7].text == "the group is playing")
        #expect(screen.lines[8].style == .notice)
        #expect(screen.lines[13].text.hasPrefix("space play/pause"), "the help stays on the last row")
        let ascii = WatchScreen(state: live, title: "News", isInfoShown: false, notice: nil, width: 100, height: 14, charset: .ascii, group: Self.inSession)
        #expect(ascii.lines[6].text == "session s-42 - bob (controller) - in session - skew +1.3 ms - 1 other")
    }

    @Test("before the welcome it says it connects; after a drop, that it reconnects; a paused group says so, and the skew may be behind")
    func connection() throws {
        let state = try Fixture.state(at: .primary(Fixture.time("12")), rate: 0)
        func lines(_ group: Group) -> [String] {
            WatchScreen(state: state, title: "t", isInfoShown: false, notice: nil, width: 100, height: 14, group: group).lines.map(\.text)
        }
        let connecting = Group(session: nil, name: "bob", role: nil, connection: .connecting, status: nil, skew: nil, others: 0)
        #expect(lines(connecting)[6] == "connecting to the group as bob…")
        #expect(lines(connecting)[7] == "")
        var dropped = Self.inSession
        dropped.connection = .reconnecting
        dropped.status = .paused
        dropped.skew = .milliseconds(-40)
        dropped.others = 2
        #expect(lines(dropped)[6] == "session s-42 · bob (controller) · disconnected, reconnecting · skew -40.0 ms · 2 others")
        #expect(lines(dropped)[7] == "the group is paused")
    }

    @Test("when the group waits, whom for and why: an ad, a seek, buffering, not ready")
    func waiting() throws {
        let state = try Fixture.state(at: .primary(Fixture.time("12")), status: .waitingToPlayAtSpecifiedRate(.waitingForCoordinatedPlayback))
        var group = Self.inSession
        group.status = .waiting(for: [
            .init(name: "charlie", cause: .suspension(.playingInterstitial)), .init(name: "alice", cause: .suspension(.userIsChangingCurrentTime)),
            .init(name: "dana", cause: .suspension(.stallRecovery)), .init(name: "erin", cause: .notReady),
        ])
        let screen = WatchScreen(state: state, title: "t", isInfoShown: false, notice: nil, width: 120, height: 14, group: group)
        #expect(screen.lines[5].text == "waiting for the group")
        #expect(screen.lines[7].text == "the group waits for charlie (in an ad), alice (seeking), dana (buffering), erin (not ready)")
    }

    @Test("the group's notice shows instead of the keys' one: a viewer's refused command says so")
    func refusedNotice() throws {
        let state = try Fixture.state(at: .primary(Fixture.time("12")))
        var group = Self.inSession
        group.role = .viewer
        group.notice = .refused(SessionError(code: .forbidden, message: "viewers cannot pause"))
        let screen = WatchScreen(state: state, title: "t", isInfoShown: false, notice: .seeking(to: Fixture.time("17")), width: 100, height: 14, group: group)
        #expect(screen.lines[8].text == "refused by the group: viewers cannot pause")
        #expect(screen.lines[8].style == .notice)
        let plain = WatchScreen(state: state, title: "t", isInfoShown: false, notice: .seeking(to: Fixture.time("17")), width: 100, height: 14, group: Self.inSession)
        #expect(plain.lines[8].text == "seeking to 0:17")
    }

    @Test("the group's notices in words, names from the network escaped", arguments: [
        (WatchGroupStateMachine.Notice.refused(SessionError(code: .outOfRange, message: "no such time")), "the server refused: out-of-range: no such time"),
        (.presence(name: "charlie", role: .viewer, .joined), "charlie (viewer) joined"),
        (.presence(name: "alice", role: .owner, .left), "alice (owner) left"),
        (.presence(name: "dana", role: .controller, .lost), "dana (controller) was lost"),
        (.presence(name: "dana", role: .controller, .returned), "dana (controller) is back"),
        (.presence(name: "evil\u{1B}[2J", role: .viewer, .joined), "evil\\x1B[2J (viewer) joined"),
        (.disconnected(reason: "closed by the server"), "disconnected (closed by the server); reconnecting"),
        (.reconnected, "back in the session"),
    ])
    func groupNotices(notice: WatchGroupStateMachine.Notice, text: String) {
        #expect(WatchScreen.text(for: notice) == text)
    }
}
