import HLSInterstitials
import PlayerEngine

extension PlayAction {
    /// Carries the action out on `player`, as its user would (originator `.user`: in a group,
    /// the coordinator makes it the group's command). Returns why nothing was done, when it was
    /// ignored (a skip with no skippable break playing).
    func perform(on player: Player) -> String? {
        switch verb {
        case .seek(let time): player.startSeek(to: time)
        case .seekIntegrated(let time): player.startSeek(to: time, integrated: true)
        case .seekBreak(let id, let offset): player.startSeek(to: .interstitial(eventID: id, offset: offset))
        case .pause: player.pause()
        case .play: player.play()
        case .rate(let rate): player.setRate(rate)
        case .skip:
            let state = player.state
            guard let event = state.currentEvent else { return "no break is playing; skip ignored" }
            guard state.isCurrentEventSkippable else { return "break \"\(event.identifier)\" cannot be skipped now; skip ignored" }
            player.skipCurrentEvent()
        }
        return nil
    }
}
