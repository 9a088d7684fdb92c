// store-crash-writer PATH: commits one-event batches to the session "crash" in the store at PATH,
// continuing from its stored version, and after each commit returns writes the version and a
// newline to stdout with one write(2): that line is the acknowledgement the crash test holds the
// store to. Every 10th batch also upserts a participant and revokes a token, and every 3rd event
// is retained, so that a kill lands in every kind of write. Runs until it is killed, until stdout
// is closed, or for 60 s at most.
import GroupService
import Glibc

/// Writes `text` with one write(2); whether all of it went.
func write(_ text: String, to descriptor: Int32) -> Bool {
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    _ = write("usage: store-crash-writer PATH\n", to: 2)
    exit(64)
}
signal(SIGPIPE, SIG_DFL)

let started = time(nil)
do throws(SessionStoreError) {
    // Nothing is trimmed: the test checks every acknowledged version.
    let store = try SQLiteSessionStore(path: arguments[1], eventsKeptPerSession: .max)
    var version = try store.loadAll().first { $0.record.id == "crash" }?.record.version ?? 0
    if version == 0 {
        var batch = StoreBatch()
        batch.newSessions = [SessionRecord(id: "crash", stream: "vod/crash", createdAt: Int64(started))]
        try store.commit(batch)
    }
    let payload = "{\"filler\":\"" + String(repeating: "x", count: 700) + "\"}"
    while time(nil) - started < 60 {
        version += 1
        var batch = StoreBatch()
        batch.append(
            StoredEvent(
                version: version,
                sender: "p\(version % 4)",
                kind: "custom",
                retainKey: version % 3 == 0 ? "key/\(version % 7)" : nil,
                commandID: "command-\(version)",
                payload: payload,
                recordedAt: Int64(version)
            ),
            to: "crash"
        )
        if version % 10 == 0 {
            batch.participants = [
                ParticipantRecord(
                    id: "p\(version % 4)", session: "crash", name: "viewer", role: "viewer",
                    secretHash: String(repeating: "ab", count: 32), joinedAt: 1, lastSeenAt: Int64(version), state: "present"
                )
            ]
            batch.revoke("token-\(version)", expiresAt: Int64(version))
        }
        try store.commit(batch)
        guard write("\(version)\n", to: 1) else { exit(0) }
    }
} catch {
    _ = write("store-crash-writer: \(error)\n", to: 2)
    exit(1)
}
