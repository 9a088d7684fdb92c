import Foundation
import Glibc
import GroupService
import Synchronization
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


/// The Redis store's promise when redis-server itself is killed (`appendonly yes`,
/// `appendfsync always`): a commit that returned is in the append-only file.
@Suite("Redis session store crash")
struct RedisStoreCrashTests {
    @Test("every version acknowledged before redis-server is killed with SIGKILL is there after it restarts, with no gap")
    func killedServer() throws {
        let redis = try RedisServer()
        let seed: UInt64 = 0xC2A6
        var random = SeededGenerator(seed: seed)
        let payload = "{\"filler\":\"" + String(repeating: "x", count: 700) + "\"}"
        var stored: UInt64 = 0
        for round in 1...3 {
            let store = try RedisSessionStore(url: redis.url, eventsKeptPerSession: .max)
            defer { store.close() }
            if round == 1 {
                var batch = StoreBatch()
                batch.newSessions = [SessionRecord(id: "crash", stream: "vod/crash", createdAt: 1)]
                try store.commit(batch)
            }
            // A writer thread commits one-event batches and notes each acknowledged version; the
            // server is killed while it writes.
            let acknowledged = Mutex<[UInt64]>([])
            let done = Mutex(false)
            let first = stored
            let writer = Thread {
                var version = first
                while !done.withLock({ $0 }) {
                    version += 1
                    var batch = StoreBatch()
                    batch.append(StoredEvent(version: version, sender: "p1", kind: "custom", retainKey: version % 3 == 0 ? "key/\(version % 7)" : nil,
                                             commandID: "command-\(version)", payload: payload, recordedAt: Int64(version)), to: "crash")
                    if version % 10 == 0 { batch.revoke("token-\(version)", expiresAt: .max) }
                    do { try store.commit(batch) } catch { break }
                    acknowledged.withLock { $0.append(version) }
                }
                done.withLock { $0 = true }
            }
            writer.start()
            let deadline = ContinuousClock.now + .seconds(10)
            while acknowledged.withLock({ $0.count }) < 20, ContinuousClock.now < deadline { usleep(1_000) }
            usleep(useconds_t(Int.random(in: 0..<300_000, using: &random)))
            redis.stop()
            while !done.withLock({ $0 }) { usleep(1_000) }
            let acked = acknowledged.withLock { $0 }
            try #require(acked.count >= 20, "round \(round): only \(acked.count) commits before the kill")

            try redis.restart()
            let reopened = try RedisSessionStore(url: redis.url, eventsKeptPerSession: .max)
            defer { reopened.close() }
            let session = try #require(try reopened.loadAll().first { $0.record.id == "crash" })
            #expect(session.record.version >= acked.last!, "round \(round): acknowledged \(acked.last!), stored \(session.record.version) (seed \(seed))")
            let versions = try reopened.events(session: "crash", after: 0, limit: .max).map(\.version)
            #expect(versions == Array(1...session.record.version), "round \(round): the log has a gap or a hole")
            for version in acked where version % 10 == 0 {
                #expect(try reopened.isRevoked(tokenID: "token-\(version)"), "round \(round): batch \(version) was kept in part")
            }
            #expect(try reopened.commandVersion(session: "crash", sender: "p1", commandID: "command-\(acked.last!)") == acked.last!)
            stored = session.record.version
        }
    }
}
