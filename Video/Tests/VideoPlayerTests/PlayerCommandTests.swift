import MediaTime
import Testing
import VideoPlayer

@Suite("PlayerCommand")
struct PlayerCommandTests {
    @Test("the window's keys are watch's: space, left and right by 10 s, s, f, i and q; others do nothing")
    func keys() {
        #expect(PlayerCommand(keySymbol: 0x20) == .playPause)
        #expect(PlayerCommand(keySymbol: 0xFF51) == .seek(by: MediaTime(seconds: -10)))
        #expect(PlayerCommand(keySymbol: 0xFF53) == .seek(by: MediaTime(seconds: 10)))
        #expect(PlayerCommand(keySymbol: UInt(UInt8(ascii: "s"))) == .skip)
        #expect(PlayerCommand(keySymbol: UInt(UInt8(ascii: "f"))) == .toggleFullScreen)
        #expect(PlayerCommand(keySymbol: UInt(UInt8(ascii: "i"))) == .togglePictureInPicture)
        #expect(PlayerCommand(keySymbol: UInt(UInt8(ascii: "q"))) == .quit)
        #expect(PlayerCommand(keySymbol: UInt(UInt8(ascii: "x"))) == nil)
    }
}
