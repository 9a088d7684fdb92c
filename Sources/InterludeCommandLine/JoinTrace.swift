import Foundation
import GroupCoordination
import GroupPlayback
import GroupWire
import HLSInterstitials
import MediaTime
import PlayerEngine
import Synchronization

/// `join --trace`: one JSON line per participant event and per position sample, each stamped with
/// the real-time clock (`t`, CLOCK_REALTIME nanoseconds) so that the traces of several processes
/// on one host line up: at the same `t`, their `position`s should agree (the skew benchmark reads
/// them that way).
///
///     {"t":1764620000123456789,"sample":{"participant":"p2","primary":42.125,"rate":1,"expected":42.121,"skew_ms":4.0}}
///     {"t":1764620000223456789,"event":"presence","participant":"p3","state":"lost"}
final class JoinTrace: Sendable {
    private let handle: FileHandle
    private let lock = Mutex(())

    init(path: String, io: CommandIO) throws {
        if path == "-" {
            handle = FileHandle.standardOutput
        } else {
            guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
                throw CommandFailure(message: "cannot write the trace to \(path)")
            }
            self.handle = handle
        }
    }

    static func realTime() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    private func line(_ fields: [String: WireValue], at time: Int64 = JoinTrace.realTime()) {
        var object = WireObject()
        object["t"] = .integer(time)
        for key in fields.keys.sorted() { object[key] = fields[key] }
        var bytes = WireValue.object(object).jsonBytes
        bytes.append(UInt8(ascii: "\n"))
        lock.withLock { _ in handle.write(Data(bytes)) }
    }

    private static func seconds(_ time: MediaTime) -> WireValue { .double(time.seconds) }

    /// Where the player is and where the group expects it.
    func sample(_ participant: GroupSessionParticipant) {
        guard let welcome = participant.welcome else { return }
        let player = participant.player
        var sample: [String: WireValue] = ["participant": .string(welcome.participant.rawValue), "rate": .double(player.rate)]
        // The time is read next to the position, not when the line is written: on a busy machine
        // the reads below can take milliseconds, and the traces are compared at `t`.
        let position = player.position
        let time = Self.realTime()
        switch position {
        case .primary(let time): sample["primary"] = Self.seconds(time)
        case .interstitial(let id, let offset):
            sample["break"] = .string(id)
            sample["offset"] = Self.seconds(offset)
        }
        sample["status"] = .string("\(player.timeControlStatus)")
        switch participant.expectedPosition(atHostTime: player.hostTime) {
        case .primary(let time)?: sample["expected"] = Self.seconds(time)
        case .interstitial(let id, let offset)?:
            sample["expectedBreak"] = .string(id)
            sample["expectedOffset"] = Self.seconds(offset)
        case nil: break
        }
        if let skew = participant.skew { sample["skew_ms"] = .double(Double(skew / .microseconds(1)) / 1000) }
        if let status = participant.groupStatus {
            sample["group"] = .string("\(status.status)")
            if !status.blockers.isEmpty { sample["waitingFor"] = .array(status.blockers.map { .string($0.participant.rawValue) }) }
        }
        var object = WireObject()
        for key in sample.keys.sorted() { object[key] = sample[key] }
        line(["sample": .object(object)], at: time)
    }

    /// One participant event.
    func write(_ event: GroupSessionParticipant.Event) {
        switch event {
        case .welcomed(let welcome, let isFirst):
            line(["event": .string(isFirst ? "welcomed" : "resumed"), "participant": .string(welcome.participant.rawValue),
                  "role": .string(welcome.role.rawValue), "version": .integer(Int64(clamping: welcome.version))])
        case .disconnected(let reason):
            line(["event": .string("disconnected"), "reason": .string(reason)])
        case .presence(let presence):
            line(["event": .string("presence"), "participant": .string(presence.participant.rawValue), "state": .string(presence.state.rawValue)])
        case .refused(let error):
            line(["event": .string("refused"), "code": .string(error.code.rawValue), "message": .string(error.message)])
        case .stopped(let error):
            line(["event": .string("stopped"), "code": .string(error.code.rawValue), "message": .string(error.message)])
        case .driver(.groupWait(let wait)):
            line(["event": .string("groupWait"), "waitingFor": .array((wait?.blockers ?? []).map { .string($0.participant.rawValue) })])
        case .driver(.clockSynchronized(let estimate)):
            line(["event": .string("clockSynchronized"), "rtt_ms": .double(Double(estimate.minimumRoundTripTime / .microseconds(1)) / 1000)])
        case .driver(.itemCoordinated(let item)):
            line(["event": .string("itemCoordinated"), "item": .string(item)])
        case .driver(.coordinator):
            break
        case .playerCommand(let command, let originator):
            line(["event": .string("playerCommand"), "command": .string("\(command)"), "originator": .string(originator?.rawValue ?? "")])
        case .custom(let messageType, _, let sender):
            line(["event": .string("custom"), "messageType": .string(messageType), "from": .string(sender.rawValue)])
        }
    }

    /// A `--action` carried out now.
    func action(_ action: PlayAction) {
        line(["event": .string("action"), "action": .string(action.text), "description": .string(action.description)])
    }

    func close() {
        lock.withLock { _ in try? handle.synchronize() }
    }
}
