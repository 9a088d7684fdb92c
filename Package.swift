// swift-tools-version: 6.2
import PackageDescription

/// Settings every Interlude target shares: Swift 6 mode, warnings as errors, and the upcoming
/// features the house style relies on.
let strictSettings: [SwiftSetting] = [
    .treatAllWarnings(as: .error),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InferIsolatedConformances"),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
]

let package = Package(
    name: "Interlude",
    products: [
        .library(name: "MediaTime", targets: ["MediaTime"]),
        .library(name: "VirtualTime", targets: ["VirtualTime"]),
        .library(name: "MediaProbe", targets: ["MediaProbe"]),
        .library(name: "HLSPlaylist", targets: ["HLSPlaylist"]),
        .library(name: "HLSInterstitials", targets: ["HLSInterstitials"]),
        .library(name: "PlayerEngine", targets: ["PlayerEngine"]),
        .library(name: "PlayerInterface", targets: ["PlayerInterface"]),
        .library(name: "GroupWire", targets: ["GroupWire"]),
        .library(name: "GroupCoordination", targets: ["GroupCoordination"]),
        .library(name: "GroupPlayback", targets: ["GroupPlayback"]),
        .library(name: "GroupPlaybackTesting", targets: ["GroupPlaybackTesting"]),
        .library(name: "NetworkIO", targets: ["NetworkIO"]),
        .library(name: "StreamOrigin", targets: ["StreamOrigin"]),
        .library(name: "MPRIS", targets: ["MPRIS"]),
        .executable(name: "interlude", targets: ["interlude"]),
    ],
    targets: [
        .target(name: "MediaTime", swiftSettings: strictSettings),
        .target(name: "VirtualTime", swiftSettings: strictSettings),
        .target(name: "MediaProbe", dependencies: ["MediaTime"], swiftSettings: strictSettings),
        .target(name: "HLSPlaylist", dependencies: ["MediaTime"], swiftSettings: strictSettings),
        .target(name: "HLSInterstitials", dependencies: ["MediaTime", "HLSPlaylist"], swiftSettings: strictSettings),
        .target(
            name: "PlayerEngine",
            dependencies: ["MediaTime", "HLSPlaylist", "HLSInterstitials", "MediaProbe", "CLibCurl"],
            swiftSettings: strictSettings
        ),
        // The player layer's state machines (AVKit's semantics): no player, no I/O, so every UI
        // (the terminal player, a desktop bridge) drives the same logic.
        .target(name: "PlayerInterface", dependencies: ["HLSInterstitials", "MediaTime", "CCrypto"], swiftSettings: strictSettings),
        .target(name: "GroupWire", dependencies: ["MediaTime"], swiftSettings: strictSettings),
        .target(name: "GroupCoordination", dependencies: ["GroupWire", "HLSInterstitials", "MediaTime"], swiftSettings: strictSettings),
        .target(
            name: "GroupPlayback",
            dependencies: ["GroupWire", "GroupCoordination", "MediaTime", "HLSPlaylist", "HLSInterstitials", "PlayerEngine", "NetworkIO"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "GroupPlaybackTesting",
            dependencies: ["GroupWire", "GroupCoordination", "MediaTime"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "GroupSimulation",
            dependencies: [
                "MediaTime", "HLSPlaylist", "HLSInterstitials", "PlayerEngine",
                "GroupWire", "GroupCoordination", "GroupPlayback", "GroupPlaybackTesting", "StreamOrigin",
                "PlayerInterface",
            ],
            swiftSettings: strictSettings
        ),
        .systemLibrary(
            name: "CLibCurl",
            path: "Sources/CLibCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "CLibWebSockets",
            path: "Sources/CLibWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev"])]
        ),
        .systemLibrary(
            name: "CCrypto",
            path: "Sources/CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(
            name: "NetworkIO",
            dependencies: ["CLibWebSockets"],
            swiftSettings: strictSettings,
            // libwebsockets.h brings in OpenSSL's headers; NetworkIO checks TLS files with libssl.
            linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]
        ),
        .target(
            name: "GroupService",
            dependencies: ["GroupWire", "GroupCoordination", "MediaTime", "NetworkIO", "CCrypto", "CSQLite", "CHiredis"],
            swiftSettings: strictSettings
        ),
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // hiredis, the Redis client under the shared session store (`serve --store redis://…`).
        .systemLibrary(
            name: "CHiredis",
            path: "Sources/CHiredis",
            pkgConfig: "hiredis",
            providers: [.apt(["libhiredis-dev"])]
        ),
        // The browser participant of `interlude serve`: the /join page and, per browser, a bridge
        // that runs the participant stack and sends the page's <video> its schedule and anchors.
        .target(
            name: "BrowserParticipant",
            dependencies: ["GroupPlayback", "GroupCoordination", "GroupWire", "PlayerEngine", "HLSInterstitials", "MediaTime", "NetworkIO"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "StreamOrigin",
            dependencies: ["MediaTime", "HLSPlaylist", "HLSInterstitials", "MediaProbe", "NetworkIO"],
            swiftSettings: strictSettings
        ),
        .systemLibrary(
            name: "CSystemd",
            path: "Sources/CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // ncursesw (wide characters), which the terminal player `interlude watch` paints with.
        .systemLibrary(
            name: "CNcursesw",
            path: "Sources/CNcursesw",
            pkgConfig: "ncursesw",
            providers: [.apt(["libncurses-dev"])]
        ),
        .target(
            name: "MPRIS",
            dependencies: ["PlayerEngine", "PlayerInterface", "HLSInterstitials", "MediaTime", "CSystemd"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "InterludeCommandLine",
            dependencies: [
                "GroupSimulation", "GroupService", "GroupCoordination", "GroupPlayback", "GroupWire", "MediaTime", "HLSPlaylist",
                "HLSInterstitials", "PlayerEngine", "PlayerInterface", "VirtualTime", "NetworkIO", "StreamOrigin", "CLibCurl", "MPRIS",
                "CNcursesw", "BrowserParticipant",
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "interlude",
            dependencies: ["InterludeCommandLine"],
            swiftSettings: strictSettings
        ),
        .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: strictSettings),
        .testTarget(name: "MediaTimeTests", dependencies: ["MediaTime", "TestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "VirtualTimeTests", dependencies: ["VirtualTime"], swiftSettings: strictSettings),
        .testTarget(
            name: "MediaProbeTests",
            dependencies: ["MediaProbe", "MediaTime"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "HLSPlaylistTests",
            dependencies: ["HLSPlaylist", "MediaTime", "TestSupport"],
            resources: [.copy("Corpus")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PlayerEngineTests",
            dependencies: ["PlayerEngine", "HLSPlaylist", "HLSInterstitials", "MediaTime", "VirtualTime", "NetworkIO", "StreamOrigin", "TestSupport"],
            exclude: ["Goldens"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PlayerInterfaceTests",
            dependencies: ["PlayerInterface", "HLSInterstitials", "HLSPlaylist", "MediaTime", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "HLSInterstitialsTests",
            dependencies: ["HLSInterstitials", "HLSPlaylist", "MediaTime", "InterludeCommandLine", "TestSupport"],
            exclude: ["Scenarios"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GroupPlaybackTests",
            dependencies: ["GroupWire", "GroupCoordination", "GroupPlayback", "GroupPlaybackTesting", "PlayerEngine", "HLSInterstitials", "MediaTime", "VirtualTime", "TestSupport"],
            exclude: ["WireGoldens"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GroupSimulationTests",
            dependencies: ["GroupSimulation", "GroupWire", "GroupCoordination", "GroupPlayback", "GroupPlaybackTesting", "StreamOrigin", "HLSPlaylist", "MediaTime"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GroupServiceTests",
            dependencies: ["GroupService", "GroupCoordination", "GroupWire", "MediaTime", "NetworkIO", "TestSupport"],
            swiftSettings: strictSettings
        ),
        // Commits batches until it is killed, printing each acknowledged version; the crash test in
        // GroupServiceTests runs it and SIGKILLs it. Not part of any product.
        .executableTarget(
            name: "store-crash-writer",
            dependencies: ["GroupService"],
            path: "Tests/StoreCrashWriter",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "NetworkIOTests",
            dependencies: ["NetworkIO"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "StreamOriginTests",
            dependencies: ["StreamOrigin", "HLSInterstitials", "HLSPlaylist", "MediaProbe", "MediaTime", "NetworkIO"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MPRISTests",
            dependencies: ["MPRIS", "PlayerEngine", "PlayerInterface", "HLSInterstitials", "HLSPlaylist", "MediaTime", "NetworkIO", "StreamOrigin", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "BrowserParticipantTests",
            dependencies: [
                "BrowserParticipant", "GroupService", "GroupPlayback", "GroupCoordination", "GroupWire", "PlayerEngine", "HLSInterstitials",
                "MediaTime", "NetworkIO", "StreamOrigin", "HLSPlaylist", "VirtualTime", "TestSupport",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "InterludeCommandLineTests",
            dependencies: [
                "InterludeCommandLine", "HLSPlaylist", "HLSInterstitials", "MediaTime", "PlayerEngine", "PlayerInterface", "VirtualTime", "StreamOrigin",
                "GroupCoordination", "GroupPlayback", "TestSupport",
            ],
            swiftSettings: strictSettings
        ),
    ]
)
