import GroupCoordination
import GroupPlayback
import GroupPlaybackTesting
import GroupWire

/// A group-clock session on the simulated network: a server (peer 0) keeps the group clock on its
/// own drifting clock, clients 1…n probe it with ``GroupClockEstimator`` and the error of each
/// client's estimate is measured against the truth at a fixed period of true time.
struct ClockSyncRun {
    struct Measurement {
        var client: Int
        var trueTime: Duration
        /// Estimated group time minus actual group time, in seconds.
        var error: Double
        var uncertainty: Double
        var maximumError: Double
        var driftErrorPartsPerMillion: Double
    }

    enum Event {
        case probeDue(client: Int)
        case probeArrives(client: Int, ClockProbe)
        case replyArrives(client: Int, ClockProbeReply)
        case measure
    }

    var serverClock: DriftingClock
    var clientClocks: [DriftingClock]
    var network: SimulatedNetwork
    var configuration = GroupClockEstimator.Configuration()
    var duration: Duration = .seconds(7200)
    var measurementPeriod: Duration = .seconds(5)
    /// Applied to a client's clock at the given true time (a step), if any.
    var step: (client: Int, at: Duration, by: Duration)?

    func run() -> (measurements: [Measurement], estimators: [GroupClockEstimator]) {
        var network = self.network
        var clocks = [serverClock] + clientClocks
        for (index, clock) in clocks.enumerated() { network.setClock(clock, for: PeerID(rawValue: UInt32(index))) }
        var scheduler = SimulationScheduler<Event>()
        var estimators: [GroupClockEstimator] = []
        for client in clientClocks.indices {
            estimators.append(GroupClockEstimator(configuration: configuration, startingAt: clocks[client + 1].localTime(atTrueTime: .zero)))
            scheduler.schedule(.probeDue(client: client), at: .zero)
        }
        scheduler.schedule(.measure, at: measurementPeriod)
        var measurements: [Measurement] = []
        var stepDone = step == nil
        while let (now, event) = scheduler.next(through: duration) {
            if !stepDone, let step, now >= step.at {
                clocks[step.client + 1].offset += step.by
                stepDone = true
            }
            switch event {
            case .probeDue(let client):
                let clock = clocks[client + 1]
                let local = clock.localTime(atTrueTime: now)
                if let probe = estimators[client].makeProbeIfDue(at: local) {
                    network.send(.probeArrives(client: client, probe), from: PeerID(rawValue: UInt32(client + 1)), to: 0, on: &scheduler)
                }
                let wake = max(now, clock.trueTime(atLocalTime: estimators[client].nextProbeTime))
                scheduler.schedule(.probeDue(client: client), at: wake)
            case .probeArrives(let client, let probe):
                let serverNow = clocks[0].localTime(atTrueTime: now)
                let reply = ClockProbeReply(answering: probe, receivedAt: serverNow, sentAt: serverNow)
                network.send(.replyArrives(client: client, reply), from: 0, to: PeerID(rawValue: UInt32(client + 1)), on: &scheduler)
            case .replyArrives(let client, let reply):
                estimators[client].receive(reply, at: clocks[client + 1].localTime(atTrueTime: now))
            case .measure:
                let truthDrift = (Double(clocks[0].driftPartsPerBillion) - Double(clocks[1].driftPartsPerBillion)) / 1000
                for client in estimators.indices {
                    guard estimators[client].isSynchronized, let estimate = estimators[client].estimate else { continue }
                    let local = clocks[client + 1].localTime(atTrueTime: now)
                    let truth = clocks[0].localTime(atTrueTime: now)
                    let actualDrift = (1 + Double(clocks[0].driftPartsPerBillion) * 1e-9) / (1 + Double(clocks[client + 1].driftPartsPerBillion) * 1e-9) - 1
                    _ = truthDrift
                    measurements.append(Measurement(
                        client: client,
                        trueTime: now,
                        error: (estimate.groupTime(atLocalTime: local) - truth).seconds,
                        uncertainty: estimate.uncertainty.seconds,
                        maximumError: estimate.maximumError.seconds,
                        driftErrorPartsPerMillion: estimate.driftPartsPerMillion - actualDrift * 1e6
                    ))
                }
                scheduler.schedule(.measure, after: measurementPeriod)
            }
        }
        return (measurements, estimators)
    }
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}

/// The `fraction` quantile of `values` (nearest rank).
func quantile(_ values: [Double], _ fraction: Double) -> Double {
    precondition(!values.isEmpty)
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1))]
}
