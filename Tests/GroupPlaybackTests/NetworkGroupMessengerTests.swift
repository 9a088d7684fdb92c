import GroupCoordination
import GroupPlayback
import GroupPlaybackTesting
import GroupWire
import Testing

struct Chat: GroupMessage, Equatable {
    static let messageType = "test.chat"
    var author: UInt32
    var number: Int

    init(author: UInt32, number: Int) {
        self.author = author
        self.number = number
    }

    init(wire: WireValue) throws(WireDecodingError) {
        let fields = try WireFields(wire)
        author = UInt32(try fields.integer("author", in: 0...Int64(UInt32.max)))
        number = Int(try fields.integer("number"))
    }

    var wire: WireValue { .object(["author": .integer(Int64(author)), "number": .integer(Int64(number))]) }
}

struct Unknown: GroupMessage {
    static let messageType = "test.unknown"
    var value: Int

    init(value: Int) { self.value = value }

    init(wire: WireValue) throws(WireDecodingError) { value = Int(try WireFields(wire).integer("value")) }

    var wire: WireValue { .object(["value": .integer(Int64(value))]) }
}

/// A server (peer 0) and participants 1…n with messengers over a simulated network: each
/// participant sends `count` chats to the server and probes its clock; the server echoes nothing.
struct MessengerGroupRun {
    enum Event {
        case arrive(to: Int, from: PeerID, bytes: [UInt8])
        case tick(peer: Int)
        case chat(peer: Int, number: Int)
        case probe(peer: Int)
    }

    var participants = 3
    var count = 200
    var chatInterval: Duration = .milliseconds(100)
    var probeInterval: Duration = .seconds(2)
    var duration: Duration = .seconds(120)
    var network: SimulatedNetwork

    struct Result {
        var chatsBySender: [PeerID: [Int]] = [:]
        var probeRepliesReceived = 0
        var errors: [GroupMessengerError] = []
        var messengers: [GroupMessenger] = []
        var events = 0
    }

    func run() -> Result {
        var network = self.network
        let registry = GroupMessageRegistry([ClockProbe.self, ClockProbeReply.self, Chat.self])
        var messengers = (0...participants).map { GroupMessenger(localPeer: PeerID(rawValue: UInt32($0)), registry: registry) }
        var scheduler = SimulationScheduler<Event>()
        var tickAt = [Duration?](repeating: nil, count: participants + 1)
        var result = Result()
        for peer in 1...participants {
            for number in 0..<count { scheduler.schedule(.chat(peer: peer, number: number), at: chatInterval * number + .milliseconds(peer)) }
            scheduler.schedule(.probe(peer: peer), at: .milliseconds(peer))
        }
        while let (now, event) = scheduler.next(through: duration) {
            var frames: [GroupMessenger.Outgoing] = []
            let peer: Int
            switch event {
            case .chat(let p, let number):
                peer = p
                frames = try! messengers[p].send(Chat(author: UInt32(p), number: number), to: 0, at: now)
            case .probe(let p):
                peer = p
                frames = [try! messengers[p].sendUnreliably(ClockProbe(id: 1, clientSendTime: now), to: 0)]
                scheduler.schedule(.probe(peer: p), after: probeInterval)
            case .tick(let p):
                guard tickAt[p] == now else { continue }
                tickAt[p] = nil
                peer = p
                frames = messengers[p].tick(at: now)
            case .arrive(let p, let sender, let bytes):
                peer = p
                let output = messengers[p].receive(bytes, from: sender, at: now)
                frames = output.frames
                result.errors += output.errors.map(\.error)
                for received in output.messages {
                    if let chat = received.message as? Chat {
                        #expect(received.isReliable && chat.author == received.sender.rawValue)
                        result.chatsBySender[received.sender, default: []].append(chat.number)
                    } else if let probe = received.message as? ClockProbe {
                        frames.append(try! messengers[p].sendUnreliably(ClockProbeReply(answering: probe, receivedAt: now, sentAt: now), to: received.sender))
                    } else if received.message is ClockProbeReply {
                        result.probeRepliesReceived += 1
                    }
                }
            }
            for frame in frames {
                network.send(.arrive(to: Int(frame.destination.rawValue), from: PeerID(rawValue: UInt32(peer)), bytes: frame.bytes), from: PeerID(rawValue: UInt32(peer)), to: frame.destination, on: &scheduler)
            }
            if let deadline = messengers[peer].nextDeadline, tickAt[peer].map({ deadline < $0 }) ?? true {
                tickAt[peer] = max(deadline, now)
                scheduler.schedule(.tick(peer: peer), at: max(deadline, now))
            }
        }
        result.messengers = messengers
        result.events = scheduler.processedCount
        return result
    }
}

@Suite struct GroupMessengerTests {
    @Test("typed messages from each participant arrive at the server reliably and in order over a lossy path")
    func reliableTypedMessages() {
        let network = SimulatedNetwork(seed: 21, defaultConditions: LinkConditions(latency: .milliseconds(50), jitter: .milliseconds(20), lossProbability: 0.1))
        let result = MessengerGroupRun(network: network).run()
        #expect(result.errors.isEmpty)
        for peer in 1...3 { #expect(result.chatsBySender[PeerID(rawValue: UInt32(peer))] == Array(0..<200)) }
        // Clock probes go unreliably: about 10% of each leg is lost, and none is retried.
        let probes = 3 * 60
        #expect(result.probeRepliesReceived > probes * 3 / 4 && result.probeRepliesReceived < probes)
        #expect(Set(result.messengers[0].knownPeers) == [1, 2, 3])
        #expect(result.messengers[1].statistics(for: 0)!.segmentsRetransmitted > 0)
    }

    @Test("substrate cost: 100 participants for 5 simulated minutes of chats every 5 s and clock probes every 2 s")
    func substrateCost() {
        var run = MessengerGroupRun(network: SimulatedNetwork(seed: 5, defaultConditions: .wideAreaNetwork))
        run.participants = 100
        run.count = 60
        run.chatInterval = .seconds(5)
        run.duration = .seconds(300)
        let clock = ContinuousClock()
        var result = MessengerGroupRun.Result()
        let elapsed = clock.measure { result = run.run() }
        print("substrate: \(result.events) events in \(elapsed)")
        #expect(result.chatsBySender.count == 100 && result.chatsBySender.values.allSatisfy { $0 == Array(0..<60) })
    }

    @Test("a message of a type this build does not know is reported, and still acknowledged so the sender moves on")
    func unknownType() throws {
        var sender = GroupMessenger(localPeer: 1, registry: GroupMessageRegistry([Unknown.self, Chat.self]))
        var receiver = GroupMessenger(localPeer: 0, registry: GroupMessageRegistry([Chat.self]))
        var frames = try sender.send(Unknown(value: 1), to: 0, at: .zero)
        frames += try sender.send(Chat(author: 1, number: 7), to: 0, at: .zero)
        var received: [any GroupMessage] = []
        var errors: [GroupMessengerError] = []
        var replies: [GroupMessenger.Outgoing] = []
        for frame in frames {
            let output = receiver.receive(frame.bytes, from: 1, at: .milliseconds(30))
            received += output.messages.map(\.message)
            errors += output.errors.map(\.error)
            replies += output.frames
        }
        replies += receiver.tick(at: .milliseconds(60))
        #expect(errors == [.unknownMessageType("test.unknown")])
        #expect(received.compactMap { $0 as? Chat } == [Chat(author: 1, number: 7)])
        for reply in replies { _ = sender.receive(reply.bytes, from: 0, at: .milliseconds(90)) }
        #expect(sender.channel(to: 0)!.unacknowledgedCount == 0)
        #expect(sender.nextDeadline == nil)
    }

    @Test("garbage bytes are reported, not trusted")
    func garbage() {
        var messenger = GroupMessenger(localPeer: 0)
        #expect(messenger.receive([], from: 3, at: .zero).errors.map(\.error) == [.malformedFrame(.truncated)])
        #expect(messenger.receive([7, 1, 2], from: 3, at: .zero).errors.map(\.error) == [.unknownFrameKind(7)])
        #expect(messenger.receive([1, 200], from: 3, at: .zero).errors.map(\.error) == [.malformedEnvelope])
        #expect(messenger.receive([0, 9], from: 3, at: .zero).errors.map(\.error) == [.malformedFrame(.unknownFlags(9))])
    }

    @Test("envelopes carry the type name and the message as JSON")
    func envelope() throws {
        let registry = GroupMessageRegistry([Chat.self])
        let bytes = registry.encode(Chat(author: 2, number: 5))
        #expect(bytes == [9] + Array("test.chat".utf8) + Array(#"{"author":2,"number":5}"#.utf8))
        #expect(try registry.decode(bytes) as? Chat == Chat(author: 2, number: 5))
        #expect(registry.messageTypes == ["test.chat"])
        #expect(GroupMessageRegistry.standard.messageTypes == ["clock.probe", "clock.probe-reply"])
    }
}
