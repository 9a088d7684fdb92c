import Foundation
import Testing

/// Golden files (research/aesthetics.md, appendix B): compared byte for byte; on a mismatch the
/// actual text is attached and the first differing line named. `UPDATE_GOLDENS=1` rewrites the
/// file and still fails, so that nobody commits a golden without reviewing it.
public enum Golden {
    public static var isUpdating: Bool { ProcessInfo.processInfo.environment["UPDATE_GOLDENS"] == "1" }

    /// Checks `actual` against the golden at `url` (or rewrites it under `UPDATE_GOLDENS=1`).
    public static func check(_ actual: String, against url: URL, sourceLocation: SourceLocation = #_sourceLocation) {
        let name = url.pathComponents.suffix(3).joined(separator: "/")
        if isUpdating {
            do {
                try actual.write(to: url, atomically: true, encoding: .utf8)
                Issue.record("UPDATE_GOLDENS=1 rewrote \(name): review it, then run the tests again without UPDATE_GOLDENS",
                             sourceLocation: sourceLocation)
            } catch {
                Issue.record("cannot write \(name): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Attachment.record(actual, named: url.lastPathComponent, sourceLocation: sourceLocation)
            Issue.record("missing golden \(name); record it with UPDATE_GOLDENS=1 swift test and review it", sourceLocation: sourceLocation)
            return
        }
        guard expected != actual else { return }
        Attachment.record(actual, named: url.lastPathComponent, sourceLocation: sourceLocation)
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let line = Array(zip(expectedLines, actualLines)).firstIndex { $0 != $1 } ?? min(expectedLines.count, actualLines.count)
        let wanted = line < expectedLines.count ? String(expectedLines[line]) : "(end of file)"
        let found = line < actualLines.count ? String(actualLines[line]) : "(end of output)"
        Issue.record(
            """
            \(name) differs from its golden at line \(line + 1):
              golden: \(wanted)
              actual: \(found)
            If the change is intended, re-record with UPDATE_GOLDENS=1 swift test and review the diff.
            """,
            sourceLocation: sourceLocation
        )
    }
}
