import HLSInterstitials
import MediaTime

extension AssetList {
    /// The asset list as the JSON document an X-ASSET-LIST request returns (RFC 8216bis
    /// Appendix D.2): `ASSETS` with each asset's `URI` and `DURATION` (an exact decimal number of
    /// seconds), and `SKIP-CONTROL` when there is one. ``AssetList/init(json:)`` reads it back.
    ///
    /// - Complexity: O(n) in the number of assets.
    public func jsonBytes() -> [UInt8] {
        var root = otherKeys
        root["ASSETS"] = .array(assets.map { asset in
            var fields = asset.otherKeys
            fields["URI"] = .string(asset.uri)
            if let duration = asset.duration { fields["DURATION"] = .number(duration.decimalString(fallbackDigits: 6)) }
            return .object(fields)
        })
        if let skipControl {
            var fields: [String: JSONValue] = [:]
            if let offset = skipControl.offset { fields["OFFSET"] = .number(offset.decimalString()) }
            if let duration = skipControl.duration { fields["DURATION"] = .number(duration.decimalString()) }
            if let label = skipControl.labelID { fields["LABEL-ID"] = .string(label) }
            root["SKIP-CONTROL"] = .object(fields)
        }
        return JSONValue.object(root).encodedBytes()
    }
}
