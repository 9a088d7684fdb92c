import PlayerEngine
import PlayerInterface

/// Publishes a ``Player`` on D-Bus as an MPRIS media player (`org.mpris.MediaPlayer2` and
/// `org.mpris.MediaPlayer2.Player` at `/org/mpris/MediaPlayer2`): now-playing metadata for
/// desktop widgets, and remote commands from media keys and clients such as `playerctl` (S3.4).
///
///     let service = try MPRISService(player: player, info: NowPlayingInfo(title: "Big Movie"))
///     try await service.run()   // until cancelled
///
/// The logic is ``MPRISPlayerModel``. This shell owns one sd-bus connection, used only by the
/// thread ``run()`` starts (sd-bus is not thread-safe): it answers calls there, reading the
/// player through its getters and commanding it through its methods, with no lock of its own
/// held; the player's ``Player/states()`` reach that thread through an inbox and a wake-up file
/// descriptor, and become `PropertiesChanged` and `Seeked` signals.
public final class MPRISService: Sendable {
    /// What the app does for the requests that are not the player's. They are called on the
    /// bus thread, which answers no client until they return: start the work, do not wait for it.
    public struct Handlers: Sendable {
        /// `Next` (the next channel, say); `nil`: CanGoNext is false.
        public var next: (@Sendable () -> Void)?
        /// `Previous`; `nil`: CanGoPrevious is false.
        public var previous: (@Sendable () -> Void)?
        /// `Quit`; `nil`: CanQuit is false.
        public var quit: (@Sendable () -> Void)?

        public init(next: (@Sendable () -> Void)? = nil, previous: (@Sendable () -> Void)? = nil, quit: (@Sendable () -> Void)? = nil) {
            self.next = next
            self.previous = previous
            self.quit = quit
        }
    }

    /// The well-known name taken on the bus: `org.mpris.MediaPlayer2.interlude`, or
    /// `org.mpris.MediaPlayer2.interlude.instance<pid>` when another player holds that one.
    public var busName: String { connection.busName }

    private let connection: MPRISBusConnection

    /// Connects to the bus at `busAddress` (`nil`: the session bus of `DBUS_SESSION_BUS_ADDRESS`),
    /// registers the MPRIS objects and takes the bus name; ``run()`` then serves them.
    public init(player: Player, info: NowPlayingInfo, busAddress: String? = nil, handlers: Handlers = Handlers()) throws(MPRISError) {
        connection = try MPRISBusConnection(player: player, info: info, busAddress: busAddress, handlers: handlers)
    }

    /// Replaces the app's metadata (a new title, artwork, rating).
    public func setInfo(_ info: NowPlayingInfo) { connection.post(info) }

    /// Serves the bus until cancelled (then closes the connection, which gives the name up), or
    /// until the connection fails. Call it once.
    public func run() async throws {
        let connection = self.connection
        let states = connection.player.states()
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask {
                for await state in states { connection.post(state) }
            }
            try await withTaskCancellationHandler {
                try await connection.serve()
            } onCancel: {
                connection.stop()
            }
            group.cancelAll()
        }
    }
}
