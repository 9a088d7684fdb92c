import Dispatch
import Foundation
import HLSPlaylist
import MediaTime
import NetworkIO
import StreamOrigin

/// `interlude origin`: serves VOD and live streams with per-viewer ads over HTTP.
package enum OriginCommand: Subcommand {
    static let spec = CommandSpec(
        name: "origin",
        abstract: "Serve VOD and live HLS streams with per-viewer ads, as interstitials or stitched.",
        discussion: """
            Starts an HLS origin on the bundled media (Fixtures/Media): each stream of the configuration is
            served to each viewer at /<vod|live>/<stream>/<viewer>/main.m3u8 (and multivariant.m3u8). A
            stream's ads are either HLS interstitials (EXT-X-DATERANGE with X-ASSET-LIST pointing at
            /ads/<stream>/<viewer>/<break>.json, the viewer's ad decision) or stitched into the viewer's
            playlist between EXT-X-DISCONTINUITY tags with EXT-X-CUE-OUT / EXT-X-CUE-IN and an SCTE-35 date
            range. Premium viewers get no ads; others get pods of their own lengths. Live streams slide a
            window along the wall clock, with delta updates (_HLS_skip=YES) where configured. Every EXTINF
            is the measured duration of the segment it names. A VOD may last any whole number of the
            content's keyframe intervals (1 s in the bundled media): its last segment is then cut shorter at
            a keyframe; an ad's durationSeconds cuts it from longer media the same way.
            Without --config the embedded default is served (print it with --print-config, edit, pass it
            back): alice is premium, bob gets 15 s of ads, charlie 30 s (10 + 20), dana in DE a 5 s legal
            warning; streams movie and channel use interstitials, movie-stitched and channel-stitched do not.
            The URLs go to stdout; each request is logged to stderr. Ctrl-C stops the server.
            """,
        options: [
            .init(long: "config", short: nil, valueName: "file", help: "A JSON configuration (default: the embedded one)."),
            .init(long: "media", short: nil, valueName: "directory", help: "The media directory (default: Fixtures/Media of this checkout)."),
            .init(long: "port", short: "p", valueName: "n", help: "The TCP port (default 8080; 0 picks a free one)."),
            .init(long: "host", short: nil, valueName: "address", help: "The address to listen on (default 127.0.0.1)."),
            .init(long: "print-config", short: nil, valueName: nil, help: "Print the embedded default configuration and exit."),
        ],
        examples: [
            "interlude origin",
            "interlude origin --port 9000 --config my-ads.json",
            "interlude origin --print-config > my-ads.json",
            "interlude timeline http://127.0.0.1:8080/vod/movie/charlie/main.m3u8",
        ]
    )

    /// An origin server ready to run, with what it was made from.
    package struct Prepared: Sendable {
        /// The server.
        package var server: OriginServer
        /// Where the configuration came from, for the banner.
        package var configurationSource: String
        /// The media directory.
        package var mediaDirectory: String
        /// The address the server listens on.
        package var host: String
    }

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        if arguments.flag("print-config") {
            io.write(OriginConfiguration.defaultJSON + "\n")
            return 0
        }
        let prepared = try prepare(arguments, io: io, wallClock: systemWallClock)
        // Ctrl-C and SIGTERM start a graceful shutdown; run() returns when it completes.
        try await withInterruption({
            io.writeError("origin: stopping\n")
            prepared.server.shutdown()
        }) {
            try await serve(prepared, io: io)
        }
        return 0
    }

    /// Reads the options, the configuration and the media, and makes the server; nothing listens
    /// yet.
    ///
    /// - Throws: ``UsageError`` for a bad option value, ``CommandFailure`` for a configuration or
    ///   media problem (with its JSON path or file).
    package static func prepare(_ arguments: [String], io: CommandIO, wallClock: @escaping @Sendable () -> PlaylistDate) throws -> Prepared {
        try prepare(try spec.parse(arguments), io: io, wallClock: wallClock)
    }

    static func prepare(_ arguments: ParsedArguments, io: CommandIO, wallClock: @escaping @Sendable () -> PlaylistDate) throws -> Prepared {
        let port = try arguments.value("port").map { value -> Int in
            guard let port = Int(value), (0...65_535).contains(port) else {
                throw UsageError(message: "--port must be a TCP port from 0 to 65535, not '\(value)'", command: spec)
            }
            return port
        } ?? 8080
        let host = arguments.value("host") ?? "127.0.0.1"

        let configuration: OriginConfiguration
        let configurationSource: String
        if let path = arguments.value("config") {
            guard let data = FileManager.default.contents(atPath: path) else { throw CommandFailure(message: "cannot read \(path)") }
            do {
                configuration = try OriginConfiguration(json: Array(data))
            } catch {
                throw CommandFailure(message: "\(path): \(error)")
            }
            configurationSource = path
        } else {
            configuration = .default
            configurationSource = "the embedded default (see --print-config)"
        }

        guard let media = arguments.value("media") ?? defaultMediaDirectory() else {
            throw CommandFailure(message: "cannot find Fixtures/Media from here or from the executable; pass --media <directory>")
        }
        let origin: Origin
        do {
            let library = try MediaLibrary.load(directory: media, configuration: configuration)
            // Live streams without a start date started one window (and a break interval) ago, so
            // their first playlists are already full.
            var lead = MediaTime.zero
            for stream in configuration.streams {
                guard case .live(let live) = stream.timing else { continue }
                lead = MediaTime.max(lead, live.window + (live.repeatingBreak?.interval ?? .zero))
            }
            let now = wallClock()
            let start = PlaylistDate(nanosecondsSince1970: now.nanosecondsSince1970 / 1_000_000_000 * 1_000_000_000).adding(-lead)
            origin = try Origin(configuration: configuration, library: library, liveStartDate: start)
        } catch {
            throw CommandFailure(message: "\(error)")
        }
        let server = OriginServer(
            origin: origin,
            configuration: HTTPServer.Configuration(host: host, port: port, accessLog: { entry in io.writeError(entry.line + "\n") }),
            wallClock: wallClock
        )
        return Prepared(server: server, configurationSource: configurationSource, mediaDirectory: media, host: host)
    }

    /// Runs the server, printing its URLs once it listens; returns when it has shut down.
    ///
    /// - Throws: ``CommandFailure`` when it cannot listen.
    package static func serve(_ prepared: Prepared, io: CommandIO) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    try await prepared.server.run()
                } catch {
                    throw CommandFailure(message: "cannot serve: \(error)")
                }
            }
            let port = try await prepared.server.listeningPort()
            io.write(banner(prepared, port: port))
            try await group.waitForAll()
        }
    }

    /// What a newcomer needs: the URL of every stream for every viewer, and commands to paste.
    static func banner(_ prepared: Prepared, port: Int) -> String {
        let origin = prepared.server.origin
        // A wildcard address is reachable on loopback; an IPv6 literal needs brackets in a URL.
        let host = ["0.0.0.0", "::", ""].contains(prepared.host) ? "127.0.0.1" : prepared.host
        let base = "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        let library = origin.library
        var text = "Interlude origin on \(base)\n"
        text += "  configuration: \(prepared.configurationSource)\n"
        text += "  media: \(prepared.mediaDirectory) (\(library.content.count) content segments of "
            + "\(library.chunkDuration.decimalString()) s, looped; \(library.ads.count) ads)\n"
        for stream in origin.configuration.streams {
            text += "\n\(stream.id) (\(stream.kind.rawValue), \(stream.mode.rawValue))\n"
            for viewer in origin.configuration.viewers {
                let url = "\(base)/\(stream.kind.rawValue)/\(stream.id)/\(viewer.id)/main.m3u8"
                let name = viewer.id.count < 10 ? viewer.id + String(repeating: " ", count: 10 - viewer.id.count) : viewer.id + " "
                text += "  \(name)\(url)\n"
            }
        }
        // Samples for a viewer who gets ads: the first stream for inspect and validate, a
        // stitched one (whose ad ranges `timeline` lists) when there is one.
        let viewer = origin.configuration.viewers.first { !$0.isPremium && !$0.pod.isEmpty } ?? origin.configuration.viewers.first
        func sample(_ stream: OriginConfiguration.Stream?) -> String {
            guard let stream, let viewer else { return "\(base)/" }
            return "\(base)/\(stream.kind.rawValue)/\(stream.id)/\(viewer.id)/main.m3u8"
        }
        let first = sample(origin.configuration.streams.first)
        let stitched = sample(origin.configuration.streams.first { $0.mode == .stitched } ?? origin.configuration.streams.first)
        text += """

            Try:
              interlude inspect \(first)
              interlude validate \(first)
              interlude timeline \(stitched)
            Every URL, as JSON: \(base)/
            Requests are logged to stderr; Ctrl-C stops.

            """
        return text
    }

    /// `Fixtures/Media` in the current directory or one above it, else above the executable.
    static func defaultMediaDirectory() -> String? {
        var candidates: [URL] = []
        var directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        for _ in 0..<4 {
            candidates.append(directory)
            directory.deleteLastPathComponent()
        }
        if let executable = CommandLine.arguments.first {
            var directory = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<6 {
                candidates.append(directory)
                directory.deleteLastPathComponent()
            }
        }
        for candidate in candidates {
            let media = candidate.appendingPathComponent("Fixtures/Media")
            if FileManager.default.fileExists(atPath: media.appendingPathComponent("content").path) { return media.path }
        }
        return nil
    }

    /// The system's real-time clock: the one real wall clock of the program.
    static let systemWallClock: @Sendable () -> PlaylistDate = {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return PlaylistDate(nanosecondsSince1970: Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec))
    }
}
