import FoundationEssentials
import HLSInterstitials

extension JSONValue {
    /// The value as compact JSON with sorted keys and unescaped slashes, so that URLs read as
    /// written and the same value always gives the same bytes.
    ///
    /// - Complexity: O(n) in the size of the value.
    func encodedBytes() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(self))
        } catch {
            // Every JSONValue is encodable: strings, finite numbers, booleans, arrays and objects.
            preconditionFailure("a JSON value did not encode: \(error)")
        }
    }
}
