import MediaTime
import Synchronization

/// Which ASYNC_DONE finishes which seek. GStreamer 1.22's playbin3 does not give the seek's
/// ASYNC_DONE the seek event's sequence number, so the pipeline posts a marker on its own bus
/// just before each seek: the bus is first in, first out, so the first ASYNC_DONE after a
/// marker is that seek's, and one before it (a preroll's, which comes after the state change
/// to PAUSED) is not.
final class SeekLedger: Sendable {
    private struct State {
        var awaiting: SeekID?
        /// Seeks refused before their marker came through.
        var refused: Set<SeekID> = []
        /// The last seek made and its target, until its ASYNC_DONE or its refusal.
        var inFlight: (seek: SeekID, target: MediaTime)?
    }

    private let state = Mutex(State())

    /// The bus thread saw the marker of `seek`: the next ASYNC_DONE is its.
    func markerArrived(_ seek: SeekID) {
        state.withLock { state in
            if state.refused.remove(seek) == nil { state.awaiting = seek }
        }
    }

    /// `seek`, to `target`, is about to be made (after its marker is posted, before
    /// `gst_element_seek`): until it is done or refused, it is the seek in flight.
    func starting(_ seek: SeekID, target: MediaTime) {
        state.withLock { $0.inFlight = (seek, target) }
    }

    /// The target of the seek in flight: made and neither done nor refused yet.
    var targetInFlight: MediaTime? {
        state.withLock { $0.inFlight?.target }
    }

    /// `seek` was refused, so no ASYNC_DONE will finish it.
    func refused(_ seek: SeekID) {
        state.withLock { state in
            if state.inFlight?.seek == seek { state.inFlight = nil }
            if state.awaiting == seek {
                state.awaiting = nil
            } else {
                state.refused.insert(seek)
            }
        }
    }

    /// The seek an ASYNC_DONE the bus thread sees now finishes, if any.
    func asyncDone() -> SeekID? {
        state.withLock { state in
            defer { state.awaiting = nil }
            if let done = state.awaiting, state.inFlight?.seek == done { state.inFlight = nil }
            return state.awaiting
        }
    }
}
