import Foundation
import GroupSimulation
import StreamOrigin

/// The committed media and scenarios.
enum SimulationFixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let media = root.appendingPathComponent("Fixtures/Media").path
    static let scenarios = root.appendingPathComponent("Examples/Scenarios")

    /// Runs a shipped scenario (optionally shortened) and returns its report.
    static func run(scenario name: String, duration: Duration? = nil, seed: UInt64? = nil) throws -> SimulationReport {
        let data = try Data(contentsOf: scenarios.appendingPathComponent(name + ".json"))
        var scenario = try SimulationScenario(json: Array(data))
        if let duration { scenario.duration = SimulatedDuration(duration) }
        if let seed { scenario.seed = seed }
        let origin = try scenario.makeOrigin(scenarioDirectory: scenarios.path, media: media)
        var simulator = GroupSimulator(scenario: scenario, origin: origin)
        return simulator.run()
    }

    /// Runs a scenario written inline.
    static func run(json: String) throws -> SimulationReport {
        let scenario = try SimulationScenario(json: Array(json.utf8))
        var simulator = GroupSimulator(scenario: scenario, origin: try scenario.makeOrigin(scenarioDirectory: scenarios.path, media: media))
        return simulator.run()
    }
}

extension SimulationReport {
    func participant(_ name: String) -> ParticipantReport {
        participants.first { $0.name == name }!
    }
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
