import Foundation
import HLSPlaylist
import StreamOrigin

extension SimulationScenario {
    /// When the origin's live streams start, in every simulation.
    public static let liveStartDate = PlaylistDate(iso8601: "2026-03-01T12:00:00Z")!

    /// The origin the scenario names (its configuration file resolved against `directory`, the
    /// scenario's folder), or the default one, over the media in `media`.
    public func makeOrigin(scenarioDirectory directory: String, media: String) throws(SimulationError) -> Origin {
        let configuration: OriginConfiguration
        if let file = origin {
            let path = file.hasPrefix("/") ? file : URL(fileURLWithPath: directory).appendingPathComponent(file).path
            guard let bytes = FileManager.default.contents(atPath: path) else {
                throw SimulationError(message: "origin: \(path): no such file")
            }
            do {
                configuration = try OriginConfiguration(json: Array(bytes))
            } catch {
                throw SimulationError(message: "\(path): \(error)")
            }
        } else {
            configuration = .default
        }
        try validate(against: configuration)
        do {
            let library = try MediaLibrary.load(directory: media, configuration: configuration)
            return try Origin(configuration: configuration, library: library, liveStartDate: Self.liveStartDate)
        } catch {
            throw SimulationError(message: "\(error)")
        }
    }

    /// Each participant's viewer and stream exist in `configuration`, and the stream is of the
    /// participant's kind.
    func validate(against configuration: OriginConfiguration) throws(SimulationError) {
        for (index, participant) in participants.enumerated() {
            let path = "participants[\(index)]"
            let viewer = participant.viewer ?? participant.name
            guard configuration.viewer(id: viewer) != nil else {
                let known = configuration.viewers.map(\.id).joined(separator: ", ")
                throw SimulationError(message: "\(path).viewer: the origin has no viewer \"\(viewer)\" (it has \(known))")
            }
            let streamID = participant.stream ?? "movie"
            guard let stream = configuration.stream(id: streamID) else {
                let known = configuration.streams.map(\.id).joined(separator: ", ")
                throw SimulationError(message: "\(path).stream: the origin has no stream \"\(streamID)\" (it has \(known))")
            }
            let kind = participant.kind ?? "vod"
            guard stream.kind.rawValue == kind else {
                throw SimulationError(message: "\(path).kind: stream \"\(streamID)\" is \(stream.kind.rawValue), not \(kind)")
            }
        }
    }
}
