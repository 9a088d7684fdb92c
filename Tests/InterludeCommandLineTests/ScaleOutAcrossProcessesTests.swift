import Foundation
import Glibc
import Testing
import TestSupport

/// Two `interlude serve` processes sharing one redis-server, with an origin and three `interlude
/// join`s spread over them, in real time: a server killed with SIGKILL loses nobody.
@Suite("Group servers sharing Redis, across processes", .serialized, .tags(.integration))
struct ScaleOutAcrossProcessesTests {
    @Test("one of two servers killed with SIGKILL: its participants resume on the other, the group stays in step; one that cannot reach the other is marked lost once")
    func serverKilledOthersServe() async throws {
        let redis = try RedisServer()
        let rig = try GroupAcrossProcessesRig()
        try rig.startOrigin(configuration: GroupAcrossProcessesTests.originConfiguration(liveStart: Date()))
        try rig.startSharedServer(node: "a", redis: redis.url)
        try rig.startSharedServer(node: "b", redis: redis.url)
        let invitations = try await rig.createSharedSession(stream: GroupAcrossProcessesTests.Stream.vod.path, nodes: ["a", "b"])
        let portA = try #require(rig.sharedPorts["a"])
        let portB = try #require(rig.sharedPorts["b"])
        #expect(invitations.owner.hasPrefix("http://127.0.0.1:\(portA)/join?server=http"), "\(invitations.owner)")
        // Bob's invitation names b first: he joins there; alice and charlie join on a.
        let token = invitations.controller.split(separator: "#", maxSplits: 1)[1]
        let bobInvitation = "http://127.0.0.1:\(portB)/join?server=http://127.0.0.1:\(portA)#\(token)"
        let duration = 20
        try rig.join(invitations.owner, name: "alice", duration: duration, actions: ["4:seek:20"])
        try rig.join(bobInvitation, name: "bob", duration: duration)
        try rig.join(invitations.viewer, name: "charlie", duration: duration)
        // Dana's invitation names only a: when a goes, she has nowhere to go, and b marks her lost
        // once a's heartbeat runs out.
        let viewerToken = invitations.viewer.split(separator: "#", maxSplits: 1)[1]
        try rig.join("http://127.0.0.1:\(portA)/join#\(viewerToken)", name: "dana", duration: 8)

        try await Task.sleep(for: .seconds(7))
        let killedAt = rig.now
        #expect(rig.killSharedServer("a") == SIGKILL)

        let statuses = rig.waitForParticipants(until: .now + .seconds(duration + 20))
        rig.stopSharedServers()
        rig.stop()
        redis.stop()
        #expect(statuses["dana"] != nil)
        for name in ["alice", "bob", "charlie"] {
            #expect(statuses[name] == 0, "\(name) exited with \(statuses[name] ?? -1): \(rig.log(name))")
        }
        let traces = try ["alice", "bob", "charlie"].map { try rig.trace($0) }
        let why = GroupAcrossProcessesTests.explaining(traces)
        let seekAt = try #require(traces[0].firstEvent("action")?.time, why("alice never sought"))
        #expect(seekAt < killedAt, why("the seek came after the kill"))
        for trace in [traces[0], traces[2]] {
            #expect(trace.firstEvent("disconnected", after: killedAt) != nil, why("\(trace.name) never saw its server go"))
            let resumed = try #require(trace.firstEvent("resumed", after: killedAt), why("\(trace.name) never resumed on the other server"))
            #expect(resumed.time < killedAt + 3, why("\(trace.name) resumed \(resumed.time - killedAt) s after the kill"))
        }
        #expect(traces[1].firstEvent("disconnected", after: killedAt) == nil, why("bob, on the server that stayed, was disconnected"))
        // Where the seek sent the group is checked, with both stores, by the test of a server
        // killed and restarted (GroupAcrossProcessesTests); here that nobody drifted from the others.
        GroupAcrossProcessesTests.expectInStep(traces, settled: killedAt + 2)
        // The survivor's log: alice and charlie resumed there; only dana, whose invitation names
        // no other server, was marked lost, once, after a's heartbeat ran out (5 s).
        let survivor = rig.sharedLog("b").split(separator: "\n")
        func participants(_ event: String, reason: String? = nil) -> [String] {
            survivor.filter { $0.contains(#""event":"\#(event)""#) && reason.map($0.contains) ?? true }.compactMap { line in
                line.range(of: #""participant":""#).map { String(line[$0.upperBound...].prefix { $0 != "\"" }) }
            }
        }
        let resumed = Set(participants("participant.resumed"))
        // Marked lost because its server stopped (a participant that ends its run by closing its
        // socket is lost too, "disconnected", and is not what this counts).
        let lost = participants("participant.lost", reason: "its server a stopped")
        #expect(resumed.count == 2, "\(survivor.joined(separator: "\n"))")
        #expect(lost.count == 1 && !resumed.contains(lost[0]), "lost: \(lost); resumed: \(resumed)")
        #expect(survivor.contains { $0.contains(#""event":"server.stopped""#) && $0.contains(#""nodes":"a""#) })
        if let line = survivor.first(where: { $0.contains(#""event":"participant.lost""#) && $0.contains("its server a stopped") }), let range = line.range(of: #""time_ms":"#) {
            let milliseconds = Double(line[range.upperBound...].prefix { $0.isNumber }) ?? 0
            let lostAt = (milliseconds * 1e6 - Double(rig.epoch)) / 1e9
            #expect(lostAt > killedAt + 3 && lostAt < killedAt + 8, "dana was marked lost \(lostAt - killedAt) s after the kill")
        }
    }
}
