import FoundationEssentials
import MediaProbe
import MediaTime

extension MediaLibrary {
    /// Reads and measures the media a configuration names, under `directory`: the content folder
    /// and each ad's folder. Every `*.ts` file of a folder is a segment, in file-name order; any
    /// playlist the encoder left there is ignored, since the durations are measured. An ad with a
    /// `durationSeconds` is cut to that length (``Ad/cut(to:path:)``).
    ///
    /// - Throws: ``OriginConfigurationError`` naming the folder or file that is missing, unreadable
    ///   or not measurable, or the ad length that does not fit its media.
    /// - Complexity: O(n) in the total size of the media.
    public static func load(directory: String, configuration: OriginConfiguration) throws(OriginConfigurationError) -> MediaLibrary {
        let content = try chunks(in: directory, folder: configuration.content.media)
        var ads: [Ad] = []
        for (index, ad) in configuration.ads.enumerated() {
            let measured = Ad(id: ad.id, media: ad.media, chunks: try chunks(in: directory, folder: ad.media))
            if let length = ad.duration, !measured.chunks.isEmpty {
                ads.append(try measured.cut(to: length, path: "$.ads[\(index)].durationSeconds"))
            } else {
                ads.append(measured)
            }
        }
        return try MediaLibrary(content: content, ads: ads)
    }

    /// The measured `*.ts` files of `folder`, in name order.
    static func chunks(in directory: String, folder: String) throws(OriginConfigurationError) -> [Chunk] {
        let path = directory.hasSuffix("/") ? directory + folder : directory + "/" + folder
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".ts") }.sorted()
        } catch {
            throw OriginConfigurationError(path: path, message: "cannot list the folder (\(error)); is the media directory right?")
        }
        var result: [Chunk] = []
        for name in names {
            let file = path + "/" + name
            guard let data = FileManager.default.contents(atPath: file) else {
                throw OriginConfigurationError(path: file, message: "cannot be read")
            }
            result.append(try measure(Array(data), name: name, path: file))
        }
        return result
    }

    /// Measures one MPEG-TS segment with ``TransportStreamProbe``.
    static func measure(_ bytes: [UInt8], name: String, path: String) throws(OriginConfigurationError) -> Chunk {
        let streams: [TransportStreamProbe.Stream]
        let duration: MediaTime
        do {
            streams = try TransportStreamProbe.streams(in: bytes, findingKeyframes: true)
            duration = try TransportStreamProbe.duration(of: bytes)
        } catch {
            throw OriginConfigurationError(path: path, message: "cannot be measured: \(error)")
        }
        // The stream the duration was measured on: video, else audio (as TransportStreamProbe chooses).
        let measured = streams.first { $0.isVideo && $0.duration != nil } ?? streams.first { $0.isAudio && $0.duration != nil }
            ?? streams.first { $0.duration != nil }
        guard let measured, let first = measured.firstPresentationTime else {
            throw OriginConfigurationError(path: path, message: "cannot be measured: no presentation time stamp")
        }
        let keyframes = measured.randomAccessPresentationTimes.filter { $0 >= first }.map {
            MediaTime(value: $0 - first, timescale: TransportStreamProbe.timescale)
        }
        return Chunk(name: name, duration: duration, firstPresentationTime: first, keyframeOffsets: keyframes, bytes: bytes)
    }
}
