public import HLSInterstitials
import HLSPlaylist
import PlayerEngine

/// A stream ready to play: the primary playlist's URI, its schedule (asset lists fetched) and the
/// plan the switcher plays.
public struct LoadedStream: Sendable {
    public var uri: String
    public var schedule: InterstitialSchedule
    public var plan: SwitchPlan
    /// What could not be used, for stderr (an event's error, an asset list that failed).
    public var warnings: [String]
}

/// Why a stream cannot be played.
public struct StreamLoadError: Error, Sendable, CustomStringConvertible {
    public var description: String
}

/// Loads a media playlist over HTTP and what its interstitials need, with the root's
/// `HLSPlaylist` and `HLSInterstitials` (the engine's loader, `HTTPResourceLoader`).
public enum StreamLoader {
    public static func load(_ url: String, loader: some ResourceLoader = HTTPResourceLoader()) async throws(StreamLoadError) -> LoadedStream {
        let resource: LoadedResource
        do {
            resource = try await loader.load(ResourceRequest(url: url))
        } catch {
            throw StreamLoadError(description: "cannot load \(error)")
        }
        let result: ParseResult
        do {
            result = try PlaylistParser.parse(resource.bytes, options: ParseOptions(mode: .lenient, playlistURI: resource.url))
        } catch {
            throw StreamLoadError(description: "\(url): not a playlist: \(error)")
        }
        guard case .media(let playlist) = result.playlist else {
            throw StreamLoadError(description: "\(url) is a multivariant playlist; give one of its media playlists")
        }
        var warnings = result.diagnostics.filter { $0.severity == .error }.map { "\(url): \($0.locatedMessage); read tolerantly" }
        let (events, errors) = InterstitialEvent.events(in: playlist)
        warnings += errors.map { "\(url): \($0)" }
        var assetLists: [String: InterstitialSchedule.AssetListState] = [:]
        for event in events {
            guard let listURI = event.assetListURI else { continue }
            let listURL = URIResolution.resolve(listURI, against: resource.url)
            do {
                let list = try AssetList(json: try await loader.load(ResourceRequest(url: listURL)).bytes)
                warnings += list.skippedAssets.map { "\(listURL): \($0)" }
                assetLists[event.identifier] = .resolved(list)
            } catch {
                warnings.append("break \"\(event.identifier)\": asset list \(listURL): \(error); primary plays on")
                assetLists[event.identifier] = .failed("\(error)")
            }
        }
        let schedule = InterstitialSchedule(primary: PrimaryTimeline(playlist: playlist), events: events,
                                            options: InterstitialSchedule.Options(assetLists: assetLists))
        let plan = SwitchPlan(schedule: schedule, baseURI: resource.url)
        warnings += plan.omissions.map(\.description)
        return LoadedStream(uri: resource.url, schedule: schedule, plan: plan, warnings: warnings)
    }
}
