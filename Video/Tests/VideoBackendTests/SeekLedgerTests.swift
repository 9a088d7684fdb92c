import MediaTime
import Testing
@testable import VideoBackend

@Suite("SeekLedger: which seek is in flight")
struct SeekLedgerTests {
    let first = SeekID(sequenceNumber: 11)
    let second = SeekID(sequenceNumber: 12)

    @Test("a seek is in flight from its start until its own ASYNC_DONE, not an earlier one's")
    func inFlightUntilItsAsyncDone() {
        let ledger = SeekLedger()
        #expect(ledger.targetInFlight == nil)
        ledger.markerArrived(first)
        ledger.starting(first, target: MediaTime(seconds: 4))
        #expect(ledger.targetInFlight == MediaTime(seconds: 4))
        // A second seek before the first is done: the second is in flight.
        ledger.starting(second, target: MediaTime(seconds: 9))
        #expect(ledger.asyncDone() == first)
        #expect(ledger.targetInFlight == MediaTime(seconds: 9), "the first seek's ASYNC_DONE does not end the second")
        ledger.markerArrived(second)
        #expect(ledger.asyncDone() == second)
        #expect(ledger.targetInFlight == nil)
    }

    @Test("a refused seek is not in flight, and a preroll's ASYNC_DONE ends no seek")
    func refusedAndPreroll() {
        let ledger = SeekLedger()
        ledger.starting(first, target: MediaTime(seconds: 4))
        ledger.refused(first)
        #expect(ledger.targetInFlight == nil)
        ledger.markerArrived(first)
        ledger.starting(second, target: MediaTime(seconds: 2))
        #expect(ledger.asyncDone() == nil, "the refused seek's marker does not make the next ASYNC_DONE its own")
        #expect(ledger.targetInFlight == MediaTime(seconds: 2))
    }
}
