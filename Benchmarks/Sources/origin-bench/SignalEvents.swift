import Dispatch
import Synchronization
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Signals delivered as an async sequence: the signals' default actions are ignored and each
/// arrival yields the signal's number.
enum SignalEvents {
    /// A dispatch source; they are thread-safe, the Swift overlay just does not say so.
    private struct Source: @unchecked Sendable {
        var source: any DispatchSourceSignal
    }

    /// The dispatch sources, kept for the life of the process.
    private static let sources = Mutex<[Source]>([])

    /// The stream of `numbers` as they arrive.
    static func stream(_ numbers: [Int32]) -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        for number in numbers {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            let kept = Source(source: source)
            sources.withLock { $0.append(kept) }
        }
        return stream
    }
}
