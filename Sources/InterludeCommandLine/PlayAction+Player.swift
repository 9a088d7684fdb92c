import HLSInterstitials
import PlayerEngine

extension PlayAction {
    /// Does the action to `player`, as its user would (so that a coordinated player makes it the
    /// group's command). Returns a note when there was nothing to do: a skip with no break
    /// playing, or one that cannot be skipped now.
    func perform(on player: Player) -> String? {
        switch verb {
        case .seek(let time): player.startSeek(to: time)
        case .seekIntegrated(let time): player.startSeek(to: time, integrated: true)
        case .seekBreak(let id, let offset): player.startSeek(to: .interstitial(eventID: id, offset: offset))
        case .pause: player.pause()
        case .play: player.play()
        case .rate(let rate): player.setRate(rate)
        case .skip:
            guard let event = player.currentEvent else { return "no break is playing; skip ignored" }
            guard player.isCurrentEventSkippable else { return "break \"\(event.identifier)\" cannot be skipped now; skip ignored" }
            player.skipCurrentEvent()
        }
        return nil
    }
}
