import GroupCoordination
import GroupPlayback
import GroupPlaybackTesting
import GroupWire
import Testing

/// Two channel ends, peers 1 and 2, exchanging numbered payloads over a simulated network.
struct ChannelPairRun {
    enum Event {
        case send(side: Int, payload: Int)
        case arrive(side: Int, frame: ReliableFrame<Int>)
        case tick(side: Int)
    }

    var network: SimulatedNetwork
    var configuration = ReliableChannel<Int>.Configuration()
    var count = 1000
    var sendInterval: Duration = .milliseconds(10)
    var duration: Duration = .seconds(600)

    struct Result {
        var delivered: [[Int]]
        var deliveredAt: [[Duration]]
        var channels: [ReliableChannel<Int>]
        var network: SimulatedNetwork
    }

    func run() -> Result {
        var network = self.network
        var channels = [ReliableChannel<Int>(configuration: configuration), ReliableChannel<Int>(configuration: configuration)]
        var scheduler = SimulationScheduler<Event>()
        var tickAt: [Duration?] = [nil, nil]
        var delivered: [[Int]] = [[], []]
        var deliveredAt: [[Duration]] = [[], []]
        for index in 0..<count {
            scheduler.schedule(.send(side: 0, payload: index), at: sendInterval * index)
            scheduler.schedule(.send(side: 1, payload: index), at: sendInterval * index + .milliseconds(3))
        }
        func peer(_ side: Int) -> PeerID { PeerID(rawValue: UInt32(side + 1)) }
        while let (now, event) = scheduler.next(through: duration) {
            let side: Int
            let output: ReliableChannel<Int>.Output
            switch event {
            case .send(let s, let payload):
                side = s
                output = channels[s].send(payload, at: now)
            case .arrive(let s, let frame):
                side = s
                output = channels[s].receive(frame, at: now)
            case .tick(let s):
                guard tickAt[s] == now else { continue }
                tickAt[s] = nil
                side = s
                output = channels[s].tick(at: now)
            }
            for frame in output.frames {
                network.send(.arrive(side: 1 - side, frame: frame), from: peer(side), to: peer(1 - side), on: &scheduler)
            }
            delivered[side] += output.delivered
            deliveredAt[side] += Array(repeating: now, count: output.delivered.count)
            if let deadline = channels[side].nextDeadline, tickAt[side].map({ deadline < $0 }) ?? true {
                let at = max(deadline, now)
                tickAt[side] = at
                scheduler.schedule(.tick(side: side), at: at)
            }
        }
        return Result(delivered: delivered, deliveredAt: deliveredAt, channels: channels, network: network)
    }
}

@Suite struct ReliableChannelTests {
    /// Figures for 1000 payloads each way, one every 10 ms, on 50 ms ± 20 ms with 10% of frames
    /// held back 30 ms: retransmissions are the losses plus spurious ones for about every held-back
    /// frame (1%: 105 and 94; 5%: 151 and 141; 20%: 336 and 344), and the last payload, sent at
    /// 10.003 s, arrives by 10.19 s.
    @Test("every payload arrives once and in order under 1% to 20% loss with jitter and reordering", arguments: [0.01, 0.05, 0.2])
    func deliversInOrderUnderLoss(loss: Double) {
        let conditions = LinkConditions(
            latency: .milliseconds(50), jitter: .milliseconds(20), lossProbability: loss,
            reorderProbability: 0.1, reorderDelay: .milliseconds(30)
        )
        let result = ChannelPairRun(network: SimulatedNetwork(seed: 11, defaultConditions: conditions)).run()
        #expect(result.delivered[0] == Array(0..<1000))
        #expect(result.delivered[1] == Array(0..<1000))
        let retransmitted = result.channels.map(\.statistics.segmentsRetransmitted)
        let lastDelivery = result.deliveredAt.map { $0.last! }
        print("loss \(loss): retransmitted \(retransmitted), last delivered at \(lastDelivery), frames \(result.network.statistics)")
        #expect(result.network.statistics.framesDropped > 0)
        #expect(result.channels.allSatisfy { $0.unacknowledgedCount == 0 && $0.nextDeadline == nil })
        // Retransmissions stay near what was lost: no storm.
        #expect(retransmitted.allSatisfy { Double($0) < 1000 * (loss * 1.2 + 0.12) })
        // Sent by 10.003 s; everything in by 11 s even at 20% loss.
        #expect(lastDelivery.allSatisfy { $0 < .milliseconds(10_200) })
    }

    @Test("on a clean path nothing is retransmitted and acknowledgements ride on data or are delayed")
    func cleanPath() {
        let conditions = LinkConditions(latency: .milliseconds(50), jitter: .milliseconds(20), isOrdered: true)
        let result = ChannelPairRun(network: SimulatedNetwork(seed: 3, defaultConditions: conditions)).run()
        #expect(result.delivered[0] == Array(0..<1000) && result.delivered[1] == Array(0..<1000))
        #expect(result.channels.allSatisfy { $0.statistics.segmentsRetransmitted == 0 })
        // 333 and 326 for 1000 payloads each way.
        #expect(result.channels.allSatisfy { $0.statistics.pureAcknowledgementsSent < 350 })
        let roundTrip = result.channels[0].smoothedRoundTripTime!
        #expect(roundTrip > .milliseconds(60) && roundTrip < .milliseconds(140))
    }

    @Test("payloads sent during a partition arrive in order within one maximum timeout after it heals")
    func partitionHeals() {
        var network = SimulatedNetwork(seed: 5, defaultConditions: LinkConditions(latency: .milliseconds(50), jitter: .milliseconds(20), lossProbability: 0.01))
        network.addPartition(Partition(isolating: [2], from: .seconds(2), until: .seconds(22)))
        var run = ChannelPairRun(network: network)
        run.count = 500
        run.sendInterval = .milliseconds(50)  // 0 ... 25 s: most payloads are sent while cut off
        let result = run.run()
        #expect(result.delivered[0] == Array(0..<500) && result.delivered[1] == Array(0..<500))
        // Nothing crosses the cut...
        let duringCut = result.deliveredAt.flatMap { $0 }.filter { $0 >= .seconds(2) + .milliseconds(70) && $0 < .seconds(22) }
        #expect(duringCut.isEmpty)
        // ...and the backlog drains within the 3 s maximum timeout after the heal.
        let afterHeal = result.deliveredAt.map { times in times.first { $0 >= .seconds(22) }! }
        #expect(afterHeal.allSatisfy { $0 < .seconds(25) + .milliseconds(200) })
        #expect(result.network.statistics.framesPartitioned > 0)
    }

    @Test("a repeated frame is delivered once and acknowledged again at once")
    func duplicates() {
        var sender = ReliableChannel<String>()
        var receiver = ReliableChannel<String>()
        let frame = sender.send("hello", at: .zero).frames[0]
        #expect(receiver.receive(frame, at: .milliseconds(40)).delivered == ["hello"])
        let again = receiver.receive(frame, at: .milliseconds(45))
        #expect(again.delivered.isEmpty)
        #expect(again.frames.count == 1 && again.frames[0].isPureAcknowledgement)
        #expect(again.frames[0].acknowledgement.cumulative == 1)
        #expect(receiver.statistics.duplicatesDropped == 1)
        _ = sender.receive(again.frames[0], at: .milliseconds(90))
        #expect(sender.unacknowledgedCount == 0)
        #expect(sender.smoothedRoundTripTime == .milliseconds(90))
    }

    @Test("out-of-order arrivals wait for the gap and are reported as selective acknowledgements")
    func selectiveAcknowledgements() {
        var sender = ReliableChannel<Int>()
        var receiver = ReliableChannel<Int>()
        let frames = (0..<5).map { sender.send($0, at: .zero).frames[0] }
        #expect(receiver.receive(frames[0], at: .milliseconds(50)).delivered == [0])
        let afterGap = receiver.receive(frames[2], at: .milliseconds(51))
        #expect(afterGap.delivered.isEmpty)
        _ = receiver.receive(frames[4], at: .milliseconds(52))
        let last = receiver.receive(frames[3], at: .milliseconds(53))
        #expect(last.frames.last?.acknowledgement == ReliableAcknowledgement(cumulative: 1, selective: [2..<5]))
        // The sender learns that only 1 is missing and resends it alone once RACK declares it lost.
        let response = sender.receive(last.frames.last!, at: .milliseconds(100))
        #expect(response.frames.isEmpty)
        let deadline = sender.nextDeadline!
        // A round trip (100 ms) plus the reordering window, wide after a single sample: well before
        // the 1 s initial timeout.
        #expect(deadline == .milliseconds(225))
        let resent = sender.tick(at: deadline).frames
        #expect(resent.map { $0.segment?.sequenceNumber } == [1])
        #expect(receiver.receive(resent[0], at: deadline + .milliseconds(50)).delivered == [1, 2, 3, 4])
    }

    @Test("no more than the window is in flight; the rest waits in order")
    func window() {
        var configuration = ReliableChannel<Int>.Configuration()
        configuration.sendWindow = 4
        var sender = ReliableChannel<Int>(configuration: configuration)
        var receiver = ReliableChannel<Int>(configuration: configuration)
        var wire: [ReliableFrame<Int>] = []
        for payload in 0..<10 { wire += sender.send(payload, at: .zero).frames }
        #expect(wire.map { $0.segment!.payload } == [0, 1, 2, 3])
        #expect(sender.unacknowledgedCount == 10)
        var delivered: [Int] = []
        var acknowledgements: [ReliableFrame<Int>] = []
        for frame in wire { let output = receiver.receive(frame, at: .milliseconds(10)); delivered += output.delivered; acknowledgements += output.frames }
        acknowledgements += receiver.tick(at: .milliseconds(20)).frames
        var next: [ReliableFrame<Int>] = []
        for acknowledgement in acknowledgements { next += sender.receive(acknowledgement, at: .milliseconds(30)).frames }
        #expect(next.map { $0.segment!.payload } == [4, 5, 6, 7])
        #expect(delivered == [0, 1, 2, 3])
    }

    @Test("frames round-trip through bytes; truncated or malformed bytes are rejected with a reason")
    func bytes() throws {
        let frames: [ReliableFrame<[UInt8]>] = [
            ReliableFrame(segment: nil, acknowledgement: ReliableAcknowledgement(cumulative: 0)),
            ReliableFrame(segment: .init(sequenceNumber: 300, payload: Array("hi".utf8)), acknowledgement: ReliableAcknowledgement(cumulative: 17, selective: [19..<21, 400..<1000])),
            ReliableFrame(segment: .init(sequenceNumber: .max, payload: []), acknowledgement: ReliableAcknowledgement(cumulative: .max - 10, selective: [(.max - 5)..<(.max - 1)])),
        ]
        for frame in frames { #expect(try ReliableFrame(decoding: frame.encoded()) == frame) }
        #expect(frames[0].encoded() == [0, 0, 0])
        #expect(throws: ReliableFrameDecodingError.truncated) { try ReliableFrame(decoding: []) }
        #expect(throws: ReliableFrameDecodingError.truncated) { try ReliableFrame(decoding: [1, 5]) }
        #expect(throws: ReliableFrameDecodingError.unknownFlags(9)) { try ReliableFrame(decoding: [9, 0, 0]) }
        #expect(throws: ReliableFrameDecodingError.malformedAcknowledgement) { try ReliableFrame(decoding: [0, 5, 1, 0, 1]) }
        #expect(throws: ReliableFrameDecodingError.trailingBytes) { try ReliableFrame(decoding: [0, 0, 0, 7]) }
        #expect(throws: ReliableFrameDecodingError.varintOverflow) { try ReliableFrame(decoding: [0] + Array(repeating: 0xFF, count: 10) + [1]) }
    }
}
