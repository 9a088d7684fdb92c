import GroupSimulation
import HLSInterstitials
import MediaTime

/// The libFuzzer entry point for the JSON documents Interlude reads from outside: each input is
/// decoded as an X-ASSET-LIST response (`AssetList`) and as a simulation scenario
/// (`SimulationScenario`). Either decoder may reject the input, with its located error; neither may
/// trap, hang or run out of memory (libFuzzer's -timeout and -rss_limit_mb catch the last two).
///
/// Invariants on what decodes:
/// 1. An asset list has no asset with an empty URI, and no negative duration.
/// 2. A scenario's description (what `interlude simulate` prints) can be made.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let list = try? AssetList(json: bytes) {
        for asset in list.assets {
            if asset.uri.isEmpty { fatalError("asset list: an asset with an empty URI was kept") }
            if let duration = asset.duration, duration.isNegative { fatalError("asset list: a negative DURATION was kept") }
        }
        _ = list.totalDuration
        _ = list.skipControl?.applied(to: nil)
    }
    if let scenario = try? SimulationScenario(json: bytes) {
        _ = String(describing: scenario)
    }
    return 0
}
