/// What a client asks of the player over `org.mpris.MediaPlayer2` and `.Player`: the methods,
/// and the writable `Rate` property.
public enum MPRISMethodCall: Sendable, Hashable {
    case play
    case pause
    case playPause
    /// Stops: a later `Play` starts from the beginning.
    case stop
    /// Moves the position by this many microseconds (negative: back).
    case seek(offsetMicroseconds: Int64)
    /// Moves to a position in microseconds, if `trackID` is still the current track.
    case setPosition(trackID: String, positionMicroseconds: Int64)
    /// `Rate` written.
    case setRate(Double)
    case next
    case previous
    /// `Raise` (`org.mpris.MediaPlayer2`): a headless player has nothing to raise.
    case raise
    /// `Quit` (`org.mpris.MediaPlayer2`).
    case quit
}
