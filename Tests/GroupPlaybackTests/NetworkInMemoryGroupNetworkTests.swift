import GroupCoordination
import GroupPlayback
import GroupPlaybackTesting
import GroupWire
import Synchronization
import Testing
import VirtualTime

/// Frames that arrived at a transport, with the virtual time they arrived at.
final class ArrivalLog: Sendable {
    struct Arrival: Sendable {
        var time: Duration
        var sender: PeerID
        var bytes: [UInt8]
    }

    private let storage = Mutex<[Arrival]>([])
    private let finished = Mutex(false)

    /// Starts recording what `transport` receives, on `executor`.
    init(_ transport: InMemoryGroupTransport, clock: ManualClock, executor: ManualTaskExecutor) {
        Task(executorPreference: executor) { [self] in
            for await frame in transport.incomingFrames {
                storage.withLock { $0.append(Arrival(time: clock.now.offset, sender: frame.sender, bytes: frame.bytes)) }
            }
            finished.withLock { $0 = true }
        }
    }

    var arrivals: [Arrival] { storage.withLock { $0 } }
    var isFinished: Bool { finished.withLock { $0 } }
    /// The first byte of each frame (the tests number their frames with it), in arrival order.
    var numbers: [Int] { arrivals.map { Int($0.bytes[0]) << 8 | Int($0.bytes[1]) } }
}

@Suite("In-memory group network")
struct NetworkInMemoryGroupNetworkTests {
    let clock = ManualClock()
    let executor = ManualTaskExecutor()
    var driver: VirtualTimeDriver { VirtualTimeDriver(clock: clock, executor: executor) }

    static func frame(_ number: Int) -> [UInt8] { [UInt8(number >> 8), UInt8(number & 0xFF)] }

    @Test("a frame arrives after the link's latency, within its jitter, and never earlier")
    func latencyAndJitter() {
        let network = InMemoryGroupNetwork(clock: clock, seed: 3, executor: executor)
        let a = network.join(as: 1), b = network.join(as: 2), c = network.join(as: 3)
        network.setConditions(LinkConditions(latency: .milliseconds(50)), from: 1, to: 2)
        network.setConditions(LinkConditions(latency: .milliseconds(50), jitter: .milliseconds(20)), from: 1, to: 3)
        let atB = ArrivalLog(b, clock: clock, executor: executor), atC = ArrivalLog(c, clock: clock, executor: executor)
        for number in 0..<200 {
            Task(executorPreference: executor) {
                try await a.send(Self.frame(number), to: 2)
                try await a.send(Self.frame(number), to: 3)
            }
        }
        driver.run(for: .milliseconds(49))
        #expect(atB.arrivals.isEmpty)
        driver.run(until: ManualClock.Instant(offset: .seconds(1)))
        #expect(atB.arrivals.count == 200)
        #expect(atB.arrivals.allSatisfy { $0.time == .milliseconds(50) && $0.sender == 1 })
        // Sent at once, they arrive in send order when the delays are equal.
        #expect(atB.numbers == Array(0..<200))
        let delays = atC.arrivals.map(\.time)
        #expect(delays.count == 200)
        #expect(delays.allSatisfy { $0 >= .milliseconds(30) && $0 <= .milliseconds(70) })
        // The jitter is spread over the whole band, not a constant.
        #expect(delays.min()! < .milliseconds(35) && delays.max()! > .milliseconds(65))
        #expect(network.statistics.framesDelivered == 400 && network.statistics.framesInFlight == 0)
    }

    @Test("loss drops the configured share of frames, the same ones for the same seed")
    func lossIsSeeded() {
        func run(seed: UInt64) -> (numbers: [Int], statistics: InMemoryGroupNetwork.Statistics) {
            let clock = ManualClock(), executor = ManualTaskExecutor()
            let network = InMemoryGroupNetwork(clock: clock, seed: seed, defaultConditions: LinkConditions(latency: .milliseconds(10), lossProbability: 0.1), executor: executor)
            let a = network.join(as: 1), b = network.join(as: 2)
            let log = ArrivalLog(b, clock: clock, executor: executor)
            for number in 0..<2000 {
                Task(executorPreference: executor) { try await a.send(Self.frame(number), to: 2) }
            }
            VirtualTimeDriver(clock: clock, executor: executor).run(for: .seconds(1))
            return (log.numbers, network.statistics)
        }
        let first = run(seed: 11), again = run(seed: 11), other = run(seed: 12)
        #expect(first.numbers == again.numbers)
        #expect(first.numbers != other.numbers)
        let lost = 2000 - first.numbers.count
        #expect(lost > 150 && lost < 250, "lost \(lost) of 2000 at 10%")
        #expect(first.statistics.framesDropped == lost)
        #expect(first.statistics.framesSent == 2000 && first.statistics.framesDelivered == first.numbers.count)
    }

    @Test("held-back frames are overtaken by later ones; an ordered link never reorders")
    func reordering() {
        let network = InMemoryGroupNetwork(clock: clock, seed: 5, executor: executor)
        let a = network.join(as: 1), b = network.join(as: 2), c = network.join(as: 3)
        let reordering = LinkConditions(latency: .milliseconds(20), reorderProbability: 0.2, reorderDelay: .milliseconds(100))
        network.setConditions(reordering, from: 1, to: 2)
        var ordered = reordering
        ordered.isOrdered = true
        network.setConditions(ordered, from: 1, to: 3)
        let atB = ArrivalLog(b, clock: clock, executor: executor), atC = ArrivalLog(c, clock: clock, executor: executor)
        for number in 0..<300 {
            Task(executorPreference: executor) {
                try await a.send(Self.frame(number), to: 2)
                try await a.send(Self.frame(number), to: 3)
            }
            driver.run(for: .milliseconds(10))
        }
        driver.run(for: .seconds(1))
        #expect(Set(atB.numbers) == Set(0..<300))
        let inversions = zip(atB.numbers, atB.numbers.dropFirst()).filter { $0 > $1 }.count
        #expect(inversions > 30, "\(inversions) frames overtaken")
        #expect(atC.numbers == Array(0..<300))
    }

    @Test("a partition cuts off frames sent across it and frames in flight when it begins; the isolated side still talks within itself; it heals")
    func partitions() {
        let network = InMemoryGroupNetwork(clock: clock, seed: 1, defaultConditions: LinkConditions(latency: .milliseconds(100)), executor: executor)
        let a = network.join(as: 1), b = network.join(as: 2), c = network.join(as: 3)
        let atA = ArrivalLog(a, clock: clock, executor: executor), atC = ArrivalLog(c, clock: clock, executor: executor)
        _ = b
        // Frame 0 leaves at 0 s and would arrive at 0.1 s, after the cut at 0.05 s.
        Task(executorPreference: executor) { try await a.send(Self.frame(0), to: 3) }
        driver.run(for: .milliseconds(50))
        network.addPartition(Partition(isolating: [2, 3], from: .milliseconds(50), until: .seconds(2)))
        #expect(network.isPartitioned(1, 3) && !network.isPartitioned(2, 3))
        Task(executorPreference: executor) {
            try await a.send(Self.frame(1), to: 3)    // across: lost
            try await b.send(Self.frame(2), to: 3)    // same side: arrives
        }
        driver.run(until: ManualClock.Instant(offset: .seconds(2)))
        #expect(!network.isPartitioned(1, 3))
        Task(executorPreference: executor) {
            try await a.send(Self.frame(3), to: 3)
            try await c.send(Self.frame(4), to: 1)
        }
        driver.run(for: .seconds(1))
        #expect(atC.numbers == [2, 3])
        #expect(atA.numbers == [4])
        #expect(network.statistics.framesPartitioned == 2)
        #expect(atC.arrivals.map(\.time) == [.milliseconds(150), .milliseconds(2100)])
    }

    @Test("a closed transport cannot send, its stream finishes, and frames on their way to it are lost; unknown peers are refused")
    func closing() async {
        let network = InMemoryGroupNetwork(clock: clock, seed: 1, defaultConditions: LinkConditions(latency: .milliseconds(100)), executor: executor)
        let a = network.join(as: 1), b = network.join(as: 2)
        let atB = ArrivalLog(b, clock: clock, executor: executor)
        await #expect(throws: InMemoryGroupTransportError.unknownPeer(9)) { try await a.send([1], to: 9) }
        try? await a.send([0, 1], to: 2)
        driver.run(for: .milliseconds(50))
        b.close()
        driver.run(for: .seconds(1))
        #expect(atB.isFinished && atB.arrivals.isEmpty)
        #expect(network.statistics.framesUndeliverable == 1)
        await #expect(throws: InMemoryGroupTransportError.unknownPeer(2)) { try await a.send([1], to: 2) }
        await #expect(throws: InMemoryGroupTransportError.closed) { try await b.send([1], to: 1) }
        #expect(network.peers == [1])
        // Joining again as the same peer gives a working transport; the old one stays closed.
        let again = network.join(as: 2)
        let atAgain = ArrivalLog(again, clock: clock, executor: executor)
        try? await a.send([0, 7], to: 2)
        driver.run(for: .seconds(1))
        #expect(atAgain.numbers == [7])
        b.close()
        #expect(network.peers == [1, 2])
    }
}
