import InterludeCommandLine

/// `interlude join --trace` lines written by hand for the demo's pure tests: a participant's
/// welcome, its first coordinator command half a second in, then ten samples a second (30 ms off
/// the demo's 100 ms grid), each from what `at` says the player was doing at that second.
struct DemoTraceFixture {
    /// What a participant's player reports at a time.
    struct Moment {
        var primary: Double?
        var breakID: String?
        var offset: Double?
        var status = "playing"
        var group = "playing"
        var waitingFor: [String] = []
        var rate = 1.0

        static func playing(_ primary: Double) -> Moment { Moment(primary: primary) }
        static func inBreak(_ id: String, offset: Double) -> Moment {
            Moment(breakID: id, offset: offset, status: "waiting (interstitialEvent)")
        }
        static func waiting(at primary: Double, for whom: [String]) -> Moment {
            Moment(primary: primary, status: "waiting (waitingForCoordinatedPlayback)", group: "waiting", waitingFor: whom)
        }
    }

    /// The story's start, CLOCK_REALTIME ns.
    static let start: Int64 = 1_800_000_000_000_000_000

    /// The time `seconds` into the story, ns.
    static func time(_ seconds: Double) -> Int64 { start + Int64((seconds * 1e9).rounded()) }

    /// The lines of participant `id` (`p1`, …) from the start to `until` seconds; `events` are
    /// extra event lines (at a time, the JSON fields after `"t"`).
    static func text(id: String, role: String = "viewer", until: Double, events: [(Double, String)] = [], _ at: (Double) -> Moment) -> String {
        var lines: [(Int64, String)] = [
            (time(0.01), #""event":"welcomed","participant":"\#(id)","role":"\#(role)","version":1"#),
            (time(0.5), #""command":"play(rate: 1.0)","event":"playerCommand","originator":"""#),
        ]
        lines += events.map { (time($0.0), $0.1) }
        var seconds = 0.03
        while seconds <= until {
            let moment = at(seconds)
            var fields = [#""participant":"\#(id)""#, #""rate":\#(moment.rate)"#, #""status":"\#(moment.status)""#, #""group":"\#(moment.group)""#]
            if let primary = moment.primary { fields.append(#""primary":\#(primary)"#) }
            if let id = moment.breakID { fields.append(#""break":"\#(id)""#) }
            if let offset = moment.offset { fields.append(#""offset":\#(offset)"#) }
            if !moment.waitingFor.isEmpty { fields.append(#""waitingFor":[\#(moment.waitingFor.map { "\"\($0)\"" }.joined(separator: ","))]"#) }
            lines.append((time(seconds), #""sample":{\#(fields.joined(separator: ","))}"#))
            seconds += 0.1
        }
        return lines.sorted { $0.0 < $1.0 }.map { "{\"t\":\($0.0),\($0.1)}\n" }.joined()
    }

    /// The participant's trace, read.
    static func trace(id: String, role: String = "viewer", until: Double, events: [(Double, String)] = [], _ at: (Double) -> Moment) -> DemoTrace {
        DemoTrace(text: text(id: id, role: role, until: until, events: events, at))
    }

    // MARK: Two stories

    /// Live, default policy, 40 s: alice plays on; bob plays a 15 s ad from 10 s and comes back
    /// 15 s further on, 4 ms ahead of alice.
    static func liveStory() -> [DemoMeasurement.Participant] {
        let alice = trace(id: "p1", role: "owner", until: 40) { .playing(50 + $0) }
        let bob = trace(id: "p2", role: "controller", until: 40) { t in
            t < 10 ? .playing(50.004 + t) : t < 25 ? .inBreak("ad-2", offset: t - 10) : .playing(50.004 + t)
        }
        return [.init(name: "alice", url: "http://127.0.0.1/live/channel/alice/main.m3u8", trace: alice),
                .init(name: "bob", url: "http://127.0.0.1/live/channel/bob/main.m3u8", trace: bob)]
    }

    /// On demand, waiting policy, 40 s: bob plays a 15 s ad at 10 s; alice waits for him until
    /// 25.3 s, he waits the last 0.3 s, then both go on from 10 s.
    static func waitingStory() -> [DemoMeasurement.Participant] {
        let alice = trace(id: "p1", role: "owner", until: 40, events: [(10.0, #""event":"groupWait","waitingFor":["p2"]"#), (25.3, #""event":"groupWait","waitingFor":[]"#)]) { t in
            t < 10 ? .playing(t) : t < 25.3 ? .waiting(at: 10, for: ["p2"]) : .playing(t - 15.3)
        }
        let bob = trace(id: "p2", role: "controller", until: 40) { t in
            t < 10 ? .playing(t) : t < 25 ? .inBreak("mid-1", offset: t - 10) : t < 25.3 ? .waiting(at: 10, for: []) : .playing(t - 15.3)
        }
        return [.init(name: "alice", url: "http://127.0.0.1/vod/movie/alice/main.m3u8", trace: alice),
                .init(name: "bob", url: "http://127.0.0.1/vod/movie/bob/main.m3u8", trace: bob)]
    }
}
