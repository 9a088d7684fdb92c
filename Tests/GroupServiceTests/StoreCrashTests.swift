import Foundation
import Glibc
import GroupService
import Testing
import TestSupport

/// The store's promise under `kill -9`: a commit that returned is on disk, and the file is sound.
@Suite("Session store crash")
struct StoreCrashTests {
    @Test("every version acknowledged before a SIGKILL is there after reopening, and the file passes its integrity check")
    func killedWriter() throws {
        let writer = try #require(ChildProcess.besideTestBinary("store-crash-writer"), "store-crash-writer is built beside the test binary by swift build")
        let directory = try TemporaryDirectory()
        let path = directory.file("crash.sqlite")
        let seed: UInt64 = 0xC2A5
        var random = SeededGenerator(seed: seed)
        var stored: UInt64 = 0
        for round in 1...5 {
            let child = try ChildProcess(executable: writer, arguments: [path])
            // The first acknowledgement shows the store open and writing; the kill comes within 0.5 s of it.
            var output = child.read(until: .now + .seconds(10)) { $0.contains(UInt8(ascii: "\n")) }
            try #require(output.contains(UInt8(ascii: "\n")), "round \(round): the writer acknowledged nothing within 10 s")
            output += child.read(until: .now + .milliseconds(Int.random(in: 0..<500, using: &random))) { _ in false }
            let signal = child.kill()
            output += child.readToEnd()
            #expect(signal == SIGKILL, "round \(round): the writer ended otherwise than by the kill (seed \(seed))")

            let acknowledged = String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { UInt64($0) }
            #expect(acknowledged.first == stored + 1, "round \(round): the writer continues from the stored version")
            #expect(acknowledged == Array((stored + 1)...(acknowledged.last ?? stored)), "round \(round)")

            let store = try SQLiteSessionStore(path: path)
            #expect(try store.integrityProblems() == [], "round \(round)")
            let session = try #require(try store.loadAll().first { $0.record.id == "crash" })
            stored = session.record.version
            let last = try #require(acknowledged.last)
            #expect(stored >= last, "round \(round): acknowledged \(last), stored \(stored) (seed \(seed))")
            let versions = try store.events(session: "crash", after: 0, limit: .max).map(\.version)
            #expect(versions == Array(1...max(stored, 1)), "round \(round): the log has a gap or a hole")
            for version in acknowledged where version % 10 == 0 {
                #expect(try store.isRevoked(tokenID: "token-\(version)"), "round \(round): batch \(version) was kept in part")
            }
            #expect(session.snapshot.count == min(7, Int(stored / 3)), "round \(round): one retained event per key")
        }
    }
}

