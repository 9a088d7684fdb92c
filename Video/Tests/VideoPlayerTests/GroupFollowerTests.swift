import HLSInterstitials
import MediaTime
import Testing
import VideoBackend
import VideoPlayer

@Suite("GroupFollower")
struct GroupFollowerTests {
    /// A point break at 12 s (5 s) and a pod at 30 s: "a" (4 s) then "b" (6 s).
    static func plan() throws -> SwitchPlan {
        let schedule = try SwitchPlanTests.schedule([
            SwitchPlanTests.dateRange("point", at: 12, "DURATION=5,X-RESUME-OFFSET=0,X-ASSET-URI=\"ads/p.m3u8\""),
            SwitchPlanTests.dateRange("a", at: 30, "DURATION=4,X-RESUME-OFFSET=0,X-ASSET-URI=\"ads/a.m3u8\""),
            SwitchPlanTests.dateRange("b", at: 30, "DURATION=6,X-RESUME-OFFSET=0,X-ASSET-URI=\"ads/b.m3u8\""),
        ])
        return SwitchPlan(schedule: schedule, baseURI: SwitchPlanTests.base)
    }

    static func ms(_ milliseconds: Int64) -> MediaTime { MediaTime(value: milliseconds, timescale: 1000) }

    static func playing(_ position: IntegratedTimeline.Position, rate: Double = 1) -> GroupFollower.Reference {
        GroupFollower.Reference(position: position, isPlaying: true, rate: rate)
    }

    static func video(_ milliseconds: Int64, isPlaying: Bool = true, rate: Double = 1) -> GroupFollower.Video {
        .primary(ms(milliseconds), isPlaying: isPlaying, rate: rate)
    }

    @Test("the video plays when the reference plays and pauses when it pauses or the group waits")
    func playAndPause() throws {
        var follower = GroupFollower(plan: try Self.plan())
        #expect(follower.decide(reference: Self.playing(.primary(Self.ms(5_000))), video: Self.video(5_000, isPlaying: false), at: .zero) == [.play])
        let waiting = GroupFollower.Reference(position: .primary(Self.ms(5_000)), isPlaying: false)
        #expect(follower.decide(reference: waiting, video: Self.video(5_000), at: .seconds(1)) == [.pause])
        #expect(follower.decide(reference: waiting, video: Self.video(5_000, isPlaying: false), at: .seconds(2)) == [])
        #expect(follower.decide(reference: waiting, video: .loading, at: .seconds(3)) == [], "nothing to command before primary reports")
    }

    @Test("primary within 250 ms either way is left alone; further off, the playing video seeks to the reference plus the seek's cost, a paused one exactly to it")
    func seeksPastTheThreshold() throws {
        let plan = try Self.plan()
        for offset: Int64 in [-250, -100, 0, 100, 250] {
            var follower = GroupFollower(plan: plan)
            #expect(follower.decide(reference: Self.playing(.primary(Self.ms(5_000))), video: Self.video(5_000 + offset), at: .zero) == [], "\(offset) ms")
        }
        for offset: Int64 in [-251, -2_000, 251, 9_000] {
            var follower = GroupFollower(plan: plan)
            #expect(follower.decide(reference: Self.playing(.primary(Self.ms(5_000))), video: Self.video(5_000 + offset), at: .zero)
                == [.seekPrimary(to: Self.ms(5_030))], "\(offset) ms")
        }
        var follower = GroupFollower(plan: plan)
        let paused = GroupFollower.Reference(position: .primary(Self.ms(20_000)), isPlaying: false)
        #expect(follower.decide(reference: paused, video: Self.video(5_000, isPlaying: false), at: .zero) == [.seekPrimary(to: Self.ms(20_000))])
    }

    @Test("an offset under the threshold but over 100 ms that lasts 2 s is sought away too; one that comes and goes is not")
    func steadyOffset() throws {
        var follower = GroupFollower(plan: try Self.plan())
        func decide(_ reference: Int64, _ video: Int64, at milliseconds: Int64) -> [GroupFollower.Action] {
            follower.decide(reference: Self.playing(.primary(Self.ms(reference))), video: Self.video(video), at: .milliseconds(milliseconds))
        }
        #expect(decide(5_000, 4_800, at: 0) == [])
        #expect(decide(6_000, 5_800, at: 1_000) == [])
        #expect(decide(6_900, 6_850, at: 1_900) == [], "back within 100 ms: the count starts again")
        #expect(decide(7_000, 6_800, at: 2_000) == [])
        #expect(decide(8_900, 8_700, at: 3_900) == [])
        #expect(decide(9_000, 8_800, at: 4_000) == [.seekPrimary(to: Self.ms(9_030))], "200 ms behind for 2 s")
    }

    @Test("after a seek the video's position is left to settle for a second: only play and pause are followed meanwhile")
    func settles() throws {
        var follower = GroupFollower(plan: try Self.plan())
        let reference = Self.playing(.primary(Self.ms(20_000)))
        #expect(follower.decide(reference: reference, video: Self.video(5_000), at: .zero) == [.seekPrimary(to: Self.ms(20_030))])
        #expect(follower.decide(reference: reference, video: Self.video(5_100), at: .milliseconds(500)) == [], "the old position, still")
        let paused = GroupFollower.Reference(position: .primary(Self.ms(20_000)), isPlaying: false)
        #expect(follower.decide(reference: paused, video: Self.video(5_200), at: .milliseconds(900)) == [.pause])
        #expect(follower.decide(reference: reference, video: Self.video(19_000, isPlaying: false), at: .milliseconds(1_000))
            == [.play, .seekPrimary(to: Self.ms(20_030))], "settled: still off, so again")
    }

    @Test("the seek's lead is learned: a video that landed 40 ms behind aims 40 ms further ahead next time, one that landed ahead less far, never below zero")
    func learnsTheSeekLead() throws {
        var follower = GroupFollower(plan: try Self.plan())
        #expect(follower.decide(reference: Self.playing(.primary(Self.ms(10_000))), video: Self.video(5_000), at: .zero) == [.seekPrimary(to: Self.ms(10_030))])
        // A second later the reference is at 11 s and the video at 10.96 s: 40 ms behind.
        #expect(follower.decide(reference: Self.playing(.primary(Self.ms(11_000))), video: Self.video(10_960), at: .seconds(1)) == [])
        #expect(follower.seekLead == Self.ms(70))
        #expect(follower.decide(reference: Self.playing(.primary(Self.ms(20_000))), video: Self.video(12_000), at: .seconds(2)) == [.seekPrimary(to: Self.ms(20_070))])
        #expect(follower.decide(reference: Self.playing(.primary(Self.ms(21_000))), video: Self.video(21_100), at: .seconds(3)) == [])
        #expect(follower.seekLead == .zero, "100 ms ahead: the lead of 70 ms was all too much")
        // A seek of a paused video teaches nothing: it lands where it was sent.
        let paused = GroupFollower.Reference(position: .primary(Self.ms(30_000)), isPlaying: false)
        #expect(follower.decide(reference: paused, video: Self.video(21_000, isPlaying: false), at: .seconds(4)) == [.seekPrimary(to: Self.ms(30_000))])
        #expect(follower.decide(reference: paused, video: Self.video(30_000, isPlaying: false), at: .seconds(5)) == [])
        #expect(follower.seekLead == .zero)
    }

    @Test("a reference at another rate sets the video's, without waiting to settle; the coordinator's drift nudges do not")
    func rate() throws {
        var nudged = GroupFollower(plan: try Self.plan())
        #expect(nudged.decide(reference: Self.playing(.primary(Self.ms(5_000)), rate: 0.999_995_9), video: Self.video(5_000), at: .zero) == [])
        var follower = GroupFollower(plan: try Self.plan())
        #expect(follower.decide(reference: Self.playing(.primary(Self.ms(5_000)), rate: 2), video: Self.video(5_000), at: .zero) == [.setRate(2)])
        #expect(follower.decide(reference: Self.playing(.primary(Self.ms(5_100)), rate: 2), video: Self.video(5_000, rate: 2), at: .milliseconds(100)) == [])
        #expect(follower.decide(reference: Self.playing(.primary(Self.ms(9_000)), rate: 2), video: Self.video(5_000), at: .milliseconds(200))
            == [.setRate(2), .seekPrimary(to: Self.ms(9_060))], "the lead scales with the rate")
    }

    @Test("the reference entering a break the video is about to reach is left to the video's schedule; further behind, the video plays the break at the reference's offset")
    func entersBreak() throws {
        let plan = try Self.plan()
        var follower = GroupFollower(plan: plan)
        // The video 150 ms short of the start, the reference 50 ms into the break: 200 ms behind.
        #expect(follower.decide(reference: Self.playing(.interstitial(eventID: "point", offset: Self.ms(50))), video: Self.video(11_850), at: .zero) == [])
        // 200 ms short and 100 ms in: 300 ms behind.
        #expect(follower.decide(reference: Self.playing(.interstitial(eventID: "point", offset: Self.ms(100))), video: Self.video(11_800), at: .zero)
            == [.playBreak(eventID: "point", offset: Self.ms(100))])
        var later = GroupFollower(plan: plan)
        #expect(later.decide(reference: Self.playing(.interstitial(eventID: "point", offset: Self.ms(2_000))), video: Self.video(3_000), at: .zero)
            == [.playBreak(eventID: "point", offset: Self.ms(2_000))], "sought into the break")
        var past = GroupFollower(plan: plan)
        #expect(past.decide(reference: Self.playing(.interstitial(eventID: "point", offset: Self.ms(10))), video: Self.video(12_100), at: .zero)
            == [.playBreak(eventID: "point", offset: Self.ms(10))], "the video is past the start: its switcher would miss it")
        var pod = GroupFollower(plan: plan)
        // The second event of the pod starts 4 s into it: the video is that much further behind.
        #expect(pod.decide(reference: Self.playing(.interstitial(eventID: "b", offset: .zero)), video: Self.video(29_900), at: .zero)
            == [.playBreak(eventID: "b", offset: .zero)])
        var ending = GroupFollower(plan: plan)
        #expect(ending.decide(reference: Self.playing(.interstitial(eventID: "point", offset: Self.ms(4_100))), video: Self.video(12_000), at: .zero) == [],
                "less than a second of the break left, and the video where it resumes (it has played the break): it waits there")
        var far = GroupFollower(plan: plan)
        #expect(far.decide(reference: Self.playing(.interstitial(eventID: "point", offset: Self.ms(4_100))), video: Self.video(3_000), at: .zero)
            == [.seekPrimary(to: Self.ms(12_000))], "too little left to enter: the video goes where the break resumes")
        var unknown = GroupFollower(plan: plan)
        #expect(unknown.decide(reference: Self.playing(.interstitial(eventID: "elsewhere", offset: .zero)), video: Self.video(5_000), at: .zero) == [],
                "a break the video's plan does not play: primary plays on until the reference is back")
    }

    @Test("a break the reference has left, or never entered, ends early, and primary goes on to the reference when it is not where the break resumes; a break it is about to enter, or plays, goes on")
    func leavesBreak() throws {
        let plan = try Self.plan()
        let point = try #require(plan.items.first)
        let pod = try #require(plan.items.last)
        func decide(_ reference: IntegratedTimeline.Position, in item: SwitchPlan.Item) -> [GroupFollower.Action] {
            var follower = GroupFollower(plan: plan)
            return follower.decide(reference: Self.playing(reference), video: .inBreak(item, isPlaying: true), at: .zero)
        }
        #expect(decide(.interstitial(eventID: "point", offset: Self.ms(3_000)), in: point) == [])
        #expect(decide(.interstitial(eventID: "b", offset: Self.ms(1_000)), in: pod) == [], "one of the pod's events")
        #expect(decide(.primary(Self.ms(11_800)), in: point) == [], "the reference 200 ms short of the break")
        #expect(decide(.primary(Self.ms(12_000)), in: point) == [.endBreak], "back from the break")
        #expect(decide(.primary(Self.ms(12_200)), in: point) == [.endBreak], "back, within 250 ms of where it resumes")
        #expect(decide(.primary(Self.ms(11_700)), in: point) == [.endBreak, .seekPrimary(to: Self.ms(11_730))], "sought back before it")
        #expect(decide(.primary(Self.ms(17_000)), in: point) == [.endBreak, .seekPrimary(to: Self.ms(17_030))], "the group went on meanwhile (ad watchers catch up)")
        #expect(decide(.interstitial(eventID: "a", offset: .zero), in: point) == [.endBreak], "in another break")
    }

    /// Every combination on a grid of reference and video positions, playing or not: the rules
    /// that hold whatever the case.
    @Test("across a grid of positions: play and pause always follow, primary never drifts past the threshold unsought, a break is never ended while the reference plays it")
    func grid() throws {
        let plan = try Self.plan()
        let times: [Int64] = [0, 5_000, 11_700, 11_800, 11_900, 12_000, 12_200, 12_300, 17_000, 29_900, 30_000, 35_000]
        var references: [IntegratedTimeline.Position] = times.map { .primary(Self.ms($0)) }
        for (id, offset) in [("point", 0), ("point", 100), ("point", 4_000), ("a", 0), ("a", 3_000), ("b", 50), ("b", 5_000)] as [(String, Int64)] {
            references.append(.interstitial(eventID: id, offset: Self.ms(offset)))
        }
        var videos: [GroupFollower.Video] = [.loading]
        for isPlaying in [true, false] {
            videos += times.map { Self.video($0, isPlaying: isPlaying) }
            videos += plan.items.map { .inBreak($0, isPlaying: isPlaying) }
        }
        var cases = 0
        for position in references {
            for isPlaying in [true, false] {
                let reference = GroupFollower.Reference(position: position, isPlaying: isPlaying)
                for video in videos {
                    var follower = GroupFollower(plan: plan)
                    let actions = follower.decide(reference: reference, video: video, at: .zero)
                    cases += 1
                    let context = Comment(rawValue: "\(reference) / \(video): \(actions)")
                    switch video {
                    case .loading:
                        #expect(actions.isEmpty, context)
                        continue
                    case .primary(let time, let videoPlays, _):
                        #expect(actions.contains(.play) == (isPlaying && !videoPlays), context)
                        #expect(actions.contains(.pause) == (!isPlaying && videoPlays), context)
                        #expect(!actions.contains(.endBreak), context)
                        if case .primary(let target) = position {
                            let isOff = target - time > Self.ms(250) || time - target > Self.ms(250)
                            #expect(actions.contains { if case .seekPrimary = $0 { true } else { false } } == isOff, context)
                        }
                    case .inBreak(let item, let videoPlays):
                        #expect(actions.contains(.play) == (isPlaying && !videoPlays), context)
                        let seeks = actions.contains { if case .seekPrimary = $0 { true } else { false } }
                        switch position {
                        case .interstitial(let id, _):
                            #expect(actions.contains(.endBreak) == !item.eventIDs.contains(id), context)
                            #expect(!seeks, context)
                        case .primary(let target):
                            // A seek only after an end, and only from afar.
                            let resumption = item.scheduledBreak.resumptionPoint
                            let isOff = target - resumption > Self.ms(250) || resumption - target > Self.ms(250)
                            #expect(!seeks || (actions.contains(.endBreak) && isOff), context)
                        }
                    }
                    #expect(actions.count == Set(actions).count, context)
                }
            }
        }
        #expect(cases == references.count * 2 * videos.count)
    }
}
