import FoundationEssentials
import HLSInterstitials
import HLSPlaylist
import MediaTime

extension OriginConfiguration {
    /// Reads a configuration file (the format is described on ``OriginConfiguration``) and checks
    /// what can be checked without the media: identifiers, references between ads, viewers and
    /// pods, break positions against CUE, and the date-range attributes.
    ///
    /// The checks that need the measured media (positions on the segment grid, pods that fit
    /// between live breaks) happen when an ``Origin`` is made.
    ///
    /// - Throws: ``OriginConfigurationError`` with the JSON path of the first problem.
    public init(json bytes: [UInt8]) throws(OriginConfigurationError) {
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        } catch {
            let (path, message) = JSONValue.describe(error)
            throw OriginConfigurationError(path: path, message: message)
        }
        let reader = try JSONObjectReader(root, path: "$", keys: ["content", "programDateTime", "ads", "viewers", "streams"])

        var content = Content(media: "content")
        if let contentValue = reader.value("content") {
            let object = try JSONObjectReader(contentValue, path: "$.content", keys: ["media", "codecs", "resolution", "frameRate"])
            content.media = try object.string("media") ?? content.media
            content.codecs = try object.string("codecs")
            content.resolution = try object.string("resolution")
            if let resolution = content.resolution, Resolution(playlistText: resolution) == nil {
                throw OriginConfigurationError(path: "$.content.resolution", message: "\"\(resolution)\" is not WIDTHxHEIGHT, such as 320x180")
            }
            content.frameRate = try object.seconds("frameRate")
        }

        var programDateTime = PlaylistDate(nanosecondsSince1970: 1_767_225_600 * 1_000_000_000)  // 2026-01-01T00:00:00Z
        if let date = try reader.date("programDateTime") { programDateTime = date }

        var ads: [Ad] = []
        for (index, value) in try reader.array("ads").enumerated() {
            let object = try JSONObjectReader(value, path: "$.ads[\(index)]", keys: ["id", "media", "durationSeconds"])
            ads.append(Ad(id: try object.identifier("id"), media: try object.requiredString("media"),
                          duration: try object.positiveSeconds("durationSeconds")))
        }
        try Self.checkUnique(ads.map(\.id), path: "$.ads", noun: "ad")
        let adIDs = Set(ads.map(\.id))

        var viewers: [Viewer] = []
        for (index, value) in try reader.array("viewers").enumerated() {
            let path = "$.viewers[\(index)]"
            let object = try JSONObjectReader(value, path: path, keys: ["id", "premium", "region", "pod"])
            let pod = try object.strings("pod") ?? []
            try Self.checkPod(pod, known: adIDs, path: path + ".pod")
            viewers.append(Viewer(id: try object.identifier("id"), isPremium: try object.bool("premium") ?? false,
                                  region: try object.string("region"), pod: pod))
        }
        try Self.checkUnique(viewers.map(\.id), path: "$.viewers", noun: "viewer")

        var streams: [Stream] = []
        for (index, value) in try reader.array("streams").enumerated() {
            streams.append(try Self.stream(value, path: "$.streams[\(index)]", adIDs: adIDs))
        }
        try Self.checkUnique(streams.map(\.id), path: "$.streams", noun: "stream")
        self.init(content: content, programDateTime: programDateTime, ads: ads, viewers: viewers, streams: streams)
    }

    private static func stream(_ value: JSONValue, path: String, adIDs: Set<String>) throws(OriginConfigurationError) -> Stream {
        let common = ["id", "kind", "mode", "segmentDurationSeconds"]
        let probe = try JSONObjectReader(value, path: path, keys: nil)
        let kindText = try probe.requiredString("kind")
        guard let kind = Kind(rawValue: kindText) else {
            throw OriginConfigurationError(path: path + ".kind", message: "must be \"vod\" or \"live\", not \"\(kindText)\"")
        }
        let object: JSONObjectReader
        switch kind {
        case .vod: object = try JSONObjectReader(value, path: path, keys: common + ["durationSeconds", "breaks"])
        case .live:
            object = try JSONObjectReader(value, path: path, keys: common + ["windowSeconds", "deltaUpdates", "startDate", "repeatingBreak"])
        }
        let id = try object.identifier("id")
        let modeText = try object.requiredString("mode")
        guard let mode = Mode(rawValue: modeText) else {
            throw OriginConfigurationError(path: path + ".mode", message: "must be \"interstitials\" or \"stitched\", not \"\(modeText)\"")
        }
        let segmentDuration = try object.positiveSeconds("segmentDurationSeconds")
        switch kind {
        case .vod:
            guard let duration = try object.positiveSeconds("durationSeconds") else {
                throw OriginConfigurationError(path: path + ".durationSeconds", message: "is required for a VOD stream (seconds of content)")
            }
            var breaks: [Break] = []
            for (index, breakValue) in try object.array("breaks").enumerated() {
                let breakPath = "\(path).breaks[\(index)]"
                let breakObject = try JSONObjectReader(breakValue, path: breakPath, keys: ["id", "positionSeconds", "regions", "pod", "dateRange"])
                guard let position = try breakObject.seconds("positionSeconds") else {
                    throw OriginConfigurationError(path: breakPath + ".positionSeconds", message: "is required (seconds into the content)")
                }
                guard !position.isNegative, !(duration < position) else {
                    throw OriginConfigurationError(
                        path: breakPath + ".positionSeconds",
                        message: "\(position.decimalString()) is outside the content (0 to \(duration.decimalString()) s)"
                    )
                }
                let dateRange = try dateRangeTemplate(breakObject.value("dateRange"), path: breakPath + ".dateRange")
                let cue = dateRange.cue ?? []
                if cue.contains(.pre), !position.isZero {
                    throw OriginConfigurationError(path: breakPath, message: "CUE=\"PRE\" plays before the content: set positionSeconds to 0")
                }
                if cue.contains(.post), position != duration {
                    throw OriginConfigurationError(
                        path: breakPath, message: "CUE=\"POST\" plays after the content: set positionSeconds to \(duration.decimalString())"
                    )
                }
                breaks.append(Break(id: try breakObject.identifier("id"), position: position,
                                    targeting: try targeting(breakObject, path: breakPath, adIDs: adIDs), dateRange: dateRange))
            }
            try checkUnique(breaks.map(\.id), path: path + ".breaks", noun: "break")
            try checkUnique(breaks.map { $0.position.decimalString() }, path: path + ".breaks", noun: "break position")
            breaks.sort { $0.position < $1.position }
            return Stream(id: id, mode: mode, segmentDuration: segmentDuration, timing: .vod(VOD(duration: duration, breaks: breaks)))
        case .live:
            guard let window = try object.positiveSeconds("windowSeconds") else {
                throw OriginConfigurationError(path: path + ".windowSeconds", message: "is required for a live stream (seconds in a playlist)")
            }
            var repeating: RepeatingBreak?
            if let breakValue = object.value("repeatingBreak") {
                let breakPath = path + ".repeatingBreak"
                let breakObject = try JSONObjectReader(
                    breakValue, path: breakPath, keys: ["id", "firstAtSeconds", "everySeconds", "regions", "pod", "dateRange"]
                )
                guard let interval = try breakObject.positiveSeconds("everySeconds") else {
                    throw OriginConfigurationError(path: breakPath + ".everySeconds", message: "is required (seconds from one break to the next)")
                }
                let first = try breakObject.seconds("firstAtSeconds") ?? interval
                guard !first.isNegative else {
                    throw OriginConfigurationError(path: breakPath + ".firstAtSeconds", message: "must not be negative")
                }
                let dateRange = try dateRangeTemplate(breakObject.value("dateRange"), path: breakPath + ".dateRange")
                if let cue = dateRange.cue, cue.contains(.pre) || cue.contains(.post) {
                    throw OriginConfigurationError(
                        path: breakPath + ".dateRange.CUE", message: "PRE and POST cues are for VOD; a live break plays at its date (ONCE is allowed)"
                    )
                }
                repeating = RepeatingBreak(idPrefix: try breakObject.identifier("id"), first: first, interval: interval,
                                           targeting: try targeting(breakObject, path: breakPath, adIDs: adIDs), dateRange: dateRange)
            }
            let live = Live(window: window, hasDeltaUpdates: try object.bool("deltaUpdates") ?? false,
                            startDate: try object.date("startDate"), repeatingBreak: repeating)
            return Stream(id: id, mode: mode, segmentDuration: segmentDuration, timing: .live(live))
        }
    }

    private static func targeting(_ object: JSONObjectReader, path: String, adIDs: Set<String>) throws(OriginConfigurationError) -> Targeting {
        let pod = try object.strings("pod")
        if let pod { try checkPod(pod, known: adIDs, path: path + ".pod") }
        return Targeting(regions: try object.strings("regions"), pod: pod)
    }

    private static func checkPod(_ pod: [String], known: Set<String>, path: String) throws(OriginConfigurationError) {
        for (index, id) in pod.enumerated() where !known.contains(id) {
            throw OriginConfigurationError(
                path: "\(path)[\(index)]", message: "no ad \"\(id)\" in $.ads (known: \(known.sorted().joined(separator: ", ")))"
            )
        }
    }

    private static func checkUnique(_ ids: [String], path: String, noun: String) throws(OriginConfigurationError) {
        var seen: Set<String> = []
        for (index, id) in ids.enumerated() where !seen.insert(id).inserted {
            throw OriginConfigurationError(path: "\(path)[\(index)]", message: "a second \(noun) \"\(id)\"; each must be unique")
        }
    }

    /// The attributes the origin writes itself, which a configuration may not set.
    private static let managedAttributes: Set<String> = [
        "ID", "CLASS", "START-DATE", "END-DATE", "END-ON-NEXT", "X-ASSET-URI", "X-ASSET-LIST", "SCTE35-CMD", "SCTE35-OUT", "SCTE35-IN",
    ]

    /// Reads authored EXT-X-DATERANGE attributes into a date range (with an empty ID), through the
    /// playlist model's own attribute reader so that every value type is enforced.
    private static func dateRangeTemplate(_ value: JSONValue?, path: String) throws(OriginConfigurationError) -> DateRange {
        guard let value else { return DateRange(id: "") }
        guard case .object(let fields) = value else {
            throw OriginConfigurationError(path: path, message: "must be an object of EXT-X-DATERANGE attributes")
        }
        var attributes = [Attribute(name: "ID", value: .quotedString(""))]
        for name in fields.keys.sorted() {
            let field = fields[name]!
            let fieldPath = "\(path).\(name)"
            if managedAttributes.contains(name) {
                throw OriginConfigurationError(path: fieldPath, message: "is written by the origin and cannot be configured")
            }
            let attributeValue: AttributeValue
            switch name {
            case "DURATION", "PLANNED-DURATION", "X-RESUME-OFFSET", "X-PLAYOUT-LIMIT", "X-SKIP-CONTROL-OFFSET", "X-SKIP-CONTROL-DURATION":
                guard case .number(let text) = field else {
                    throw OriginConfigurationError(path: fieldPath, message: "must be a number of seconds")
                }
                attributeValue = .decimal(text)
            case "CUE", "X-SNAP", "X-RESTRICT":
                switch field {
                case .string(let text): attributeValue = .quotedString(text)
                case .array(let items):
                    var tokens: [String] = []
                    for item in items {
                        guard case .string(let token) = item else {
                            throw OriginConfigurationError(path: fieldPath, message: "must be a list of strings such as [\"OUT\", \"IN\"]")
                        }
                        tokens.append(token)
                    }
                    attributeValue = .quotedString(tokens.joined(separator: ","))
                default:
                    throw OriginConfigurationError(path: fieldPath, message: "must be a string or a list of strings")
                }
            case "X-CONTENT-MAY-VARY":
                switch field {
                case .bool(let flag): attributeValue = .quotedString(flag ? "YES" : "NO")
                case .string(let text): attributeValue = .quotedString(text)
                default: throw OriginConfigurationError(path: fieldPath, message: "must be \"YES\", \"NO\" or a boolean")
                }
            default:
                guard name.hasPrefix("X-") else {
                    throw OriginConfigurationError(
                        path: fieldPath, message: "is not an EXT-X-DATERANGE attribute an author sets (DURATION, PLANNED-DURATION, CUE or X-…)"
                    )
                }
                switch field {
                case .string(let text): attributeValue = .quotedString(text)
                case .number(let text): attributeValue = .decimal(text)
                default: throw OriginConfigurationError(path: fieldPath, message: "must be a string or a number")
                }
            }
            attributes.append(Attribute(name: name, value: attributeValue))
        }
        let range: DateRange
        do {
            range = try DateRange(attributes: attributes)
        } catch {
            throw OriginConfigurationError(path: "\(path).\(error.name)", message: error.reason)
        }
        func checkKnown(_ name: String, _ tokens: [String]?, _ isKnown: (String) -> Bool, _ allowed: String) throws(OriginConfigurationError) {
            for token in tokens ?? [] where !isKnown(token) {
                throw OriginConfigurationError(path: "\(path).\(name)", message: "\"\(token)\" is not one of \(allowed)")
            }
        }
        try checkKnown("CUE", range.cue?.map(\.rawValue), { DateRange.Cue(rawValue: $0).isKnown }, "PRE, POST, ONCE")
        if let cue = range.cue, cue.contains(.pre), cue.contains(.post) {
            throw OriginConfigurationError(path: path + ".CUE", message: "cannot hold both PRE and POST")
        }
        try checkKnown("X-SNAP", range.snap?.map(\.rawValue), { DateRange.Snap(rawValue: $0).isKnown }, "OUT, IN")
        try checkKnown("X-RESTRICT", range.restrict?.map(\.rawValue), { DateRange.Restriction(rawValue: $0).isKnown }, "SKIP, JUMP")
        try checkKnown("X-TIMELINE-OCCUPIES", range.timelineOccupies.map { [$0.rawValue] }, { DateRange.TimelineOccupancy(rawValue: $0).isKnown },
                       "POINT, RANGE")
        try checkKnown("X-TIMELINE-STYLE", range.timelineStyle.map { [$0.rawValue] }, { DateRange.TimelineStyle(rawValue: $0).isKnown },
                       "HIGHLIGHT, PRIMARY")
        try checkKnown("X-CONTENT-MAY-VARY", range.contentMayVary.map { [$0.rawValue] }, { DateRange.YesNo(rawValue: $0).boolValue != nil },
                       "YES, NO")
        return range
    }
}

/// Reads one JSON object of the configuration, naming the path of whatever is wrong.
struct JSONObjectReader {
    let path: String
    let fields: [String: JSONValue]

    /// Reads `value` as an object whose keys must all be in `keys` (any key when `nil`).
    init(_ value: JSONValue, path: String, keys: [String]?) throws(OriginConfigurationError) {
        guard case .object(let fields) = value else {
            throw OriginConfigurationError(path: path, message: "must be a JSON object")
        }
        if let keys {
            for key in fields.keys.sorted() where !keys.contains(key) {
                throw OriginConfigurationError(path: "\(path).\(key)", message: "unknown key; expected one of \(keys.joined(separator: ", "))")
            }
        }
        self.path = path
        self.fields = fields
    }

    func value(_ key: String) -> JSONValue? {
        guard let value = fields[key], value != .null else { return nil }
        return value
    }

    func string(_ key: String) throws(OriginConfigurationError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else { throw OriginConfigurationError(path: "\(path).\(key)", message: "must be a string") }
        return text
    }

    func requiredString(_ key: String) throws(OriginConfigurationError) -> String {
        guard let text = try string(key) else { throw OriginConfigurationError(path: "\(path).\(key)", message: "is required") }
        return text
    }

    /// A string usable in a URL path: letters, digits, `.`, `_` and `-`.
    func identifier(_ key: String) throws(OriginConfigurationError) -> String {
        let text = try requiredString(key)
        let allowed = text.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: ".")
        }
        guard !text.isEmpty, allowed, text != ".", text != ".." else {
            throw OriginConfigurationError(
                path: "\(path).\(key)", message: "\"\(text)\" must be a non-empty identifier of letters, digits, '.', '_' and '-' (it appears in URLs)"
            )
        }
        return text
    }

    func bool(_ key: String) throws(OriginConfigurationError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let flag) = value else { throw OriginConfigurationError(path: "\(path).\(key)", message: "must be true or false") }
        return flag
    }

    func seconds(_ key: String) throws(OriginConfigurationError) -> MediaTime? {
        guard let value = value(key) else { return nil }
        guard case .number(let text) = value, let time = MediaTime(decimal: text) else {
            throw OriginConfigurationError(path: "\(path).\(key)", message: "must be a number of seconds")
        }
        return time
    }

    func positiveSeconds(_ key: String) throws(OriginConfigurationError) -> MediaTime? {
        guard let time = try seconds(key) else { return nil }
        guard time > .zero else { throw OriginConfigurationError(path: "\(path).\(key)", message: "must be more than 0 seconds") }
        return time
    }

    func date(_ key: String) throws(OriginConfigurationError) -> PlaylistDate? {
        guard let text = try string(key) else { return nil }
        guard let date = PlaylistDate(iso8601: text) else {
            throw OriginConfigurationError(path: "\(path).\(key)", message: "\"\(text)\" is not an ISO 8601 date such as 2026-01-01T00:00:00Z")
        }
        return date
    }

    func array(_ key: String) throws(OriginConfigurationError) -> [JSONValue] {
        guard let value = value(key) else { return [] }
        guard case .array(let items) = value else { throw OriginConfigurationError(path: "\(path).\(key)", message: "must be an array") }
        return items
    }

    func strings(_ key: String) throws(OriginConfigurationError) -> [String]? {
        guard let value = value(key) else { return nil }
        guard case .array(let items) = value else {
            throw OriginConfigurationError(path: "\(path).\(key)", message: "must be an array of strings")
        }
        var result: [String] = []
        for (index, item) in items.enumerated() {
            guard case .string(let text) = item else {
                throw OriginConfigurationError(path: "\(path).\(key)[\(index)]", message: "must be a string")
            }
            result.append(text)
        }
        return result
    }
}
