import MediaTime
import PlayerEngine
import Testing

@Suite("TimeControl")
struct TimeControlTests {
    static func control() -> TimeControl {
        var control = TimeControl()
        control.hasItem = true
        return control
    }

    @Test("a paused player is paused whatever the buffer; without an item it waits for one")
    func pausedAndNoItem() {
        var control = TimeControl()
        #expect(control.status == .paused)
        control.setRate(1)
        #expect(control.status == .waitingToPlayAtSpecifiedRate(.noItemToPlay))
        #expect(control.effectiveRate == 0)
    }

    @Test("play waits until the buffer is likely to keep up, then plays at the rate")
    func automaticWaiting() {
        var control = Self.control()
        control.setRate(1)
        control.updateBuffer(ahead: MediaTime(seconds: 2), reachesEnd: false)
        #expect(control.status == .waitingToPlayAtSpecifiedRate(.evaluatingBufferingRate))
        control.updateBuffer(ahead: MediaTime(seconds: 4), reachesEnd: false)
        #expect(control.status == .playing)
        #expect(control.effectiveRate == 1)
        // Below the threshold but not empty: it keeps playing.
        control.updateBuffer(ahead: MediaTime(seconds: 1), reachesEnd: false)
        #expect(control.status == .playing)
    }

    @Test("running dry is a stall: it waits to minimise stalls until the threshold is buffered again")
    func stallAndRecovery() {
        var control = Self.control()
        control.setRate(1)
        control.updateBuffer(ahead: MediaTime(seconds: 6), reachesEnd: false)
        #expect(control.status == .playing)
        control.updateBuffer(ahead: .zero, reachesEnd: false)
        #expect(control.status == .waitingToPlayAtSpecifiedRate(.toMinimizeStalls))
        control.updateBuffer(ahead: MediaTime(seconds: 3), reachesEnd: false)
        #expect(control.status == .waitingToPlayAtSpecifiedRate(.toMinimizeStalls))
        control.updateBuffer(ahead: MediaTime(seconds: 4), reachesEnd: false)
        #expect(control.status == .playing)
    }

    @Test("a short item buffered to its end plays without reaching the threshold")
    func bufferToEnd() {
        var control = Self.control()
        control.setRate(1)
        control.updateBuffer(ahead: MediaTime(seconds: 1), reachesEnd: true)
        #expect(control.status == .playing)
    }

    @Test("playImmediately starts with whatever is buffered; without automatic waiting too")
    func immediately() {
        var control = Self.control()
        control.updateBuffer(ahead: MediaTime(decimal: "0.5")!, reachesEnd: false)
        control.playImmediately(atRate: 2)
        #expect(control.status == .playing)
        #expect(control.effectiveRate == 2)
        var manual = Self.control()
        manual.automaticallyWaitsToMinimizeStalls = false
        manual.updateBuffer(ahead: MediaTime(decimal: "0.5")!, reachesEnd: false)
        manual.setRate(1)
        #expect(manual.status == .playing)
    }

    @Test("an interstitial or a coordinated group holds the playhead whatever the buffer")
    func holds() {
        var control = Self.control()
        control.setRate(1)
        control.updateBuffer(ahead: MediaTime(seconds: 30), reachesEnd: false)
        control.isHeldByCoordination = true
        #expect(control.status == .waitingToPlayAtSpecifiedRate(.waitingForCoordinatedPlayback))
        control.isHeldByInterstitial = true
        #expect(control.status == .waitingToPlayAtSpecifiedRate(.interstitialEvent))
        control.isHeldByInterstitial = false
        control.isHeldByCoordination = false
        #expect(control.status == .playing)
        control.setRate(0)
        #expect(control.status == .paused)
    }
}
