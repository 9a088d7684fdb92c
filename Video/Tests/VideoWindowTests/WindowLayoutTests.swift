import PlayerInterface
import Testing
import VideoWindow

@Suite("WindowLayout")
struct WindowLayoutTests {
    static func layout(_ mode: PresentationMode) -> WindowLayout {
        WindowLayout(mode: mode, screenWidth: 1280, screenHeight: 720, videoWidth: 640, videoHeight: 360, controlsHeight: 40)
    }

    @Test("inline: the video at its size at the top left, the controls strip below it, no picture-in-picture window")
    func inline() {
        let layout = Self.layout(.inline)
        #expect(layout.window == PixelRect(x: 0, y: 0, width: 640, height: 400))
        #expect(layout.video == PixelRect(x: 0, y: 0, width: 640, height: 360))
        #expect(layout.controls == PixelRect(x: 0, y: 360, width: 640, height: 40))
        #expect(layout.pictureInPicture == nil)
    }

    @Test("full screen: the window and the video fill the screen, the controls over the video's bottom edge")
    func fullScreen() {
        let layout = Self.layout(.fullScreen)
        #expect(layout.window == PixelRect(x: 0, y: 0, width: 1280, height: 720))
        #expect(layout.video == PixelRect(x: 0, y: 0, width: 1280, height: 720))
        #expect(layout.controls == PixelRect(x: 0, y: 680, width: 1280, height: 40))
    }

    @Test("picture in picture: the window stays inline and a half-size window sits 16 pixels in from the screen's bottom right")
    func pictureInPicture() {
        let layout = Self.layout(.pictureInPicture)
        #expect(layout.window == Self.layout(.inline).window)
        #expect(layout.pictureInPicture == PixelRect(x: 1280 - 320 - 16, y: 720 - 180 - 16, width: 320, height: 180))
    }
}
