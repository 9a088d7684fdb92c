@testable import GroupService
import Testing

/// The driver's mailbox: what the shared store said comes first in a turn, every input is taken
/// once and in arrival order, and a backlog is taken in turns of at most the maximum.
@Suite("Driver mailbox")
struct DriverMailboxTests {
    /// The inputs as labels: `watching(ID)` notices by their session, connections closing by their
    /// number.
    private static func labels(_ inputs: [GroupServer.DriverInput]) -> [String] {
        inputs.map { input in
            switch input {
            case .store(.watching(let session)): "notice \(session)"
            case .closed(let connection): "closed \(connection)"
            default: "other"
            }
        }
    }

    @Test("the store's notices come first in a turn, each kind in arrival order")
    func noticesFirst() {
        let mailbox = GroupServer.DriverMailbox()
        mailbox.yield(.closed(1))
        mailbox.yield(.store(.watching("a")))
        mailbox.yield(.closed(2))
        mailbox.yield(.store(.watching("b")))
        #expect(Self.labels(mailbox.take()) == ["notice a", "notice b", "closed 1", "closed 2"])
        #expect(mailbox.take().isEmpty)
    }

    @Test("a backlog is taken in turns of at most the maximum, in order, nothing lost or repeated, with notices arriving between")
    func backlog() {
        let mailbox = GroupServer.DriverMailbox()
        let total = 10 * GroupServer.DriverMailbox.maximumTurn + 17
        for connection in 0..<total { mailbox.yield(.closed(ServiceConnectionID(connection))) }
        var taken: [String] = []
        var turns = 0
        while true {
            if turns == 3 { mailbox.yield(.store(.watching("late"))) }
            let turn = mailbox.take()
            if turn.isEmpty { break }
            turns += 1
            #expect(turn.filter { if case .closed = $0 { true } else { false } }.count <= GroupServer.DriverMailbox.maximumTurn)
            taken += Self.labels(turn)
            if turns == 2 { mailbox.yield(.closed(ServiceConnectionID(total))) }
        }
        let closed = taken.filter { $0.hasPrefix("closed") }
        #expect(closed == (0...total).map { "closed \($0)" })
        #expect(taken.filter { $0.hasPrefix("notice") } == ["notice late"])
        // The notice yielded before the fourth turn leads that turn.
        #expect(taken[3 * GroupServer.DriverMailbox.maximumTurn] == "notice late")
        #expect(turns == 11)
    }

    @Test("between two tries of a turn, the notices waiting are taken alone and the other inputs stay")
    func takeNotices() {
        let mailbox = GroupServer.DriverMailbox()
        mailbox.yield(.closed(7))
        mailbox.yield(.store(.watching("s")))
        #expect(Self.labels(mailbox.takeNotices()) == ["notice s"])
        #expect(mailbox.takeNotices().isEmpty)
        #expect(Self.labels(mailbox.take()) == ["closed 7"])
    }
}
