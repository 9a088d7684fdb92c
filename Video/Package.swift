// swift-tools-version: 6.2
import PackageDescription

/// The root package's settings: Swift 6 mode, warnings as errors, the same upcoming features.
let strictSettings: [SwiftSetting] = [
    .treatAllWarnings(as: .error),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InferIsolatedConformances"),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
]

/// Real video through GStreamer, a package of its own so that the root package builds and tests
/// on a machine without GStreamer's headers (a system-library target whose headers are missing
/// fails the whole build of the package that holds it).
///
///     scripts/bootstrap --video && swift test --package-path Video
let package = Package(
    name: "InterludeVideo",
    products: [
        .library(name: "VideoBackend", targets: ["VideoBackend"]),
        .library(name: "VideoWindow", targets: ["VideoWindow"]),
        .executable(name: "interlude-video", targets: ["interlude-video"]),
    ],
    dependencies: [
        // The name pins the package's identity, which for a path dependency would otherwise be the
        // checkout's folder name (`main`, a worktree's name, …).
        .package(name: "Interlude", path: ".."),
    ],
    targets: [
        // GStreamer 1.22 core and its video library (GstVideoOverlay; GLib and GObject come with
        // them), through pkg-config.
        .systemLibrary(
            name: "CGStreamer",
            path: "Sources/CGStreamer",
            pkgConfig: "gstreamer-video-1.0",
            providers: [.apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev"])]
        ),
        // Xlib, for the player window.
        .systemLibrary(name: "CX11", path: "Sources/CX11", pkgConfig: "x11", providers: [.apt(["libx11-dev"])]),
        .target(
            name: "VideoBackend",
            dependencies: ["CGStreamer", .product(name: "MediaTime", package: "Interlude")],
            swiftSettings: strictSettings
        ),
        .target(
            name: "VideoWindow",
            dependencies: [
                "CX11", "VideoBackend",
                .product(name: "MediaTime", package: "Interlude"),
                .product(name: "PlayerInterface", package: "Interlude"),
            ],
            swiftSettings: strictSettings
        ),
        // interlude-video's player: the schedule's plan, the keys, the loop over pipelines and window.
        .target(
            name: "VideoPlayer",
            dependencies: [
                "VideoBackend", "VideoWindow",
                .product(name: "MediaTime", package: "Interlude"),
                .product(name: "PlayerInterface", package: "Interlude"),
                .product(name: "HLSInterstitials", package: "Interlude"),
                .product(name: "HLSPlaylist", package: "Interlude"),
                .product(name: "PlayerEngine", package: "Interlude"),
                // --join: the participant stack of `interlude join`, as the video's reference.
                .product(name: "GroupPlayback", package: "Interlude"),
                .product(name: "GroupCoordination", package: "Interlude"),
                .product(name: "GroupWire", package: "Interlude"),
                .product(name: "NetworkIO", package: "Interlude"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "interlude-video",
            dependencies: ["VideoPlayer", "VideoBackend"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "VideoPlayerTests",
            dependencies: [
                // interlude-video: so that it is built for the tests that run it; the root's
                // interlude (origin, serve, session, join) for the one that runs a group.
                "VideoPlayer", "VideoBackend", "VideoTestSupport", "interlude-video",
                .product(name: "interlude", package: "Interlude"),
                .product(name: "MediaTime", package: "Interlude"),
                .product(name: "HLSInterstitials", package: "Interlude"),
                .product(name: "HLSPlaylist", package: "Interlude"),
                .product(name: "NetworkIO", package: "Interlude"),
            ],
            swiftSettings: strictSettings
        ),
        // What both test targets share: the fixtures over HTTP, waits on a pipeline's messages.
        .target(
            name: "VideoTestSupport",
            dependencies: ["VideoBackend", .product(name: "NetworkIO", package: "Interlude")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "VideoWindowTests",
            dependencies: [
                "VideoWindow", "VideoBackend", "VideoTestSupport",
                .product(name: "MediaTime", package: "Interlude"),
                .product(name: "PlayerInterface", package: "Interlude"),
                .product(name: "HLSInterstitials", package: "Interlude"),
                .product(name: "HLSPlaylist", package: "Interlude"),
                .product(name: "NetworkIO", package: "Interlude"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "VideoBackendTests",
            dependencies: [
                "VideoBackend", "VideoTestSupport",
                .product(name: "MediaTime", package: "Interlude"),
                .product(name: "NetworkIO", package: "Interlude"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)
