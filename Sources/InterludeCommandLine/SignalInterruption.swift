import Dispatch
import Foundation

/// Ctrl-C and SIGTERM for the commands that run until stopped (`play`, `origin`, `serve`, `join`,
/// and `watch`, which adds SIGHUP: its terminal went away): while `body` runs, each of `signals`
/// calls `interrupt` (which should make `body` end: a graceful shutdown, a summary printed, a
/// session left, the terminal restored) instead of killing the process; afterwards they have
/// their default action again.
func withInterruption<T>(_ interrupt: @escaping @Sendable () -> Void, signals numbers: [Int32] = [SIGINT, SIGTERM],
                         _ body: () async throws -> T) async rethrows -> T {
    let sources = numbers.map { number -> any DispatchSourceSignal in
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler(handler: interrupt)
        source.resume()
        return source
    }
    defer {
        for (source, number) in zip(sources, numbers) {
            source.cancel()
            signal(number, SIG_DFL)
        }
    }
    return try await body()
}
