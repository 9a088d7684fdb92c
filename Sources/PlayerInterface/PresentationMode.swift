/// Where the player's video is shown (S3.2, S3.3): inline in the app's layout, filling the screen,
/// or in a floating picture-in-picture window over other apps, as `AVPlayerViewController` and
/// `AVPictureInPictureController` present it.
public enum PresentationMode: Sendable, Hashable {
    /// In the app's own layout.
    case inline
    /// Filling the screen.
    case fullScreen
    /// In a floating window that stays when the app goes to the background.
    case pictureInPicture
}
