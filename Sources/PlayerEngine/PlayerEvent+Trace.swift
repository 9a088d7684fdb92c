import HLSInterstitials
import MediaTime

extension PlayerEvent {
    /// The event as one line of JSON with a fixed key order — `t` (host seconds), `event`, then
    /// the event's fields — for `interlude play --trace` and golden traces.
    public var traceLine: String {
        var fields: [(String, String)] = [("t", Self.number(hostTime)), ("event", Self.string(kind.name))]
        fields += kind.traceFields
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    static func number(_ duration: Duration) -> String {
        MediaTime(duration).decimalString(fallbackDigits: 9)
    }

    static func number(_ time: MediaTime) -> String {
        guard time.isNumeric else { return string(time.isIndefinite ? "indefinite" : "invalid") }
        return time.decimalString(fallbackDigits: 6)
    }

    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}

extension PlayerEvent.Kind {
    /// The event's name in traces.
    public var name: String {
        switch self {
        case .currentItemChanged: return "currentItem"
        case .itemStatusChanged: return "itemStatus"
        case .durationChanged: return "duration"
        case .timeControlStatusChanged: return "timeControlStatus"
        case .interstitialTimeControlStatusChanged: return "interstitialStatus"
        case .rateChanged: return "rate"
        case .timeJumped: return "timeJumped"
        case .seekCompleted: return "seekCompleted"
        case .periodicTime: return "periodicTime"
        case .boundaryTime: return "boundaryTime"
        case .loaded: return "loaded"
        case .loadFailed: return "loadFailed"
        case .loadRecovered: return "loadRecovered"
        case .variantSwitched: return "variantSwitched"
        case .stalled: return "stalled"
        case .interstitialEventsChanged: return "events"
        case .currentEventChanged: return "currentEvent"
        case .assetListResponse: return "assetList"
        case .assetStarted: return "assetStarted"
        case .breakEnded: return "breakEnded"
        case .skippableChanged: return "skippable"
        case .timelineChanged: return "timelineChanged"
        case .warning: return "warning"
        case .playedToEnd: return "playedToEnd"
        }
    }

    var traceFields: [(String, String)] {
        typealias E = PlayerEvent
        switch self {
        case .currentItemChanged(let url): return [("url", url.map(E.string) ?? "null")]
        case .itemStatusChanged(let status):
            if case .failed(let error) = status { return [("status", E.string("failed")), ("error", E.string(error.description))] }
            return [("status", E.string(status.description))]
        case .durationChanged(let duration): return [("duration", E.number(duration))]
        case .timeControlStatusChanged(let status), .interstitialTimeControlStatusChanged(let status):
            if case .waitingToPlayAtSpecifiedRate(let reason) = status {
                return [("status", E.string("waiting")), ("reason", E.string(reason.rawValue))]
            }
            return [("status", E.string(status.description))]
        case .rateChanged(let rate, let originator): return [("rate", "\(rate)"), ("originator", E.string(originator.rawValue))]
        case .timeJumped(let time, let originator): return [("to", E.number(time)), ("originator", E.string(originator.rawValue))]
        case .seekCompleted(let id, let finished): return [("id", "\(id)"), ("finished", "\(finished)")]
        case .periodicTime(let observer, let time), .boundaryTime(let observer, let time):
            return [("observer", "\(observer)"), ("time", E.number(time))]
        case .loaded(let resource, let url, let bytes):
            return [("resource", E.string(resource.rawValue)), ("url", E.string(url)), ("bytes", "\(bytes)")]
        case .loadFailed(let resource, let url, let message, let willRetry):
            return [("resource", E.string(resource.rawValue)), ("url", E.string(url)), ("message", E.string(message)), ("willRetry", "\(willRetry)")]
        case .loadRecovered(let resource, let url, let attempts, let outage):
            return [("resource", E.string(resource.rawValue)), ("url", E.string(url)), ("attempts", "\(attempts)"), ("outage", E.number(outage))]
        case .variantSwitched(let bandwidth, let reason): return [("bandwidth", "\(bandwidth)"), ("reason", E.string(reason.rawValue))]
        case .stalled(let time): return [("at", E.number(time))]
        case .interstitialEventsChanged(let ids): return [("ids", "[" + ids.map(E.string).joined(separator: ",") + "]")]
        case .currentEventChanged(let id): return [("id", id.map(E.string) ?? "null")]
        case .assetListResponse(let eventID, let status): return [("id", E.string(eventID)), ("status", E.string(status.description))]
        case .assetStarted(let eventID, let index, let url): return [("id", E.string(eventID)), ("index", "\(index)"), ("url", E.string(url))]
        case .breakEnded(let eventID, let end, let resume): return [("id", E.string(eventID)), ("end", E.string(end.description)), ("resumeAt", E.number(resume))]
        case .skippableChanged(let eventID, let skippable): return [("id", E.string(eventID)), ("skippable", "\(skippable)")]
        case .timelineChanged(let reasons): return [("reasons", "[" + reasons.map { E.string($0.rawValue) }.joined(separator: ",") + "]")]
        case .warning(let message): return [("message", E.string(message))]
        case .playedToEnd: return []
        }
    }
}
