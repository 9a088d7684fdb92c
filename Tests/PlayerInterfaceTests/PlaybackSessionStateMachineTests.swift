import MediaTime
import PlayerInterface
import Testing

/// The playback objects' life (S3.8): seek to the start before presenting, status observed, the
/// error read on failure, a media services reset rebuilding everything and resuming where the user was.
@Suite("PlaybackSessionStateMachine")
struct PlaybackSessionStateMachineTests {
    typealias Machine = PlaybackSessionStateMachine
    static let url = "http://127.0.0.1:8080/vod/index.m3u8"

    @Test("the item is seeked to its start time before the view presents it, then plays")
    func seekBeforePresenting() {
        var machine = Machine()
        #expect(machine.handle(.load(.init(url: Self.url, startTime: time("12")))) == [.makePlaybackObjects(generation: 1, url: Self.url)])
        #expect(machine.handle(.itemStatusChanged(generation: 1, .unknown)) == [])
        #expect(machine.handle(.itemStatusChanged(generation: 1, .readyToPlay)) == [.seek(generation: 1, id: 1, to: time("12"))])
        #expect(!machine.isPresented, "not before the start seek lands")
        #expect(machine.handle(.seekCompleted(generation: 1, id: 1, finished: true)) == [.present(generation: 1), .play(generation: 1, rate: 1)])
        #expect(machine.isPresented)
    }

    @Test("without a start time the view presents as soon as the item is ready; paused when asked not to play")
    func noStartTime() {
        var machine = Machine()
        _ = machine.handle(.load(.init(url: Self.url, playsWhenReady: false)))
        #expect(machine.handle(.itemStatusChanged(generation: 1, .readyToPlay)) == [.present(generation: 1)])
    }

    @Test("a failed item's error is read and reported, and the view is not presented")
    func failure() {
        var machine = Machine()
        _ = machine.handle(.load(.init(url: Self.url)))
        let error = PlaybackError(kind: .network, isFatal: true)
        #expect(machine.handle(.itemStatusChanged(generation: 1, .failed(error))) == [.reportError(error)])
        #expect(!machine.isPresented)
        #expect(machine.handle(.itemStatusChanged(generation: 1, .readyToPlay)) == [], "failed stays failed")
        #expect(machine.handle(.mediaServicesReset) == [.discardPlaybackObjects(generation: 1)], "nothing to resume")
        #expect(machine.handle(.load(.init(url: Self.url))) == [.makePlaybackObjects(generation: 2, url: Self.url)])
    }

    @Test("a media services reset rebuilds the playback objects and resumes where the user was, at their rate")
    func mediaServicesReset() {
        var machine = Machine()
        _ = machine.handle(.load(.init(url: Self.url, startTime: time("5"))))
        _ = machine.handle(.itemStatusChanged(generation: 1, .readyToPlay))
        _ = machine.handle(.seekCompleted(generation: 1, id: 1, finished: true))
        _ = machine.handle(.progress(generation: 1, time: time("42.5"), rate: 1))
        #expect(machine.handle(.mediaServicesReset) == [.discardPlaybackObjects(generation: 1), .makePlaybackObjects(generation: 2, url: Self.url)])
        #expect(!machine.isPresented)
        #expect(machine.handle(.itemStatusChanged(generation: 1, .failed(.init(kind: .mediaServices, isFatal: true)))) == [],
                "the dead generation's reports are ignored")
        #expect(machine.handle(.itemStatusChanged(generation: 2, .readyToPlay)) == [.seek(generation: 2, id: 2, to: time("42.5"))])
        #expect(machine.handle(.seekCompleted(generation: 1, id: 1, finished: true)) == [])
        #expect(machine.handle(.seekCompleted(generation: 2, id: 2, finished: true)) == [.present(generation: 2), .play(generation: 2, rate: 1)])
    }

    @Test("a reset while paused resumes paused at the same place; a reset before presenting starts over at the start time")
    func resetPausedOrEarly() {
        var machine = Machine()
        _ = machine.handle(.load(.init(url: Self.url)))
        _ = machine.handle(.itemStatusChanged(generation: 1, .readyToPlay))
        _ = machine.handle(.progress(generation: 1, time: time("30"), rate: 0))
        _ = machine.handle(.mediaServicesReset)
        _ = machine.handle(.itemStatusChanged(generation: 2, .readyToPlay))
        #expect(machine.handle(.seekCompleted(generation: 2, id: 1, finished: true)) == [.present(generation: 2)], "paused: no play")

        var early = Machine()
        _ = early.handle(.load(.init(url: Self.url, startTime: time("7"))))
        _ = early.handle(.mediaServicesReset)
        #expect(early.handle(.itemStatusChanged(generation: 2, .readyToPlay)) == [.seek(generation: 2, id: 1, to: time("7"))])
    }

    @Test("loading another item discards the objects of the one before")
    func replace() {
        var machine = Machine()
        _ = machine.handle(.load(.init(url: Self.url)))
        #expect(machine.handle(.load(.init(url: "http://127.0.0.1:8080/live/index.m3u8"))) == [
            .discardPlaybackObjects(generation: 1), .makePlaybackObjects(generation: 2, url: "http://127.0.0.1:8080/live/index.m3u8"),
        ])
    }
}
