import NetworkIO

/// The resource a request target names (the URL layout is on ``Origin``), with its path
/// parameters and query items decoded.
enum OriginRoute: Sendable, Hashable {
    /// `/`: the index of every stream's URLs.
    case index
    /// `/<kind>/<stream>/<viewer>/main.m3u8`.
    case mediaPlaylist(kind: OriginConfiguration.Kind, stream: String, viewer: String)
    /// `/<kind>/<stream>/<viewer>/multivariant.m3u8`.
    case multivariantPlaylist(kind: OriginConfiguration.Kind, stream: String, viewer: String)
    /// `/ads/<stream>/<viewer>/<break>.json`.
    case assetList(stream: String, viewer: String, breakID: String)
    /// `/ads/media/<ad>/index.m3u8`.
    case adPlaylist(ad: String)
    /// `/ads/media/<ad>/<n>.ts`.
    case adSegment(ad: String, chunk: Int)
    /// `/media/content/<n>.ts` or `/media/content/<n>-<m>.ts`, optionally with `.cut<k>` before
    /// `.ts`: the last chunk cut before its keyframe k.
    case contentSegment(first: Int, last: Int, cutBeforeKeyframe: Int?)

    /// The most chunks one content segment may join (16 × 4 s).
    static let maximumChunksPerSegment = 16
    /// The largest content chunk index served (about 127 years of 4-second chunks).
    static let maximumChunkIndex = 1_000_000_000

    /// The route of `path` (percent-decoded, without the query).
    ///
    /// - Throws: ``OriginError`` `malformedRequest` (400) for an empty, `.` or `..` path segment
    ///   or a parameter of the wrong form; `unknownRoute` (404) for a path no route has.
    init(path: String) throws(OriginError) {
        guard path.hasPrefix("/") else { throw OriginError(.malformedRequest, "the request target must start with '/', not \"\(path)\"") }
        if path == "/" {
            self = .index
            return
        }
        var components: [String] = []
        for component in PathSegments.split(path.dropFirst(), omittingEmpty: false) {
            guard !component.isEmpty, component != ".", component != ".." else {
                throw OriginError(.malformedRequest, "the path \"\(path)\" has an empty, '.' or '..' segment")
            }
            components.append(String(component))
        }
        switch components.count {
        case 4 where components[0] == "vod" || components[0] == "live":
            let kind: OriginConfiguration.Kind = components[0] == "vod" ? .vod : .live
            switch components[3] {
            case "main.m3u8": self = .mediaPlaylist(kind: kind, stream: components[1], viewer: components[2])
            case "multivariant.m3u8": self = .multivariantPlaylist(kind: kind, stream: components[1], viewer: components[2])
            default: throw Self.unknown(path, "a stream's playlists are main.m3u8 and multivariant.m3u8")
            }
        case 4 where components[0] == "ads" && components[1] == "media" && !components[3].hasSuffix(".json"):
            if components[3] == "index.m3u8" {
                self = .adPlaylist(ad: components[2])
            } else if components[3].hasSuffix(".ts") {
                guard let chunk = Self.index(components[3].dropLast(3)) else {
                    throw OriginError(.malformedRequest, "an ad segment is named <n>.ts with n a number, not \"\(components[3])\"")
                }
                self = .adSegment(ad: components[2], chunk: chunk)
            } else {
                throw Self.unknown(path, "an ad has index.m3u8 and <n>.ts")
            }
        case 4 where components[0] == "ads":
            guard components[3].hasSuffix(".json"), components[3].count > 5 else {
                throw Self.unknown(path, "an asset list is /ads/<stream>/<viewer>/<break>.json")
            }
            self = .assetList(stream: components[1], viewer: components[2], breakID: String(components[3].dropLast(5)))
        case 3 where components[0] == "media" && components[1] == "content":
            let name = components[2]
            guard name.hasSuffix(".ts") else { throw Self.unknown(path, "content segments are /media/content/<n>.ts") }
            let parts = name.dropLast(3).split(separator: ".", omittingEmptySubsequences: false)
            let range = parts[0].split(separator: "-", omittingEmptySubsequences: false)
            let keyframe = parts.count == 2 && parts[1].hasPrefix("cut") ? Self.index(parts[1].dropFirst(3)) : nil
            guard range.count <= 2, let first = Self.index(range[0]), let last = range.count == 2 ? Self.index(range[1]) : first,
                first <= last, last - first < Self.maximumChunksPerSegment, last <= Self.maximumChunkIndex,
                parts.count == 1 || keyframe.map({ $0 >= 1 }) == true
            else {
                throw OriginError(
                    .malformedRequest,
                    "a content segment is <n>.ts or <n>-<m>.ts with n ≤ m < n + \(Self.maximumChunksPerSegment), optionally cut before "
                        + "keyframe k ≥ 1 of its last chunk: <n>.cut<k>.ts, <n>-<m>.cut<k>.ts; not \"\(name)\""
                )
            }
            self = .contentSegment(first: first, last: last, cutBeforeKeyframe: keyframe)
        default:
            throw Self.unknown(path, "see / for every stream's URLs")
        }
    }

    private static func unknown(_ path: String, _ hint: String) -> OriginError {
        OriginError(.unknownRoute, "nothing is served at \(path); \(hint)")
    }

    /// A non-negative decimal integer of at most ten digits.
    private static func index(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 10, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int(text)
    }
}
