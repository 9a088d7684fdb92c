import HLSInterstitials
import HLSPlaylist
import MediaTime
import PlayerEngine
import Testing

/// The event controller on its own: a schedule made from a playlist, positions passed in, and
/// the decisions and changes it gives back.
@Suite("Interstitial controller")
struct InterstitialControllerTests {
    static func seconds(_ value: Int64) -> MediaTime { MediaTime(seconds: value) }
    static func milliseconds(_ value: Int64) -> MediaTime { MediaTime(value: value, timescale: 1000) }

    /// A 40 s VOD with a point break `p` at 10 s and a 6 s range break `r` at 20 s, and a
    /// controller that has built its schedule.
    static func controller(extra: String = "") throws -> (InterstitialController, MediaPlaylist) {
        let playlist = try MediaPlaylist(parsing: vodPlaylist(count: 10, extra:
            PlaybackScenarioTests.interstitial("p", at: 10, "X-ASSET-URI=\"ads/p.m3u8\"")
            + PlaybackScenarioTests.interstitial("r", at: 20, "DURATION=6.0,X-ASSET-URI=\"ads/r.m3u8\",X-TIMELINE-OCCUPIES=\"RANGE\"")
            + extra))
        var controller = InterstitialController()
        controller.playlistEvents = InterstitialEvent.events(in: playlist).events
        _ = controller.refresh(timeline: PrimaryTimeline(playlist: playlist), playlist: playlist, startTime: nil, playing: nil)
        return (controller, playlist)
    }

    /// A due break in words: "enter p at 0", "pass r", or "none".
    static func describe(_ due: InterstitialController.DueBreak?) -> String {
        switch due {
        case .enter(let scheduled, let offset)?: return "enter \(scheduled.id) at \(offset.decimalString())"
        case .pass(let scheduled)?: return "pass \(scheduled.id)"
        case nil: return "none"
        }
    }

    @Test("a break is due at its start (within a millisecond), a range break is joined at the offset inside it, and one the playhead is past is passed")
    func dueBreaks() throws {
        var (controller, _) = try Self.controller()
        #expect(Self.describe(controller.dueBreak(at: Self.milliseconds(9_999))) == "none")
        #expect(Self.describe(controller.dueBreak(at: Self.seconds(10))) == "enter p at 0")
        #expect(Self.describe(controller.dueBreak(at: Self.milliseconds(10_000) + MediaTime(value: 1, timescale: 1_000_000))) == "enter p at 0")
        controller.consumed.insert("p")
        #expect(Self.describe(controller.dueBreak(at: Self.seconds(23))) == "enter r at 3")
        #expect(Self.describe(controller.dueBreak(at: Self.seconds(26))) == "pass r")
    }

    @Test("a jump to where a played break starts keeps it played, a jump before it makes it due again, and a jump into a break counts the ones before it as played")
    func jumpsAndConsumedBreaks() throws {
        var (controller, _) = try Self.controller()
        controller.consumed.insert("p")
        controller.markConsumed(before: Self.seconds(10), including: nil)
        #expect(controller.nextBreak()?.id == "r")
        controller.markConsumed(before: Self.seconds(5), including: nil)
        #expect(controller.nextBreak()?.id == "p")
        controller.markConsumed(before: Self.seconds(20), including: "r")
        #expect(controller.consumed == ["p"])
        #expect(controller.nextBreak()?.id == "r")
    }

    @Test("the events are reported when they change, and the integrated timeline's segments when they change after the first schedule")
    func refreshReportsChanges() throws {
        var (controller, playlist) = try Self.controller()
        let timeline = PrimaryTimeline(playlist: playlist)
        #expect(controller.refresh(timeline: timeline, playlist: playlist, startTime: nil, playing: nil).isEmpty)
        let client = try MediaPlaylist(parsing: vodPlaylist(count: 1, extra: PlaybackScenarioTests.interstitial("c", at: 30, "X-ASSET-URI=\"ads/c.m3u8\"")))
        controller.clientEvents = InterstitialEvent.events(in: client).events
        #expect(controller.refresh(timeline: timeline, playlist: playlist, startTime: nil, playing: nil) == [
            .interstitialEventsChanged(ids: ["p", "r", "c"]),
            .timelineChanged(reasons: [.segmentsChanged]),
        ])
        #expect(controller.breaks.map(\.id) == ["p", "r", "c"])
    }

    @Test("a skip control opens and closes a window for skipping, and X-RESTRICT=SKIP shuts it whatever the skip control says")
    func skipWindowAndRestriction() throws {
        let skip = "X-ASSET-URI=\"ads/s.m3u8\",X-SKIP-CONTROL-OFFSET=5.0,X-SKIP-CONTROL-DURATION=5.0"
        let (controller, _) = try Self.controller(extra: PlaybackScenarioTests.interstitial("s", at: 30, skip)
            + PlaybackScenarioTests.interstitial("x", at: 35, skip + ",X-RESTRICT=\"SKIP\""))
        let open = try #require(controller.breaks.first { $0.id == "s" })
        let restricted = try #require(controller.breaks.first { $0.id == "x" })
        #expect([4, 5, 9, 10].map { controller.isSkippable(open, at: Self.seconds($0)) } == [false, true, true, false])
        #expect(controller.skipChanges(of: open, after: Self.seconds(4)) == [Self.seconds(5), Self.seconds(10)])
        #expect(controller.skipChanges(of: open, after: Self.seconds(7)) == [Self.seconds(10)])
        #expect(!controller.isSkippable(restricted, at: Self.seconds(7)))
    }

    @Test("the next break's first asset is preloaded from the lead on and not while a break plays, and a preload of a played break is forgotten once it no longer plays")
    func preloads() throws {
        var (controller, _) = try Self.controller()
        func commands(_ preloads: [(eventID: String, stream: PlaybackStream)] = [], playing: String? = nil, at seconds: Int64) -> [PlaybackCommand] {
            controller.preloadCommands(preloads: preloads, playing: playing, at: Self.seconds(seconds), lead: Self.seconds(5),
                                       primaryBase: "http://origin.test/main.m3u8", primaryID: "P1")
        }
        let first = PlaybackStream.asset(eventID: "p", index: 0)
        #expect(commands(at: 4).isEmpty)
        #expect(commands(at: 5) == [.preload(first, url: "http://origin.test/ads/p.m3u8?_HLS_primary_id=P1")])
        #expect(commands([("p", first)], at: 6).isEmpty)
        #expect(commands(playing: "p", at: 6).isEmpty)
        controller.consumed.insert("p")
        #expect(commands([("p", first)], playing: "p", at: 10).isEmpty)
        #expect(commands([("p", first)], at: 10) == [.cancelPreload(first)])
    }

    @Test("joining a break's assets at an offset lands in the asset it falls in, as far as the durations are known")
    func assetEntry() {
        let assets = [AssetList.Asset(uri: "a", duration: Self.seconds(5)), AssetList.Asset(uri: "b", duration: Self.seconds(10)), AssetList.Asset(uri: "c", duration: nil)]
        let inSecond = InterstitialController.assetEntry(in: assets, at: Self.seconds(12))
        #expect(inSecond.index == 1 && inSecond.start == Self.seconds(5) && inSecond.entry == Self.seconds(7))
        let inLast = InterstitialController.assetEntry(in: assets, at: Self.seconds(40))
        #expect(inLast.index == 2 && inLast.start == Self.seconds(15) && inLast.entry == Self.seconds(25))
        let unknown = InterstitialController.assetEntry(in: [AssetList.Asset(uri: "a", duration: nil), AssetList.Asset(uri: "b", duration: nil)], at: Self.seconds(12))
        #expect(unknown.index == 0 && unknown.start == .zero && unknown.entry == Self.seconds(12))
    }
}
