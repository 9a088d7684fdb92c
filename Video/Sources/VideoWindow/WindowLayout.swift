public import PlayerInterface

/// Where the player's windows go for each presentation: a top-level window holding the video
/// and the controls strip (two child windows), and a separate small top-level window for picture
/// in picture. With no window manager (Xvfb), full screen is the top-level window moved and
/// resized to the screen, with the controls stacked over the video's bottom edge.
public struct WindowLayout: Sendable, Hashable {
    /// The top-level window, on the screen.
    public var window: PixelRect
    /// The video's child window, in the top-level window.
    public var video: PixelRect
    /// The controls strip's child window, in the top-level window (below the video inline, over
    /// its bottom edge in full screen).
    public var controls: PixelRect
    /// The picture-in-picture window, on the screen, while the video plays there.
    public var pictureInPicture: PixelRect?

    /// The layout for `mode` on a `screenWidth` × `screenHeight` screen, with the video inline at
    /// `videoWidth` × `videoHeight`, a controls strip `controlsHeight` high, and picture in
    /// picture at half the inline size, 16 pixels in from the screen's bottom right corner.
    public init(mode: PresentationMode, screenWidth: Int, screenHeight: Int, videoWidth: Int, videoHeight: Int, controlsHeight: Int) {
        switch mode {
        case .fullScreen:
            window = PixelRect(x: 0, y: 0, width: screenWidth, height: screenHeight)
            video = PixelRect(x: 0, y: 0, width: screenWidth, height: screenHeight)
            controls = PixelRect(x: 0, y: screenHeight - controlsHeight, width: screenWidth, height: controlsHeight)
            pictureInPicture = nil
        case .inline, .pictureInPicture:
            window = PixelRect(x: 0, y: 0, width: videoWidth, height: videoHeight + controlsHeight)
            video = PixelRect(x: 0, y: 0, width: videoWidth, height: videoHeight)
            controls = PixelRect(x: 0, y: videoHeight, width: videoWidth, height: controlsHeight)
            let (width, height) = (videoWidth / 2, videoHeight / 2)
            pictureInPicture = mode == .pictureInPicture
                ? PixelRect(x: screenWidth - width - 16, y: screenHeight - height - 16, width: width, height: height) : nil
        }
    }
}
