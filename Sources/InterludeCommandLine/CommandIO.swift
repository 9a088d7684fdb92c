import Foundation
import Synchronization

/// Where a command writes: data to standard output, diagnostics to standard error.
///
/// ``standard`` writes to the process's streams; ``capturing()`` collects both for tests.
public final class CommandIO: Sendable {
    private let output: @Sendable ([UInt8]) -> Void
    private let error: @Sendable (String) -> Void
    /// Whether standard output is a terminal (progress and live displays only then).
    public let isTerminal: Bool
    private let captured: Captured?

    private final class Captured: Sendable {
        let state = Mutex<(out: [UInt8], err: String)>(([], ""))
    }

    private init(output: @escaping @Sendable ([UInt8]) -> Void, error: @escaping @Sendable (String) -> Void, isTerminal: Bool,
                 captured: Captured?) {
        self.output = output
        self.error = error
        self.isTerminal = isTerminal
        self.captured = captured
    }

    /// The process's standard output and standard error.
    public static var standard: CommandIO {
        CommandIO(
            output: { bytes in FileHandle.standardOutput.write(Data(bytes)) },
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
    public func write(_ text: String) { write(bytes: Array(text.utf8)) }

    /// Writes bytes to standard output as they are (a playlist written back need not be UTF-8).
    public func write(bytes: [UInt8]) {
        if let captured {
            captured.state.withLock { $0.out += bytes }
        } else {
            output(bytes)
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
    public var capturedOutput: String { String(decoding: capturedOutputBytes, as: UTF8.self) }
    /// Everything written to standard output so far, as bytes (capturing IO only).
    public var capturedOutputBytes: [UInt8] { captured?.state.withLock { $0.out } ?? [] }
    /// Everything written to standard error so far (capturing IO only).
    public var capturedError: String { captured?.state.withLock { $0.err } ?? "" }
}
