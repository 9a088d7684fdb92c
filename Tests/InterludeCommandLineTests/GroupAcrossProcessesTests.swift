import Foundation
import Testing
import TestSupport

extension Tag {
    /// Tests that run the built binaries as separate processes over loopback, in real time
    /// (minutes, not seconds): `swift test --filter GroupAcrossProcessesTests` runs them alone,
    /// `swift test --skip GroupAcrossProcessesTests` leaves them out.
    @Tag static var integration: Self
}

/// The WWDC22 SharePlay example's experiences of watching together (who waits, who catches up, by
/// how much, as `interlude simulate` shows them) across real processes: an `interlude origin` with
/// per-viewer ads, an `interlude serve` and three `interlude join`s, one premium (alice), one with
/// a 5-second ad (bob), one with a 10-second ad (charlie), in real time. Each test starts every
/// process itself, on ports the kernel picks, stops each by its pid, and reads the participants'
/// traces, which are timed by the same real-time clock. About two and a half minutes in all.
@Suite("Watch together across processes", .serialized, .tags(.integration))
struct GroupAcrossProcessesTests {
    /// The stream the group watches.
    enum Stream: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case vod
        case live

        var path: String { self == .vod ? "vod/movie/{viewer}/main.m3u8" : "live/channel/{viewer}/main.m3u8" }
        /// Where the break sits on the primary timeline (seconds).
        var breakPosition: Double { self == .vod ? 8 : 24 }
        /// How long each participant stays (seconds): past the break, the longest ad and a few
        /// seconds in step.
        var durationSeconds: Int { self == .vod ? 26 : 30 }
        var testDescription: String { self == .vod ? "VOD" : "live" }
    }

    /// Each viewer's ads at the break (seconds).
    static let adSeconds = ["alice": 0.0, "bob": 5, "charlie": 10]
    static let longestAd = 10.0

    /// The origin: `movie`, 40 s of VOD with one break at 8 s; `channel`, live since `liveStart`
    /// with a break at 24 s, which a participant joining now reaches after 4 to 12 s (it starts
    /// three segments behind the live edge, at 16 or 20 s). Alice and dana are premium.
    static func originConfiguration(liveStart: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return """
            {
              "content": { "media": "content", "codecs": "avc1.42C00C,mp4a.40.2", "resolution": "320x180", "frameRate": 25 },
              "programDateTime": "2026-01-01T00:00:00.000Z",
              "ads": [ { "id": "spot-5s", "media": "ads/ad-5s" }, { "id": "spot-10s", "media": "ads/ad-10s" } ],
              "viewers": [
                { "id": "alice", "premium": true }, { "id": "bob", "pod": ["spot-5s"] },
                { "id": "charlie", "pod": ["spot-10s"] }, { "id": "dana", "premium": true }
              ],
              "streams": [
                { "id": "movie", "kind": "vod", "mode": "interstitials", "durationSeconds": 40,
                  "breaks": [ { "id": "mid-1", "positionSeconds": 8,
                    "dateRange": { "PLANNED-DURATION": 10, "X-RESUME-OFFSET": 0, "X-RESTRICT": ["SKIP"], "X-TIMELINE-OCCUPIES": "RANGE" } } ] },
                { "id": "channel", "kind": "live", "mode": "interstitials", "windowSeconds": 60,
                  "startDate": "\(formatter.string(from: liveStart))",
                  "repeatingBreak": { "id": "ad", "firstAtSeconds": 24, "everySeconds": 600,
                    "dateRange": { "PLANNED-DURATION": 10, "X-RESTRICT": ["SKIP"], "X-SNAP": ["OUT", "IN"], "X-TIMELINE-OCCUPIES": "RANGE" } } }
              ]
            }
            """
    }

    /// Runs alice (owner), bob (controller) and charlie (viewer) on `stream` under `policy` to the
    /// end of their `--duration`, and returns their traces.
    private func watch(_ stream: Stream, policy: String) async throws -> [JoinTraceRecording] {
        let rig = try GroupAcrossProcessesRig()
        // 29.5 s before the joins load the playlist, give or take: three segments behind the edge
        // is 16 or 20 s, before the break at 24 s.
        try rig.startOrigin(configuration: Self.originConfiguration(liveStart: Date(timeIntervalSinceNow: -29.5)))
        try rig.startServer()
        let invitations = try await rig.createSession(stream: stream.path)
        try rig.join(invitations.owner, name: "alice", policy: policy, duration: stream.durationSeconds)
        try rig.join(invitations.controller, name: "bob", policy: policy, duration: stream.durationSeconds)
        try rig.join(invitations.viewer, name: "charlie", policy: policy, duration: stream.durationSeconds)
        let statuses = rig.waitForParticipants(until: .now + .seconds(stream.durationSeconds + 20))
        rig.stop()
        for name in ["alice", "bob", "charlie"] {
            #expect(statuses[name] == 0, "\(name) exited with \(statuses[name] ?? -1): \(rig.log(name))")
        }
        return try ["alice", "bob", "charlie"].map { try rig.trace($0) }
    }

    /// The largest position difference between `a` and `b` at every 100 ms from `start` to `end`
    /// where both play steadily, and how many instants were compared.
    static func largestDifference(_ a: JoinTraceRecording, _ b: JoinTraceRecording, from start: Double, to end: Double) -> (seconds: Double, count: Int) {
        var largest = 0.0
        var count = 0
        var time = start
        while time < end {
            if let p = a.position(at: time), let q = b.position(at: time) {
                largest = max(largest, abs(p - q))
                count += 1
            }
            time += 0.1
        }
        return (largest, count)
    }

    /// A failure's comment: `message`, then what each trace holds.
    static func explaining(_ traces: [JoinTraceRecording]) -> (String) -> Comment {
        let summary = traces.map(\.summary).joined(separator: "\n")
        return { message in Comment(rawValue: message.isEmpty ? summary : message + "\n" + summary) }
    }

    /// When comparisons stop: a little before the first participant leaves (the others re-anchor
    /// then) or the first trace ends.
    static func comparisonEnd(_ traces: [JoinTraceRecording]) -> Double {
        traces.map { min($0.firstDepartureSeen ?? .infinity, $0.samples.last?.time ?? 0) }.min()! - 0.3
    }

    /// Checks that every two participants are within 50 ms of each other wherever both play once
    /// all are in the group, and over at least three seconds from `settled` on.
    static func expectInStep(_ traces: [JoinTraceRecording], settled: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        let start = traces.map { $0.coordinatedAt ?? .infinity }.max()! + 0.5
        let end = comparisonEnd(traces)
        for (i, a) in traces.enumerated() {
            for b in traces[(i + 1)...] {
                let overall = largestDifference(a, b, from: start, to: end)
                #expect(overall.seconds < 0.05, "\(a.name) and \(b.name) are \(Int(overall.seconds * 1000)) ms apart", sourceLocation: sourceLocation)
                let after = largestDifference(a, b, from: settled, to: end)
                #expect(after.count >= 30, "\(a.name) and \(b.name) play together only \(after.count) × 100 ms after \(settled) s", sourceLocation: sourceLocation)
            }
        }
    }

    @Test("default policy: the premium participant plays on; each ad watcher plays its own ad, skips as much content and comes back in step", arguments: Stream.allCases)
    func adWatchersCatchUp(_ stream: Stream) async throws {
        let traces = try await watch(stream, policy: "default")
        let (alice, bob, charlie) = (traces[0], traces[1], traces[2])
        let why = Self.explaining(traces)
        let end = Self.comparisonEnd(traces)

        let aliceStart = try #require(alice.coordinatedAt.flatMap { alice.firstPlayingSample(after: $0) }, why(""))
        #expect(alice.breakStays.isEmpty, why(""))
        #expect(alice.waitsForOthers.isEmpty, why(""))
        let aliceSamples = alice.samples.filter { $0.time >= aliceStart.time + 0.3 && $0.time <= end }
        #expect(aliceSamples.allSatisfy { $0.group != "waiting" }, why(""))
        let unsteady = zip(aliceSamples, aliceSamples.dropFirst()).first { sample, next in
            abs(((next.primary ?? -1) - (sample.primary ?? 0)) - (next.time - sample.time)) >= 0.05
        }
        #expect(unsteady == nil, why("alice stood still or jumped at \(unsteady?.0.time ?? 0) s"))

        var returns: [Double] = []
        for watcher in [bob, charlie] {
            let ad = try #require(Self.adSeconds[watcher.name])
            let stays = watcher.breakStays
            #expect(stays.count == 1, why(""))
            let stay = try #require(stays.first, why(""))
            #expect(stay.contentBefore > stream.breakPosition - 0.15 && stay.contentBefore <= stream.breakPosition + 0.01, why("\(watcher.name) left the content at \(stay.contentBefore) s"))
            #expect(abs(stay.duration - ad) < 0.5, why("\(watcher.name) was in the break \(stay.duration) s"))
            let skipped = stay.contentSettled - stream.breakPosition
            #expect(abs(skipped - ad) < 0.5, why("\(watcher.name) skipped \(skipped) s of content (its first sample after the break: \(stay.contentAfter) s)"))
            #expect(watcher.waitsForOthers.isEmpty, why(""))
            returns.append(stay.end)
        }
        Self.expectInStep(traces, settled: try #require(returns.max()) + 0.5)
    }

    @Test("waiting policy: everyone is held until the longest ad ends, then all go on from the break together, nobody skipping", arguments: Stream.allCases)
    func groupWaitsForAds(_ stream: Stream) async throws {
        let traces = try await watch(stream, policy: "waiting")
        let (alice, bob, charlie) = (traces[0], traces[1], traces[2])
        let why = Self.explaining(traces)

        #expect(alice.breakStays.isEmpty, why(""))
        let waits = alice.waitsForOthers
        #expect(waits.count == 1, why(""))
        let wait = try #require(waits.first, why(""))
        #expect(abs((wait.end - wait.start) - Self.longestAd) < 1, why("alice waited \(wait.end - wait.start) s"))

        for watcher in [bob, charlie] {
            let ad = try #require(Self.adSeconds[watcher.name])
            let stay = try #require(watcher.breakStays.first, why(""))
            #expect(watcher.breakStays.count == 1, why(""))
            #expect(stay.contentBefore > stream.breakPosition - 0.15 && stay.contentBefore <= stream.breakPosition + 0.01, why("\(watcher.name) left the content at \(stay.contentBefore) s"))
            #expect(abs(stay.start - wait.start) < 0.3, why("\(watcher.name)'s break began \(stay.start - wait.start) s after alice's wait"))
            #expect(abs(stay.duration - ad) < 0.5, why("\(watcher.name) was in the break \(stay.duration) s"))
        }
        // Bob, back first, waits with alice for charlie's longer ad.
        let bobWait = try #require(bob.waitsForOthers.first, why(""))
        let bobStay = try #require(bob.breakStays.first)
        #expect(abs(bobWait.start - bobStay.end) < 0.3, why("bob began to wait \(bobWait.start - bobStay.end) s after his ad"))
        #expect(abs(bobWait.end - wait.end) < 0.3, why("bob's wait ended \(bobWait.end - wait.end) s after alice's"))

        var resumed: [Double] = []
        for trace in traces {
            let first = try #require(trace.firstPlayingSample(after: wait.end - 0.5), why(""))
            let position = try #require(first.primary)
            #expect(abs(position - stream.breakPosition) < 0.5, why("\(trace.name) went on from \(position) s"))
            resumed.append(first.time)
        }
        #expect(resumed.max()! - resumed.min()! < 0.3, why("the group went on at \(resumed)"))
        Self.expectInStep(traces, settled: resumed.max()! + 0.3)
    }

    /// Where the server keeps its sessions.
    enum Store: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case sqlite
        case redis
        var testDescription: String { self == .sqlite ? "SQLite" : "Redis" }
    }

    @Test("a server killed with SIGKILL and restarted on the same store: nobody is reset, the acknowledged seek holds, everyone goes on in step", arguments: Store.allCases)
    func serverKilledAndRestarted(store: Store) async throws {
        let redis = store == .redis ? try RedisServer() : nil
        let rig = try GroupAcrossProcessesRig()
        try rig.startOrigin(configuration: Self.originConfiguration(liveStart: Date()))
        try rig.startServer(redis: redis?.url)
        let invitations = try await rig.createSession(stream: Stream.vod.path)
        let duration = 20
        // Alice seeks the group to 20 s, past the break, 4 s after she starts.
        try rig.join(invitations.owner, name: "alice", duration: duration, actions: ["4:seek:20"])
        try rig.join(invitations.controller, name: "bob", duration: duration)
        try rig.join(invitations.viewer, name: "charlie", duration: duration)

        // The seek is acknowledged once the server has committed it; its log line follows the commit.
        let committed = rig.waitForServerLine(until: .now + .seconds(15)) { line in
            guard line.contains(#""event":"playback.changed""#), let range = line.range(of: #""time":""#) else { return false }
            return Double(line[range.upperBound...].prefix { $0 != "\"" }).map { abs($0 - 20) < 0.2 } ?? false
        }
        try #require(committed, "the server never committed the seek: \(rig.serverText)")
        try await Task.sleep(for: .seconds(1))
        let killedAt = rig.now
        #expect(rig.killServer() == SIGKILL)
        try await Task.sleep(for: .seconds(1))
        let port = rig.serverPort
        try rig.startServer(port: port, redis: redis?.url)
        let restartedAt = rig.now
        // SQLite restores every session at start; the Redis store loads a session when its first
        // participant comes back.
        #expect(rig.serverText.contains(store == .sqlite ? "(1 restored)" : "(shared; "), "\(rig.serverText)")
        // A newcomer after the restart learns the group's state from the restored session alone.
        try await Task.sleep(for: .seconds(2))
        try rig.join(invitations.viewer, name: "dana", duration: 8)

        let statuses = rig.waitForParticipants(until: .now + .seconds(duration + 20))
        rig.stop()
        for name in ["alice", "bob", "charlie", "dana"] {
            #expect(statuses[name] == 0, "\(name) exited with \(statuses[name] ?? -1): \(rig.log(name))")
        }
        let traces = try ["alice", "bob", "charlie"].map { try rig.trace($0) }
        let dana = try rig.trace("dana")
        let why = Self.explaining(traces + [dana])
        let seekAt = try #require(traces[0].firstEvent("action")?.time, why(""))
        let end = Self.comparisonEnd(traces)

        for trace in traces {
            let resumed = try #require(trace.firstEvent("resumed", after: killedAt), why("\(trace.name) never resumed"))
            #expect(resumed.time < restartedAt + 3, why("\(trace.name) resumed \(resumed.time - restartedAt) s after the restart"))
            #expect(trace.firstEvent("disconnected", after: killedAt) != nil, why(""))
            // From the seek on, the content runs with real time through the outage: no reset to
            // the start, no second seek, no stop.
            let sought = try #require(trace.firstEvent("playerCommand", after: seekAt), why("\(trace.name) never followed the seek"))
            let start = try #require(trace.firstPlayingSample(after: sought.time), why(""))
            let anchor = try #require(start.primary)
            #expect(abs(anchor - 20) < 0.3, why("\(trace.name) went on from \(anchor) s after the seek"))
            let astray = trace.samples.first { sample in
                sample.time > start.time && sample.time <= end && sample.primary.map { abs($0 - (anchor + sample.time - start.time)) >= 0.3 } ?? true
            }
            #expect(astray == nil, why("\(trace.name) was at \(astray?.primary.map { "\($0) s" } ?? "a break") at \(astray?.time ?? 0) s, not with the content since the seek"))
        }
        Self.expectInStep(traces, settled: restartedAt + 1)

        let danaStart = try #require(dana.coordinatedAt, why(""))
        let danaEnd = min(end, (dana.samples.last?.time ?? 0) - 0.3)
        let joined = Self.largestDifference(dana, traces[0], from: danaStart + 0.5, to: danaEnd)
        #expect(joined.count >= 30, why("dana played with alice only \(joined.count) × 100 ms"))
        #expect(joined.seconds < 0.05, why("dana is \(Int(joined.seconds * 1000)) ms from alice"))
    }
}
