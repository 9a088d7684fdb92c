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

/// Interlude's benchmarks, a package of their own so that the root build never builds them.
///
///     swift build -c release --package-path Benchmarks
///     Benchmarks/run-parse.sh
///     Benchmarks/run-origin.sh
///     Benchmarks/run-player.sh
let package = Package(
    name: "InterludeBenchmarks",
    dependencies: [
        // The name pins the package's identity, which for a path dependency would otherwise be the
        // checkout's folder name (`main`, a worktree's name, …).
        .package(name: "Interlude", path: ".."),
    ],
    targets: [
        .target(name: "CHeapStatistics"),
        .executableTarget(
            name: "hls-bench",
            dependencies: [
                "CHeapStatistics",
                .product(name: "HLSPlaylist", package: "Interlude"),
                .product(name: "HLSInterstitials", package: "Interlude"),
                .product(name: "MediaTime", package: "Interlude"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "origin-bench",
            dependencies: [
                .product(name: "NetworkIO", package: "Interlude"),
                .product(name: "StreamOrigin", package: "Interlude"),
                .product(name: "HLSPlaylist", package: "Interlude"),
                .product(name: "MediaTime", package: "Interlude"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "player-bench",
            dependencies: [
                "CHeapStatistics",
                .product(name: "PlayerEngine", package: "Interlude"),
                .product(name: "VirtualTime", package: "Interlude"),
                .product(name: "MediaProbe", package: "Interlude"),
                .product(name: "MediaTime", package: "Interlude"),
                .product(name: "HLSInterstitials", package: "Interlude"),
                .product(name: "HLSPlaylist", package: "Interlude"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)
