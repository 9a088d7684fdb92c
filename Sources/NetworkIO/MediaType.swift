/// Content types by file extension, for static files and `.file` bodies. The HLS types follow
/// RFC 8216bis §4 (`application/vnd.apple.mpegurl`, `video/mp2t`, `video/mp4`, `audio/aac`,
/// `text/vtt`); libwebsockets' own table knows none of them.
public enum MediaType {
    /// `application/json`.
    public static let json = "application/json"
    /// `application/octet-stream`, for unknown extensions.
    public static let octetStream = "application/octet-stream"

    /// The content type for a path's extension (case-insensitive), or `application/octet-stream`.
    public static func forPath(_ path: some StringProtocol) -> String {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return octetStream }
        return byExtension[path[path.index(after: dot)...].lowercased()] ?? octetStream
    }

    /// The table, extension without the dot to content type.
    public static let byExtension: [String: String] = [
        "m3u8": "application/vnd.apple.mpegurl",
        "m3u": "application/vnd.apple.mpegurl",
        "ts": "video/mp2t",
        "mp4": "video/mp4",
        "m4s": "video/mp4",
        "m4v": "video/mp4",
        "m4a": "audio/mp4",
        "mp4a": "audio/mp4",
        "aac": "audio/aac",
        "ac3": "audio/ac3",
        "ec3": "audio/eac3",
        "mp3": "audio/mpeg",
        "vtt": "text/vtt",
        "webvtt": "text/vtt",
        "json": json,
        "mpd": "application/dash+xml",
        "html": "text/html; charset=utf-8",
        "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "txt": "text/plain; charset=utf-8",
        "xml": "application/xml",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "svg": "image/svg+xml",
        "ico": "image/x-icon",
        "key": octetStream,
    ]
}
