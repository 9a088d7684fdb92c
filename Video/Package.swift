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
    ],
    dependencies: [
        // The name pins the package's identity, which for a path dependency would otherwise be the
        // checkout's folder name (`main`, a worktree's name, …).
        .package(name: "Interlude", path: ".."),
    ],
    targets: [
        // GStreamer 1.22 core (GLib and GObject come with it), through pkg-config.
        .systemLibrary(
            name: "CGStreamer",
            path: "Sources/CGStreamer",
            pkgConfig: "gstreamer-1.0",
            providers: [.apt(["libgstreamer1.0-dev"])]
        ),
        .target(
            name: "VideoBackend",
            dependencies: ["CGStreamer", .product(name: "MediaTime", package: "Interlude")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "VideoBackendTests",
            dependencies: [
                "VideoBackend",
                .product(name: "MediaTime", package: "Interlude"),
                .product(name: "NetworkIO", package: "Interlude"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)
