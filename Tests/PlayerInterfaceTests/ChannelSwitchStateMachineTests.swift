import PlayerInterface
import TestSupport
import Testing

/// Live channel switching (S3.11): every request's completion called exactly once, superseded
/// requests, failures, timeouts and the loading screen, on virtual host time.
@Suite("ChannelSwitchStateMachine")
struct ChannelSwitchStateMachineTests {
    typealias Machine = ChannelSwitchStateMachine

    static let channels = [
        Channel(id: "news", title: "Interlude News 24", url: "http://127.0.0.1/news/index.m3u8"),
        Channel(id: "movies", title: "Interlude Movies", url: "http://127.0.0.1/movies/index.m3u8"),
        Channel(id: "sport", title: "Interlude Sport", url: "http://127.0.0.1/sport/index.m3u8"),
    ]

    @Test("next shows the loading screen describing the channel, loads it and completes with success when it plays")
    func nextSucceeds() {
        var machine = Machine(channels: Self.channels, current: 0)
        let actions = machine.handle(.next(requestID: 1), at: .seconds(100))
        #expect(actions == [
            .showLoadingScreen(.init(channel: Self.channels[1], number: 2, count: 3)),
            .load(id: 1, Self.channels[1]),
            .scheduleWake(at: .seconds(115)),
        ])
        #expect(machine.currentIndex == 0)
        #expect(machine.loadingIndex == 1)
        #expect(machine.handle(.loadSucceeded(id: 1), at: .seconds(101)) == [
            .hideLoadingScreen, .complete(requestID: 1, .success(Self.channels[1])),
        ])
        #expect(machine.currentIndex == 1)
        #expect(machine.handle(.wake, at: .seconds(115)) == [], "done: the timeout has nothing to do")
    }

    @Test("a second request supersedes the first: the first completes with superseded at once, its load is cancelled, the second steps on from it")
    func superseded() {
        var machine = Machine(channels: Self.channels, current: 0)
        _ = machine.handle(.next(requestID: 1), at: .zero)
        #expect(machine.handle(.next(requestID: 2), at: .seconds(1)) == [
            .cancelLoad(id: 1),
            .complete(requestID: 1, .failure(.superseded)),
            .showLoadingScreen(.init(channel: Self.channels[2], number: 3, count: 3)),
            .load(id: 2, Self.channels[2]),
            .scheduleWake(at: .seconds(16)),
        ])
        #expect(machine.handle(.loadSucceeded(id: 1), at: .seconds(2)) == [], "the superseded load's answer is ignored")
        #expect(machine.handle(.loadSucceeded(id: 2), at: .seconds(3)) == [
            .hideLoadingScreen, .complete(requestID: 2, .success(Self.channels[2])),
        ])
    }

    @Test("previous wraps around from the first channel to the last")
    func previousWraps() {
        var machine = Machine(channels: Self.channels, current: 0)
        #expect(machine.handle(.previous(requestID: 1), at: .zero).contains(.load(id: 1, Self.channels[2])))
    }

    @Test("a failed load completes with the failure and the channel playing stays")
    func loadFails() {
        var machine = Machine(channels: Self.channels, current: 0)
        _ = machine.handle(.next(requestID: 7), at: .zero)
        #expect(machine.handle(.loadFailed(id: 1, .unplayable), at: .seconds(1)) == [
            .hideLoadingScreen, .complete(requestID: 7, .failure(.loadFailed(.unplayable))),
        ])
        #expect(machine.currentIndex == 0)
    }

    @Test("a load with no answer times out at its deadline, cancelled and completed once")
    func timesOut() {
        var machine = Machine(channels: Self.channels, current: 0, loadTimeout: .seconds(10))
        _ = machine.handle(.next(requestID: 1), at: .seconds(5))
        #expect(machine.handle(.wake, at: .milliseconds(14_999)) == [])
        #expect(machine.handle(.wake, at: .seconds(15)) == [
            .cancelLoad(id: 1), .hideLoadingScreen, .complete(requestID: 1, .failure(.timedOut)),
        ])
        #expect(machine.handle(.loadSucceeded(id: 1), at: .seconds(16)) == [])
        #expect(machine.currentIndex == 0)
    }

    @Test("requests that cannot start complete at once: an empty list, an index out of range, the channel already playing")
    func immediate() {
        var empty = Machine(channels: [])
        #expect(empty.handle(.next(requestID: 1), at: .zero) == [.complete(requestID: 1, .failure(.noChannels))])
        var machine = Machine(channels: Self.channels, current: 1)
        #expect(machine.handle(.select(index: 9, requestID: 2), at: .zero) == [.complete(requestID: 2, .failure(.noSuchChannel))])
        #expect(machine.handle(.select(index: 1, requestID: 3), at: .zero) == [.complete(requestID: 3, .success(Self.channels[1]))])
    }

    @Test("going back to the playing channel while another loads supersedes the load and succeeds at once")
    func backToCurrent() {
        var machine = Machine(channels: Self.channels, current: 0)
        _ = machine.handle(.next(requestID: 1), at: .zero)
        #expect(machine.handle(.previous(requestID: 2), at: .seconds(1)) == [
            .cancelLoad(id: 1), .complete(requestID: 1, .failure(.superseded)), .hideLoadingScreen,
            .complete(requestID: 2, .success(Self.channels[0])),
        ])
        #expect(machine.loadingIndex == nil)
    }

    @Test("the view going away completes the pending request as cancelled")
    func cancelled() {
        var machine = Machine(channels: Self.channels, current: 0)
        _ = machine.handle(.next(requestID: 4), at: .zero)
        #expect(machine.handle(.cancel, at: .seconds(1)) == [.cancelLoad(id: 1), .hideLoadingScreen, .complete(requestID: 4, .failure(.cancelled))])
        #expect(machine.handle(.cancel, at: .seconds(2)) == [])
    }

    @Test("property: in any sequence of requests, answers, timeouts and cancels, every request completes exactly once")
    func exactlyOnce() {
        for seed in UInt64(1)...200 {
            var random = SeededGenerator(seed: seed)
            var machine = Machine(channels: Self.channels, current: Int(random.next() % 3), loadTimeout: .seconds(5))
            var now = Duration.zero
            var nextRequest = 1
            var completions: [Int: Int] = [:]
            var loads: [Int] = []
            func record(_ actions: [Machine.Action]) {
                for action in actions {
                    if case .complete(let id, _) = action { completions[id, default: 0] += 1 }
                    if case .load(let id, _) = action { loads.append(id) }
                }
            }
            for _ in 0..<40 {
                now += .milliseconds(Int64(random.next() % 4000))
                switch random.next() % 7 {
                case 0, 1: record(machine.handle(.next(requestID: nextRequest), at: now)); nextRequest += 1
                case 2: record(machine.handle(.previous(requestID: nextRequest), at: now)); nextRequest += 1
                case 3: record(machine.handle(.select(index: Int(random.next() % 4), requestID: nextRequest), at: now)); nextRequest += 1
                case 4:
                    if let id = loads.randomElement(using: &random) {
                        record(machine.handle(random.next() % 2 == 0 ? .loadSucceeded(id: id) : .loadFailed(id: id, .unreachable), at: now))
                    }
                case 5: record(machine.handle(.wake, at: now))
                default: record(machine.handle(.cancel, at: now))
                }
            }
            // Drain: the last pending request times out.
            record(machine.handle(.wake, at: now + .seconds(5)))
            #expect(completions.count == nextRequest - 1, "seed \(seed): every request completed")
            #expect(completions.values.allSatisfy { $0 == 1 }, "seed \(seed): none completed twice")
            #expect(machine.loadingIndex == nil)
        }
    }
}
