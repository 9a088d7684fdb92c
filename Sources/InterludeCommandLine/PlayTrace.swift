import Synchronization

/// The `--trace` output of `interlude play`: one JSON line per player event (its `traceLine`),
/// collected as events arrive on any thread and written out in batches by ``flush()``.
final class PlayTrace: Sendable {
    private let sink: @Sendable (String) -> Void
    private let buffer = Mutex<String>("")

    /// Batches larger than this are written at once rather than waiting for a ``flush()``.
    private static let batchLimit = 64 * 1024

    /// A trace writing its batches to `sink`.
    init(sink: @escaping @Sendable (String) -> Void) {
        self.sink = sink
    }

    /// Adds one line (without its newline).
    func append(_ line: String) {
        buffer.withLock { buffer in
            buffer += line
            buffer += "\n"
            if buffer.utf8.count >= Self.batchLimit { write(&buffer) }
        }
    }

    /// Writes what is waiting.
    func flush() {
        buffer.withLock { write(&$0) }
    }

    /// Writes under the lock, so that batches keep their order whichever thread writes them.
    private func write(_ buffer: inout String) {
        guard !buffer.isEmpty else { return }
        sink(buffer)
        buffer = ""
    }
}
