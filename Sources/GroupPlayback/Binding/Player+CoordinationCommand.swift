import PlayerEngine

extension Player {
    /// Carries out a command on the player: its
    /// ``PlayerCoordinationBinding/PlayerCommand/machineInputs``, in their order, through the
    /// player's API.
    public func apply(_ command: PlayerCoordinationBinding.PlayerCommand) {
        for input in command.machineInputs {
            switch input {
            case .playAnchored(let rate, let position, let hostTime, let originator):
                play(atRate: rate, from: position, atHostTime: hostTime, originator: originator)
            case .setCoordinationHold(let isHeld):
                setCoordinationHold(isHeld)
            case .setRate(let rate, let originator):
                setRate(rate, originator: originator)
            case .jump(let position, let originator):
                jump(to: position, originator: originator)
            default:
                // A command is made of the four inputs above only.
                continue
            }
        }
    }
}
