import Synchronization

/// Process-wide unique connection ids: commands name connections by id, so a late command for a
/// connection that has gone (and whose `wsi` memory may be reused) finds nothing.
enum ConnectionID {
    private static let counter = Atomic<UInt64>(0)

    /// A fresh id, never 0.
    static func next() -> UInt64 { counter.add(1, ordering: .relaxed).newValue }
}
