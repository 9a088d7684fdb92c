import FoundationEssentials
import MediaTime

/// An X-ASSET-LIST response (RFC 8216bis Appendix D.2, D.3): the assets to play back to back for
/// one break, and an optional skip control that overrides the DATERANGE's.
///
///     {"ASSETS": [{"URI": "https://ads.example.com/a.m3u8", "DURATION": 15}],
///      "SKIP-CONTROL": {"OFFSET": 5, "DURATION": 20, "LABEL-ID": "skip"}}
public struct AssetList: Sendable, Hashable {
    /// One asset of the list.
    public struct Asset: Sendable, Hashable {
        /// `URI`: the asset's (multivariant) playlist; absolute.
        public var uri: String
        /// `DURATION`: its duration in seconds, when given.
        public var duration: MediaTime?
        /// Keys the specification does not define, kept as JSON.
        public var otherKeys: [String: JSONValue]

        /// An asset.
        public init(uri: String, duration: MediaTime?, otherKeys: [String: JSONValue] = [:]) {
            self.uri = uri
            self.duration = duration
            self.otherKeys = otherKeys
        }
    }

    /// `SKIP-CONTROL`: each key given overrides the DATERANGE attribute of the same name
    /// (`OFFSET` → X-SKIP-CONTROL-OFFSET, and so on); the others keep the DATERANGE's values (D.3,
    /// D.7).
    public struct SkipControlOverride: Sendable, Hashable {
        /// `OFFSET`, when given.
        public var offset: MediaTime?
        /// `DURATION`, when given.
        public var duration: MediaTime?
        /// `LABEL-ID`, when given.
        public var labelID: String?

        /// An override.
        public init(offset: MediaTime? = nil, duration: MediaTime? = nil, labelID: String? = nil) {
            self.offset = offset
            self.duration = duration
            self.labelID = labelID
        }

        /// The skip control in force when this override applies to the DATERANGE's `base`: no
        /// button when neither gives an offset.
        public func applied(to base: InterstitialEvent.SkipControl?) -> InterstitialEvent.SkipControl? {
            guard let offset = offset ?? base?.offset else { return nil }
            return InterstitialEvent.SkipControl(offset: offset, duration: duration ?? base?.duration, labelID: labelID ?? base?.labelID)
        }
    }

    /// `ASSETS`, in playback order. Empty means "play nothing": the resumption offset is then 0
    /// unless X-RESUME-OFFSET says otherwise (D.5).
    public var assets: [Asset]
    /// `SKIP-CONTROL`: overrides the DATERANGE's X-SKIP-CONTROL-* attributes key by key.
    public var skipControl: SkipControlOverride?
    /// Top-level keys the specification does not define, kept as JSON.
    public var otherKeys: [String: JSONValue]
    /// Assets left out of ``assets`` because they cannot be played (an empty URI), each with its
    /// JSON path: one bad asset costs that asset, not the break (players report it as a warning).
    public var skippedAssets: [AssetListError]

    /// An asset list.
    public init(
        assets: [Asset], skipControl: SkipControlOverride? = nil, otherKeys: [String: JSONValue] = [:],
        skippedAssets: [AssetListError] = []
    ) {
        self.assets = assets
        self.skipControl = skipControl
        self.otherKeys = otherKeys
        self.skippedAssets = skippedAssets
    }

    /// The sum of the asset durations, when every asset states one.
    public var totalDuration: MediaTime? {
        var total = MediaTime.zero
        for asset in assets {
            guard let duration = asset.duration else { return nil }
            total += duration
        }
        return total
    }

    /// Decodes an asset-list document.
    ///
    /// Accepts DURATION as a JSON number or a numeric string (seen in the wild); a missing DURATION
    /// leaves the asset's duration unknown (clients play assets to completion).
    ///
    /// - Throws: ``AssetListError`` naming the JSON path of the problem.
    public init(json data: [UInt8]) throws(AssetListError) {
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: Data(data))
        } catch {
            let (path, message) = JSONValue.describe(error)
            throw AssetListError(path: path, message: message)
        }
        guard case .object(var object) = root else {
            throw AssetListError(path: "$", message: "must be a JSON object with an ASSETS array")
        }
        guard let assetsValue = object.removeValue(forKey: "ASSETS") else {
            throw AssetListError(path: "$.ASSETS", message: "is required")
        }
        guard case .array(let items) = assetsValue else {
            throw AssetListError(path: "$.ASSETS", message: "must be an array of asset objects")
        }
        var assets: [Asset] = []
        var skipped: [AssetListError] = []
        for (index, item) in items.enumerated() {
            let path = "$.ASSETS[\(index)]"
            guard case .object(var fields) = item else {
                throw AssetListError(path: path, message: "must be an object with URI and DURATION")
            }
            guard case .string(let uri)? = fields.removeValue(forKey: "URI") else {
                throw AssetListError(path: path + ".URI", message: "is required and must be a string")
            }
            guard !uri.isEmpty else {
                skipped.append(AssetListError(path: path + ".URI", message: "is empty; the asset is skipped"))
                continue
            }
            let duration = try Self.seconds(fields.removeValue(forKey: "DURATION"), path: path + ".DURATION")
            assets.append(Asset(uri: uri, duration: duration, otherKeys: fields))
        }
        var skipControl: SkipControlOverride?
        if let skipValue = object.removeValue(forKey: "SKIP-CONTROL") {
            guard case .object(let fields) = skipValue else {
                throw AssetListError(path: "$.SKIP-CONTROL", message: "must be an object with OFFSET, DURATION, LABEL-ID")
            }
            let offset = try Self.seconds(fields["OFFSET"], path: "$.SKIP-CONTROL.OFFSET")
            let duration = try Self.seconds(fields["DURATION"], path: "$.SKIP-CONTROL.DURATION")
            var label: String?
            if let labelValue = fields["LABEL-ID"] {
                guard case .string(let text) = labelValue else {
                    throw AssetListError(path: "$.SKIP-CONTROL.LABEL-ID", message: "must be a string")
                }
                label = text
            }
            skipControl = SkipControlOverride(offset: offset, duration: duration, labelID: label)
        }
        self.init(assets: assets, skipControl: skipControl, otherKeys: object, skippedAssets: skipped)
    }

    private static func seconds(_ value: JSONValue?, path: String) throws(AssetListError) -> MediaTime? {
        switch value {
        case nil, .null?:
            return nil
        case .number(let text)?, .string(let text)?:
            guard let time = MediaTime(decimal: text) ?? Double(text).flatMap({ MediaTime(seconds: $0, preferredTimescale: 1_000_000) }),
                !time.isNegative
            else {
                throw AssetListError(path: path, message: "must be a non-negative number of seconds, found \(text)")
            }
            return time
        default:
            throw AssetListError(path: path, message: "must be a number of seconds")
        }
    }
}

/// A malformed asset-list document.
public struct AssetListError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A JSON path such as `$.ASSETS[1].DURATION`.
    public var path: String
    /// What is wrong there.
    public var message: String

    /// `path message`.
    public var description: String { "asset list: \(path) \(message)" }
}

/// A JSON value, keeping numbers as their decimal text so durations convert exactly.
public enum JSONValue: Sendable, Hashable, Codable {
    /// `null`.
    case null
    /// `true` / `false`.
    case bool(Bool)
    /// A number, as its shortest decimal text.
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    /// The deepest nesting of arrays and objects ``init(from:)`` accepts; asset lists and
    /// configurations need a handful of levels, and a hostile document must not cost more.
    public static let maximumDepth = 64

    /// Decodes any JSON value, in time linear in the document: the container kinds are asked for
    /// first, and asking for the wrong kind fails at once without decoding what is inside.
    ///
    /// - Throws: `DecodingError.dataCorrupted` at the coding path where nesting goes deeper than
    ///   ``maximumDepth``.
    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            try Self.checkDepth(decoder)
            var fields: [String: JSONValue] = [:]
            fields.reserveCapacity(object.allKeys.count)
            for key in object.allKeys { fields[key.stringValue] = try object.decode(JSONValue.self, forKey: key) }
            self = .object(fields)
            return
        }
        if var array = try? decoder.unkeyedContainer() {
            try Self.checkDepth(decoder)
            var elements: [JSONValue] = []
            if let count = array.count { elements.reserveCapacity(count) }
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .number(String(value))
        } else if let value = try? container.decode(Double.self) {
            self = .number(Self.decimalText(value))
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    private static func checkDepth(_ decoder: any Decoder) throws {
        // The coding path holds one key per enclosing container.
        let path = decoder.codingPath
        guard path.count >= maximumDepth else { return }
        throw DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: path, debugDescription: "nests arrays and objects deeper than \(maximumDepth) levels")
        )
    }

    /// `$`, `$.ASSETS[2].URI`: a coding path written as a JSON path.
    public static func jsonPath(_ codingPath: [any CodingKey]) -> String {
        var path = "$"
        for key in codingPath {
            if let index = key.intValue { path += "[\(index)]" } else { path += "." + key.stringValue }
        }
        return path
    }

    /// Where a decoding error happened, as a JSON path, and what went wrong.
    public static func describe(_ error: any Error) -> (path: String, message: String) {
        guard let error = error as? DecodingError else { return ("$", "not valid JSON (\(error))") }
        switch error {
        case .dataCorrupted(let context) where !context.codingPath.isEmpty:
            return (jsonPath(context.codingPath), context.debugDescription)
        case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context):
            return (jsonPath(context.codingPath), "not valid JSON (\(context.debugDescription))")
        @unknown default:
            return ("$", "not valid JSON (\(error))")
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) {
            self.stringValue = String(intValue)
            self.intValue = intValue
        }
    }

    /// Encodes the value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let text):
            if let integer = Int64(text) { try container.encode(integer) } else { try container.encode(Double(text) ?? 0) }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The shortest decimal text that reads back as `value` (`15.5`, `0.1`), so that a duration
    /// written as 0.1 in JSON becomes exactly 1/10.
    static func decimalText(_ value: Double) -> String {
        let text = "\(value)"
        if text.hasSuffix(".0") { return String(text.dropLast(2)) }
        return text
    }
}

/// Builds the URL of an interstitial request (Appendix D.4): `_HLS_primary_id` on every
/// interstitial request (asset list, asset URI, each asset of a list) and, for an asset list
/// fetched when a live stream starts inside the break, `_HLS_start_offset`; query items already
/// in the URI are kept.
public enum InterstitialRequest {
    /// `uri` resolved against `base` (when relative), with the client's query items added (replacing
    /// any it already has).
    ///
    /// - Parameters:
    ///   - primaryID: the primary session's identifier (its `X-PLAYBACK-SESSION-ID`).
    ///   - startOffset: seconds from the start of the break to the playback start point; only for
    ///     asset lists when a live stream starts inside the break.
    public static func url(_ uri: String, relativeTo base: String? = nil, primaryID: String?, startOffset: MediaTime? = nil) -> String {
        var resolved = URIResolution.resolve(uri, against: base)
        // A data: URI carries its content and is not a request; a query would corrupt it (hls.js
        // leaves data: URIs alone too).
        if resolved.prefix(5).lowercased() == "data:" { return resolved }
        // A URI that already carries the client's items (an asset list echoing them) gets them
        // once, with this request's values.
        resolved = removingClientQueryItems(resolved)
        var items: [String] = []
        if let primaryID { items.append("_HLS_primary_id=\(percentEncoded(primaryID))") }
        if let startOffset, startOffset > .zero {
            items.append("_HLS_start_offset=\(startOffset.fixedDecimalString(digits: 3))")
        }
        guard !items.isEmpty else { return resolved }
        var fragment = ""
        if let hash = resolved.firstIndex(of: "#") {
            fragment = String(resolved[hash...])
            resolved = String(resolved[..<hash])
        }
        let separator = resolved.contains("?") ? (resolved.hasSuffix("?") || resolved.hasSuffix("&") ? "" : "&") : "?"
        return resolved + separator + items.joined(separator: "&") + fragment
    }

    /// Removes the query items a client adds, so that a request can be matched against the URI the
    /// playlist gave.
    public static func removingClientQueryItems(_ url: String) -> String {
        guard let question = url.firstIndex(of: "?") else { return url }
        var fragment = ""
        var rest = String(url[url.index(after: question)...])
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[hash...])
            rest = String(rest[..<hash])
        }
        let kept = rest.split(separator: "&").filter { !$0.hasPrefix("_HLS_primary_id=") && !$0.hasPrefix("_HLS_start_offset=") }
        let base = String(url[..<question])
        return (kept.isEmpty ? base : base + "?" + kept.joined(separator: "&")) + fragment
    }

    private static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(UnicodeScalar(byte))
            default:
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }
}

/// RFC 3986 reference resolution, enough for playlist URIs (absolute, scheme-relative,
/// absolute-path and relative references, with dot segments removed).
public enum URIResolution {
    /// `reference` resolved against `base`; unchanged when it is absolute or there is no base.
    public static func resolve(_ reference: String, against base: String?) -> String {
        guard let base else { return reference }
        if let resolved = resolveSimple(reference, against: base) { return resolved }
        guard !isAbsolute(reference) else { return reference }
        guard let schemeEnd = base.firstRange(of: "://") else { return reference }
        let scheme = String(base[..<schemeEnd.lowerBound])
        let afterScheme = base[schemeEnd.upperBound...]
        let authority = String(afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" })
        var basePath = String(afterScheme.dropFirst(authority.count).prefix { $0 != "?" && $0 != "#" })
        if basePath.isEmpty { basePath = "/" }
        if reference.hasPrefix("//") { return scheme + ":" + reference }
        var path: String
        var suffix = ""
        var body = reference
        if let index = body.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            suffix = String(body[index...])
            body = String(body[..<index])
        }
        if body.isEmpty {
            path = basePath
            // RFC 3986 §5.2.2: a reference without a path and without a query keeps the base's query.
            let baseWithoutFragment = base.prefix { $0 != "#" }
            if !suffix.hasPrefix("?"), let query = baseWithoutFragment.firstIndex(of: "?") {
                suffix = String(baseWithoutFragment[query...]) + suffix
            }
        } else if body.hasPrefix("/") {
            path = body
        } else {
            let directory = basePath.lastIndex(of: "/").map { String(basePath[...$0]) } ?? "/"
            path = directory + body
        }
        return scheme + "://" + authority + removeDotSegments(path) + suffix
    }

    /// The common cases of media playlists, a file name beside the playlist (`seg12.ts`) or a path
    /// on the same server (`/media/seg12.ts`), joined without the general algorithm's work; `nil`
    /// for any other reference (a scheme, a query, a fragment, a network path, dot segments) and
    /// for a base the general algorithm must handle.
    static func resolveSimple(_ reference: String, against base: String) -> String? {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        let referenceBytes = reference.utf8
        guard let first = referenceBytes.first else { return nil }
        // A relative reference starts a segment; an absolute path's first slash is not a `//`.
        var previous: UInt8 = first == slash ? 0 : slash
        for byte in referenceBytes {
            switch byte {
            case UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: ":"): return nil
            case slash where previous == slash && first == slash: return nil  // `//`: an empty segment
            case dot where previous == slash: return nil  // a segment that may be `.` or `..`
            default: break
            }
            previous = byte
        }
        // The base: scheme "://" authority, then its path up to a query or fragment.
        let bytes = base.utf8
        var index = bytes.startIndex
        var authorityStart: String.Index?
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: ":") {
                let rest = bytes[bytes.index(after: index)...]
                guard rest.starts(with: [slash, slash]) else { return nil }
                authorityStart = bytes.index(index, offsetBy: 3)
                break
            }
            guard byte != slash, byte != UInt8(ascii: "?"), byte != UInt8(ascii: "#") else { return nil }
            index = bytes.index(after: index)
        }
        guard let authorityStart else { return nil }
        let afterScheme = bytes[authorityStart...]
        let pathStart = afterScheme.firstIndex { $0 == slash || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        if first == slash { return String(base[..<pathStart]) + reference }
        let path = bytes[pathStart...].prefix { $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        guard let lastSlash = path.lastIndex(of: slash) else { return String(base[..<pathStart]) + "/" + reference }
        previous = 0
        for byte in path[...lastSlash] {
            if previous == slash, byte == dot { return nil }
            previous = byte
        }
        return String(base[...lastSlash]) + reference
    }

    /// Whether `uri` has a scheme (`http:`, `https:`, `data:`, `file:` …).
    public static func isAbsolute(_ uri: String) -> Bool {
        guard let colon = uri.firstIndex(of: ":") else { return false }
        let scheme = uri[..<colon]
        guard let first = scheme.first, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }
    }

    private static func removeDotSegments(_ path: String) -> String {
        var output: [Substring] = []
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        for (index, part) in parts.enumerated() {
            if part == "." {
                if index == parts.count - 1 { output.append("") }
            } else if part == ".." {
                if output.count > 1 { output.removeLast() }
                if index == parts.count - 1 { output.append("") }
            } else {
                output.append(part)
            }
        }
        let joined = output.joined(separator: "/")
        return joined.hasPrefix("/") ? joined : "/" + joined
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
