import HLSInterstitials
import HLSPlaylist
import MediaTime

/// Something to play: a stream's URL and how to play it (Apple's `AVPlayerItem` as configured
/// before playback).
public struct PlayerItem: Sendable, Hashable {
    /// The multivariant or media playlist's URL (`http(s)://` or `file://`).
    public var url: String
    /// Where to start on the primary timeline; `nil` = EXT-X-START, else the start of a VOD, or the
    /// live edge less the hold-back.
    public var startTime: MediaTime?
    /// Interstitial events the app adds (the event controller's); merged with the playlist's, the
    /// playlist winning on a shared identifier.
    public var clientEvents: [InterstitialEvent]
    /// The `_HLS_primary_id` sent with asset-list and asset requests, which lets the server tell
    /// viewing sessions apart; `nil` = a fresh random one.
    public var primaryID: String?
    /// An identifier of the content that stays the same across participants whose URLs differ
    /// (for coordinated playback); `nil` = the URL.
    public var contentIdentifier: String?
    /// For a live item: count its timeline in seconds from this date, through
    /// EXT-X-PROGRAM-DATE-TIME, so that players that load the stream at different times share
    /// item times (a coordinated group); `nil` = from the first segment of the first playlist
    /// loaded.
    public var liveTimeOrigin: PlaylistDate?

    /// An item for `url`.
    public init(url: String, startTime: MediaTime? = nil, clientEvents: [InterstitialEvent] = [], primaryID: String? = nil, contentIdentifier: String? = nil) {
        self.url = url
        self.startTime = startTime
        self.clientEvents = clientEvents
        self.primaryID = primaryID
        self.contentIdentifier = contentIdentifier
    }
}

/// Whether an item can play (Apple's `AVPlayerItem.Status`).
public enum ItemStatus: Sendable, Hashable, CustomStringConvertible {
    /// Not loaded yet.
    case unknown
    /// Loaded: it can play.
    case readyToPlay
    /// It cannot play, for this reason.
    case failed(PlayerError)

    /// `unknown`, `readyToPlay` or `failed: reason`.
    public var description: String {
        switch self {
        case .unknown: return "unknown"
        case .readyToPlay: return "readyToPlay"
        case .failed(let error): return "failed: \(error)"
        }
    }
}

/// Why an item failed.
public struct PlayerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure.
    public enum Kind: String, Sendable, Hashable {
        /// A resource could not be loaded, after retries and failover.
        case load
        /// A playlist is malformed.
        case playlist
        /// The playlist cannot be played (no variants, no segments).
        case unplayable
    }

    /// The kind.
    public var kind: Kind
    /// The resource, when one is at fault.
    public var url: String?
    /// What went wrong, in words, with the line where a playlist is malformed.
    public var message: String

    /// An error.
    public init(kind: Kind, url: String?, message: String) {
        self.kind = kind
        self.url = url
        self.message = message
    }

    /// `url: message`.
    public var description: String { url.map { "\($0): \(message)" } ?? message }
}

/// One stretch of loading from one variant (Apple's `AVPlayerItemAccessLogEvent`): a new entry
/// starts at each variant switch.
public struct AccessLogEntry: Sendable, Hashable {
    /// The media playlist loaded from.
    public var uri: String
    /// The variant's declared BANDWIDTH (0 for a media playlist played directly).
    public var indicatedBitrate: Int
    /// Segments downloaded.
    public var segmentsDownloaded = 0
    /// Bytes downloaded.
    public var bytesTransferred = 0
    /// Time spent downloading.
    public var transferDuration: Duration = .zero
    /// Stalls while this entry was current.
    public var stalls = 0
    /// Seconds of media consumed while this entry was current.
    public var durationWatched: MediaTime = .zero

    /// The measured throughput, bits per second.
    public var observedBitrate: Double? {
        let seconds = Double(transferDuration.components.seconds) + Double(transferDuration.components.attoseconds) / 1e18
        return seconds > 0 ? Double(bytesTransferred * 8) / seconds : nil
    }
}

/// A failure the player met and handled or gave up on (Apple's `AVPlayerItemErrorLogEvent`).
public struct ErrorLogEntry: Sendable, Hashable {
    /// The host time.
    public var hostTime: Duration
    /// The resource.
    public var uri: String
    /// The HTTP status, when there was one.
    public var status: Int?
    /// What happened.
    public var comment: String
}

/// Tunables of the engine; the defaults suit real playback.
public struct PlayerConfiguration: Sendable, Hashable {
    /// How far ahead of the playhead to keep media loaded.
    public var forwardBufferDuration = MediaTime(seconds: 30)
    /// How much must be buffered before playback starts or resumes after a stall.
    public var resumeThreshold = MediaTime(seconds: 4)
    /// How long before a break its asset list is requested.
    public var assetListLead = MediaTime(seconds: 15)
    /// How long before a break its first asset starts loading (its playlist and the first
    /// seconds of media), so that the break starts without a gap.
    public var preloadLead = MediaTime(seconds: 10)
    /// How many times one resource is tried before the player fails over or gives up, when
    /// nothing is buffered to play meanwhile. While the role that needs it (the primary item, or
    /// the asset playing) still has media buffered ahead, a failure that may go away (a network
    /// error, a time-out, a 5xx) is retried for as long as the buffer lasts, as AVPlayer and
    /// hls.js ride out an outage: the item fails only once its buffer has run dry.
    public var maxAttempts = 3
    /// The wait before the first retry; it doubles with each further one, up to ``maxRetryDelay``.
    public var retryBackoff: Duration = .milliseconds(500)
    /// The longest wait between two attempts.
    public var maxRetryDelay: Duration = .seconds(4)
    /// The most bytes a playlist response may hold (the 24-hour DVR fixture is about 2 MiB).
    public var maxPlaylistBytes = 16 << 20
    /// The most bytes an asset-list response may hold.
    public var maxAssetListBytes = 1 << 20
    /// The most bytes a segment or an initialization section may hold.
    public var maxSegmentBytes = 64 << 20
    /// Whether segments are probed (MPEG-TS PES timestamps, fragmented-MP4 tfdt / trun) and their
    /// real duration compared with EXTINF.
    public var checksSegmentDurations = true
    /// Whether media segments are fetched. `false` for a player that only keeps the schedule
    /// and the playhead while another one (a browser's `<video>`) fetches and shows the media:
    /// playlists and asset lists are loaded, and each segment counts as buffered for its EXTINF
    /// as soon as the forward buffer wants it.
    public var fetchesSegments = true
    /// The difference between EXTINF and the media beyond which a warning is given.
    public var durationTolerance = MediaTime(value: 1, timescale: 4)
    /// Whether playback waits for enough buffer (Apple's `automaticallyWaitsToMinimizeStalls`).
    public var automaticallyWaitsToMinimizeStalls = true
    /// The rate `play()` uses (Apple's `defaultRate`).
    public var defaultRate: Double = 1

    /// The defaults.
    public init() {}
}
