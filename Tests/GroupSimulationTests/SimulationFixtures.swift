import Foundation
import GroupSimulation
import HLSPlaylist
import StreamOrigin

/// The committed media and the default origin (alice premium, bob 15 s, charlie 10 + 20 s, dana
/// a legal warning in DE).
enum SimulationFixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let media = root.appendingPathComponent("Fixtures/Media").path
    static let scenarios = root.appendingPathComponent("Examples/Scenarios")

    static let defaultOrigin: Origin = {
        let library = try! MediaLibrary.load(directory: media, configuration: .default)
        return try! Origin(configuration: .default, library: library, liveStartDate: PlaylistDate(iso8601: "2026-03-01T12:00:00Z")!)
    }()

    static func run(_ json: String) throws -> SimulationReport {
        let scenario = try SimulationScenario(json: Array(json.utf8))
        var simulator = GroupSimulator(scenario: scenario, origin: defaultOrigin)
        return simulator.run()
    }
}
