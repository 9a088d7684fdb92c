import Foundation
import Synchronization

/// Where a command writes: data to standard output, diagnostics to standard error.
///
/// ``standard`` writes to the process's streams; ``capturing()`` collects both for tests.
public final class CommandIO: Sendable {
    private let output: @Sendable (String) -> Void
    private let error: @Sendable (String) -> Void
    /// Whether standard output is a terminal (progress and live displays only then).
    public let isTerminal: Bool
    private let captured: Captured?

    private final class Captured: Sendable {
        let state = Mutex<(out: String, err: String)>(("", ""))
    }

    private init(output: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void, isTerminal: Bool,
                 captured: Captured?) {
        self.output = output
        self.error = error
        self.isTerminal = isTerminal
        self.captured = captured
    }

    /// The process's standard output and standard error.
    public static var standard: CommandIO {
        CommandIO(
            output: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
            error: { text in FileHandle.standardError.write(Data(text.utf8)) },
            isTerminal: isatty(STDOUT_FILENO) == 1,
            captured: nil
        )
    }

    /// An IO that keeps everything written, for tests; `isTerminal` makes commands draw what
    /// they draw on a terminal.
    public static func capturing(isTerminal: Bool = false) -> CommandIO {
        CommandIO(output: { _ in }, error: { _ in }, isTerminal: isTerminal, captured: Captured())
    }

    /// Writes data to standard output.
    public func write(_ text: String) {
        if let captured {
            captured.state.withLock { $0.out += text }
        } else {
            output(text)
        }
    }

    /// Writes a diagnostic to standard error.
    public func writeError(_ text: String) {
        if let captured {
            captured.state.withLock { $0.err += text }
        } else {
            error(text)
        }
    }

    /// Everything written to standard output so far (capturing IO only).
    public var capturedOutput: String { captured?.state.withLock { $0.out } ?? "" }
    /// Everything written to standard error so far (capturing IO only).
    public var capturedError: String { captured?.state.withLock { $0.err } ?? "" }
}
