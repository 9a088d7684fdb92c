import GroupCoordination
import GroupPlayback
import GroupPlaybackTesting
import GroupWire
import Testing

@Suite struct SimulatedNetworkTests {
    @Test("delays follow latency ± jitter and losses the loss rate, the same for the same seed")
    func statistics() {
        var network = SimulatedNetwork(seed: 99, defaultConditions: LinkConditions(latency: .milliseconds(50), jitter: .milliseconds(20), lossProbability: 0.05))
        var delays: [Double] = []
        var lost = 0
        for index in 0..<20_000 {
            let sent = Duration.milliseconds(index)
            switch network.route(from: 1, to: 2, sentAt: sent) {
            case .arrives(let time): delays.append((time - sent).seconds * 1000)
            case .lost: lost += 1
            }
        }
        let mean = delays.reduce(0, +) / Double(delays.count)
        #expect(delays.min()! >= 30 && delays.max()! <= 70)
        #expect(abs(mean - 50) < 0.5)
        #expect(quantile(delays, 0.1) > 33 && quantile(delays, 0.1) < 35)  // uniform: 34 ms
        #expect(lost > 900 && lost < 1100)  // 5% of 20 000
        #expect(network.statistics.framesSent == 20_000 && network.statistics.framesDropped == lost)
        // Determinism: a second network with the same seed makes the same choices.
        var again = SimulatedNetwork(seed: 99, defaultConditions: network.defaultConditions)
        var other = SimulatedNetwork(seed: 100, defaultConditions: network.defaultConditions)
        let first = (0..<100).map { again.route(from: 1, to: 2, sentAt: .milliseconds($0)) }
        var fresh = SimulatedNetwork(seed: 99, defaultConditions: network.defaultConditions)
        #expect((0..<100).map { fresh.route(from: 1, to: 2, sentAt: .milliseconds($0)) } == first)
        #expect((0..<100).map { other.route(from: 1, to: 2, sentAt: .milliseconds($0)) } != first)
    }

    @Test("each direction of each pair has its own conditions and its own random stream")
    func perLinkConditions() {
        var network = SimulatedNetwork(seed: 1, defaultConditions: LinkConditions(latency: .milliseconds(50), jitter: .milliseconds(20)))
        network.setConditions(LinkConditions(latency: .milliseconds(5)), from: 1, to: 2)
        #expect(network.route(from: 1, to: 2, sentAt: .zero) == .arrives(at: .milliseconds(5)))
        let reverse = network.route(from: 2, to: 1, sentAt: .zero).arrivalTime!
        #expect(reverse >= .milliseconds(30) && reverse <= .milliseconds(70))
        // Traffic on 1 → 3 does not change the draws of 1 → 4.
        var quiet = SimulatedNetwork(seed: 1, defaultConditions: network.defaultConditions)
        var busy = quiet
        for index in 0..<50 { _ = busy.route(from: 1, to: 3, sentAt: .milliseconds(index)) }
        #expect((0..<20).map { quiet.route(from: 1, to: 4, sentAt: .milliseconds($0)) } == (0..<20).map { busy.route(from: 1, to: 4, sentAt: .milliseconds($0)) })
    }

    @Test("a partition drops frames across it, both ways, until it heals; frames in flight at its start are lost too")
    func partition() {
        var network = SimulatedNetwork(seed: 2, defaultConditions: LinkConditions(latency: .milliseconds(50)))
        network.addPartition(Partition(isolating: [2, 3], from: .seconds(10), until: .seconds(20)))
        #expect(network.route(from: 1, to: 2, sentAt: .seconds(5)) == .arrives(at: .milliseconds(5050)))
        #expect(network.route(from: 1, to: 2, sentAt: .milliseconds(9980)) == .lost(.partitioned))
        #expect(network.route(from: 2, to: 1, sentAt: .seconds(15)) == .lost(.partitioned))
        #expect(network.route(from: 2, to: 3, sentAt: .seconds(15)) == .arrives(at: .milliseconds(15_050)))
        #expect(network.route(from: 3, to: 1, sentAt: .seconds(20)) == .arrives(at: .milliseconds(20_050)))
        #expect(network.statistics.framesPartitioned == 2)
    }

    @Test("reordering: held-back frames are overtaken on an unordered path, never on an ordered one")
    func reordering() {
        let conditions = LinkConditions(latency: .milliseconds(20), jitter: .milliseconds(5), reorderProbability: 0.2, reorderDelay: .milliseconds(40))
        var unordered = SimulatedNetwork(seed: 4, defaultConditions: conditions)
        var orderedConditions = conditions
        orderedConditions.isOrdered = true
        var ordered = SimulatedNetwork(seed: 4, defaultConditions: orderedConditions)
        let times = (0..<1000).map { unordered.route(from: 1, to: 2, sentAt: .milliseconds($0 * 5)).arrivalTime! }
        let orderedTimes = (0..<1000).map { ordered.route(from: 1, to: 2, sentAt: .milliseconds($0 * 5)).arrivalTime! }
        let overtaken = zip(times, times.dropFirst()).filter { $0 > $1 }.count
        #expect(overtaken > 150 && overtaken < 300)
        #expect(orderedTimes == orderedTimes.sorted())
    }

    @Test("each peer reads its own drifting clock")
    func clocks() {
        var network = SimulatedNetwork(seed: 0)
        network.setClock(DriftingClock(offset: .seconds(3), driftPartsPerBillion: -50_000), for: 7)
        #expect(network.localTime(of: 7, at: .seconds(1000)) == .seconds(1003) - .milliseconds(50))
        #expect(network.localTime(of: 8, at: .seconds(1000)) == .seconds(1000))
    }
}

@Suite struct SimulationSchedulerTests {
    @Test("events come out in time order, and in scheduling order at equal times")
    func order() {
        var scheduler = SimulationScheduler<String>()
        scheduler.schedule("c", at: .seconds(2))
        scheduler.schedule("a", at: .seconds(1))
        scheduler.schedule("b", at: .seconds(1))
        scheduler.schedule("d", at: .seconds(2))
        var seen: [String] = []
        while let (time, event) = scheduler.next() {
            seen.append(event)
            #expect(scheduler.now == time)
            if event == "a" { scheduler.schedule("a2", at: .seconds(1)) }  // same time, after b
        }
        #expect(seen == ["a", "b", "a2", "c", "d"])
        #expect(scheduler.processedCount == 5)
    }

    @Test("cancelled events never come out; a run stops at its limit with the clock moved there")
    func cancelAndLimit() {
        var scheduler = SimulationScheduler<Int>()
        let cancelled = scheduler.schedule(1, at: .seconds(1))
        scheduler.schedule(2, at: .seconds(2))
        scheduler.schedule(3, at: .seconds(5))
        scheduler.cancel(cancelled)
        var seen: [Int] = []
        while let (_, event) = scheduler.next(through: .seconds(4)) { seen.append(event) }
        #expect(seen == [2])
        #expect(scheduler.now == .seconds(4))
        #expect(scheduler.nextEventTime == .seconds(5))
    }

    @Test("cancelling an event that already came out, or twice, leaves the event now in its place alone")
    func cancelIsPrecise() {
        var scheduler = SimulationScheduler<String>()
        let first = scheduler.schedule("first", at: .seconds(1))
        #expect(scheduler.next()?.event == "first")
        let second = scheduler.schedule("second", at: .seconds(2))  // reuses the freed place
        scheduler.cancel(first)
        let third = scheduler.schedule("third", at: .seconds(3))
        scheduler.cancel(third)
        scheduler.cancel(third)
        let fourth = scheduler.schedule("fourth", at: .seconds(4))  // reuses the cancelled one's place
        scheduler.cancel(third)
        var seen: [String] = []
        while let (_, event) = scheduler.next() { seen.append(event) }
        #expect(seen == ["second", "fourth"])
        #expect(second < fourth)
    }

    @Test("a hundred thousand random events come out sorted (the heap keeps its order)")
    func heapProperty() {
        var random = SimulationRandom(seed: 8)
        var scheduler = SimulationScheduler<Int>()
        for index in 0..<100_000 { scheduler.schedule(index, at: .microseconds(Int64(random.next() % 1_000_000))) }
        var previous: (Duration, Int)?
        var count = 0
        while let (time, event) = scheduler.next() {
            if let previous { #expect(previous.0 < time || (previous.0 == time && previous.1 < event)) }
            previous = (time, event)
            count += 1
        }
        #expect(count == 100_000)
    }
}
