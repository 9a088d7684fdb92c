internal import MediaProbe
internal import MediaTime

/// The project's real MPEG-TS fixtures (`Fixtures/Media`), read once and measured with
/// ``TransportStreamProbe``, so that the benchmark stream's EXTINF values are the media's own
/// durations and the engine's segment probe does the work it does on real streams.
struct FixtureMedia {
    /// One fixture segment.
    struct Segment {
        /// The path below the fixtures folder, `content/seg-000.ts`.
        var path: String
        /// The file's bytes.
        var bytes: [UInt8]
        /// Its duration as the probe measures it (PES time stamps).
        var duration: MediaTime
    }

    /// An ad: one folder of `Fixtures/Media/ads`.
    struct Ad {
        /// The folder's name, `ad-15s`.
        var name: String
        /// Its segments, in order.
        var segments: [Segment]

        /// The ad's measured duration.
        var duration: MediaTime { segments.reduce(.zero) { $0 + $1.duration } }
    }

    /// The folder the fixtures were read from (absolute).
    var directory: String
    /// The content's segments, `content/seg-000.ts` on.
    var content: [Segment]
    /// The ads, shortest first.
    var ads: [Ad]

    /// The ad folders read, in this order.
    static let adNames = ["ad-5s", "ad-10s", "ad-15s", "ad-20s"]

    /// Reads and measures the fixtures in `directory` (`Fixtures/Media`).
    ///
    /// - Complexity: O(n) in the fixtures' size.
    static func load(from directory: String) throws(any Error) -> FixtureMedia {
        let root = MediaFile.absolute(directory)
        let content = try segments(in: root, folder: "content")
        guard !content.isEmpty else { throw MediaFile.Failure(description: "no content segments in \(root)/content (expected seg-000.ts, …)") }
        var ads: [Ad] = []
        for name in adNames {
            let segments = try segments(in: root, folder: "ads/" + name)
            guard !segments.isEmpty else { throw MediaFile.Failure(description: "no segments in \(root)/ads/\(name)") }
            ads.append(Ad(name: name, segments: segments))
        }
        return FixtureMedia(directory: root, content: content, ads: ads)
    }

    /// `seg-000.ts`, `seg-001.ts`, … in `root/folder` until one is missing.
    private static func segments(in root: String, folder: String) throws(any Error) -> [Segment] {
        var result: [Segment] = []
        while true {
            let number = String(result.count)
            let path = folder + "/seg-" + String(repeating: "0", count: max(0, 3 - number.count)) + number + ".ts"
            guard MediaFile.exists(root + "/" + path) else { return result }
            let bytes = try MediaFile.read(root + "/" + path)
            result.append(Segment(path: path, bytes: bytes, duration: try TransportStreamProbe.duration(of: bytes)))
        }
    }
}
