import MediaTime

/// A de-facto stitched-ad marker (not part of RFC 8216bis, but written by most ad-insertion
/// servers): EXT-X-CUE-OUT, EXT-X-CUE-OUT-CONT, EXT-X-CUE-IN and EXT-OATCLS-SCTE35.
///
/// Markers attach to the segment that follows them, like the segment tags of the specification.
public enum AdMarker: Sendable, Hashable {
    /// `#EXT-X-CUE-OUT[:[DURATION=]<seconds>]`: an ad break starts here and lasts `duration`.
    case cueOut(duration: MediaTime?, attributes: String?)
    /// `#EXT-X-CUE-OUT-CONT:[ElapsedTime=<e>,Duration=<d>,…]` or `<e>/<d>`: a break is in progress.
    case cueOutContinuation(elapsed: MediaTime?, duration: MediaTime?, text: String)
    /// `#EXT-X-CUE-IN`: the break ends here; primary content resumes.
    case cueIn
    /// `#EXT-OATCLS-SCTE35:<base64>`: the SCTE-35 splice message carried with CUE-OUT.
    case oatclsSCTE35(String)

    /// Reads the value of an EXT-X-CUE-OUT tag: a bare number, `DURATION=<n>` or an attribute list.
    static func cueOut(value: String?) -> AdMarker {
        guard let value, !value.isEmpty else { return .cueOut(duration: nil, attributes: nil) }
        if let duration = MediaTime(decimal: value) { return .cueOut(duration: duration, attributes: nil) }
        var duration: MediaTime?
        for pair in value.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].uppercased() == "DURATION" {
                duration = MediaTime(decimal: parts[1].trimmingQuotes)
            }
        }
        return .cueOut(duration: duration, attributes: value)
    }

    /// Reads the value of an EXT-X-CUE-OUT-CONT tag in either common form.
    static func cueOutContinuation(value: String) -> AdMarker {
        if let slash = value.firstIndex(of: "/"), !value.contains("=") {
            return .cueOutContinuation(
                elapsed: MediaTime(decimal: value[..<slash]),
                duration: MediaTime(decimal: value[value.index(after: slash)...]),
                text: value
            )
        }
        var elapsed: MediaTime?
        var duration: MediaTime?
        for pair in value.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            switch parts[0].uppercased() {
            case "ELAPSEDTIME": elapsed = MediaTime(decimal: parts[1].trimmingQuotes)
            case "DURATION": duration = MediaTime(decimal: parts[1].trimmingQuotes)
            default: break
            }
        }
        return .cueOutContinuation(elapsed: elapsed, duration: duration, text: value)
    }

    /// The tag line in canonical form.
    public var playlistLine: String {
        switch self {
        case .cueOut(let duration, let attributes):
            if let attributes { return "#EXT-X-CUE-OUT:\(attributes)" }
            return duration.map { "#EXT-X-CUE-OUT:\($0.decimalString())" } ?? "#EXT-X-CUE-OUT"
        case .cueOutContinuation(_, _, let text): return "#EXT-X-CUE-OUT-CONT:\(text)"
        case .cueIn: return "#EXT-X-CUE-IN"
        case .oatclsSCTE35(let payload): return "#EXT-OATCLS-SCTE35:\(payload)"
        }
    }
}

extension Substring {
    var trimmingQuotes: Substring {
        var text = self
        if text.hasPrefix("\"") { text = text.dropFirst() }
        if text.hasSuffix("\"") { text = text.dropLast() }
        return text
    }
}
