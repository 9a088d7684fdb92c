import HLSInterstitials
import MediaTime
import TestSupport
import Testing

/// RFC 8216bis Appendix D.2, D.3 and D.7: the X-ASSET-LIST JSON document; D.4: the query
/// parameters of interstitial requests.
@Suite("Asset lists and interstitial requests")
struct AssetListTests {
    @Test("the D.7 example decodes to its two assets, their durations and the skip control")
    func specificationExample() throws {
        let list = try Fixture.assetList("""
            { "ASSETS": [ { "URI": "http://example.com/ad1.m3u8", "DURATION": 15 },
                          { "URI": "http://example.com/ad2.m3u8", "DURATION": 15 } ],
              "SKIP-CONTROL": { "OFFSET": 5, "DURATION": 20, "LABEL-ID": "Exit-Label" } }
            """)
        #expect(list.assets.map(\.uri) == ["http://example.com/ad1.m3u8", "http://example.com/ad2.m3u8"])
        #expect(list.assets.map(\.duration) == [time("15"), time("15")])
        #expect(list.totalDuration == time("30"))
        #expect(list.skipControl == AssetList.SkipControlOverride(offset: time("5"), duration: time("20"), labelID: "Exit-Label"))
        #expect(list.otherKeys.isEmpty)
    }

    static func nested(depth: Int) -> String {
        // A client field holding `depth` arrays and objects, one inside the other.
        var value = "1"
        for level in 0..<depth { value = level.isMultiple(of: 2) ? "[\(value)]" : "{\"k\":\(value)}" }
        return #"{"ASSETS":[{"URI":"https://a/1.m3u8","DURATION":15,"X-NESTED":"# + value + "}]}"
    }

    @Test("an asset list nested deeper than 64 levels fails with the JSON path where it goes too deep")
    func nestingLimit() throws {
        // The client field sits at depth 3 ($ → ASSETS → [0] → X-NESTED).
        let accepted = try Fixture.assetList(Self.nested(depth: JSONValue.maximumDepth - 3))
        #expect(accepted.assets.count == 1)
        let error = #expect(throws: AssetListError.self) { try Fixture.assetList(Self.nested(depth: 500)) }
        #expect(error?.path.hasPrefix("$.ASSETS[0].X-NESTED") == true, "\(String(describing: error))")
        #expect(error?.message.contains("deeper than 64 levels") == true, "\(String(describing: error))")
    }

    @Test("fractional DURATION numbers are exact decimals")
    func fractionalDurations() throws {
        let list = try Fixture.assetList(#"{"ASSETS":[{"URI":"https://a/1.m3u8","DURATION":15.5},{"URI":"https://a/2.m3u8","DURATION":0.1}]}"#)
        #expect(list.assets[0].duration == time("15.5"))
        #expect(list.assets[1].duration == MediaTime(value: 1, timescale: 10), "0.1 is one tenth exactly, not the nearest double")
        #expect(list.totalDuration == time("15.6"))
    }

    @Test("a DURATION written as a numeric string is accepted")
    func stringDuration() throws {
        let list = try Fixture.assetList(#"{"ASSETS":[{"URI":"https://a/1.m3u8","DURATION":"10"},{"URI":"https://a/2.m3u8","DURATION":"7.25"}]}"#)
        #expect(list.assets.map(\.duration) == [time("10"), time("7.25")])
        #expect(list.totalDuration == time("17.25"))
    }

    @Test("an asset without DURATION has an unknown duration, and so has the list")
    func missingDuration() throws {
        let list = try Fixture.assetList(#"{"ASSETS":[{"URI":"https://a/1.m3u8","DURATION":10},{"URI":"https://a/2.m3u8"}]}"#)
        #expect(list.assets[1].duration == nil)
        #expect(list.totalDuration == nil)
    }

    @Test("an empty ASSETS array is a valid list that plays nothing")
    func emptyAssets() throws {
        let list = try Fixture.assetList(#"{"ASSETS":[]}"#)
        #expect(list.assets.isEmpty)
        #expect(list.totalDuration == .zero)
        #expect(list.skipControl == nil)
    }

    @Test("keys the specification does not define are kept, at the top and in each asset")
    func unknownKeys() throws {
        let list = try Fixture.assetList("""
            {"ASSETS":[{"URI":"https://a/1.m3u8","DURATION":10,"X-AD-ID":"creative-7","TRACKING":{"start":["https://t/s"]}}],
             "X-COM-EXAMPLE-POD":3,"NOTE":null}
            """)
        #expect(list.otherKeys == ["X-COM-EXAMPLE-POD": .number("3"), "NOTE": .null])
        #expect(list.assets[0].otherKeys == [
            "X-AD-ID": .string("creative-7"),
            "TRACKING": .object(["start": .array([.string("https://t/s")])]),
        ])
    }

    @Test("SKIP-CONTROL keeps only the keys it gives")
    func skipControlKeys() throws {
        let list = try Fixture.assetList(#"{"ASSETS":[],"SKIP-CONTROL":{"OFFSET":0}}"#)
        #expect(list.skipControl == AssetList.SkipControlOverride(offset: .zero, duration: nil, labelID: nil))
    }

    @Test("SKIP-CONTROL overrides the DATERANGE's skip attributes key by key (D.7)")
    func skipControlOverridesPerKey() {
        // D.7: the tag says OFFSET 2, DURATION 5, LABEL-ID "Exit-Label"; the list's {OFFSET 5,
        // DURATION 20} moves the button to 5 s for 20 s, and "Exit-Label" still labels it.
        let tag = InterstitialEvent.SkipControl(offset: time("2"), duration: time("5"), labelID: "Exit-Label")
        let override = AssetList.SkipControlOverride(offset: time("5"), duration: time("20"))
        #expect(override.applied(to: tag) == InterstitialEvent.SkipControl(offset: time("5"), duration: time("20"), labelID: "Exit-Label"))
        #expect(AssetList.SkipControlOverride(labelID: "Other").applied(to: tag)
                == InterstitialEvent.SkipControl(offset: time("2"), duration: time("5"), labelID: "Other"))
        #expect(AssetList.SkipControlOverride(offset: .zero).applied(to: nil) == InterstitialEvent.SkipControl(offset: .zero),
                "the list alone can add a skip button")
        #expect(AssetList.SkipControlOverride(duration: time("20")).applied(to: nil) == nil, "no offset anywhere, no button")
    }

    @Test("malformed documents fail with the JSON path of the problem", arguments: [
        ("not json", "$"),
        ("[1, 2]", "$"),
        (#"{"assets": []}"#, "$.ASSETS"),
        (#"{"ASSETS": {"URI": "https://a/1.m3u8"}}"#, "$.ASSETS"),
        (#"{"ASSETS": [{"URI": "https://a/1.m3u8", "DURATION": 1}, "https://a/2.m3u8"]}"#, "$.ASSETS[1]"),
        (#"{"ASSETS": [{"DURATION": 10}]}"#, "$.ASSETS[0].URI"),
        (#"{"ASSETS": [{"URI": 42, "DURATION": 10}]}"#, "$.ASSETS[0].URI"),
        (#"{"ASSETS": [{"URI": "https://a/1.m3u8", "DURATION": 1}, {"URI": "https://a/2.m3u8", "DURATION": -5}]}"#, "$.ASSETS[1].DURATION"),
        (#"{"ASSETS": [{"URI": "https://a/1.m3u8", "DURATION": "ten"}]}"#, "$.ASSETS[0].DURATION"),
        (#"{"ASSETS": [{"URI": "https://a/1.m3u8", "DURATION": true}]}"#, "$.ASSETS[0].DURATION"),
        (#"{"ASSETS": [], "SKIP-CONTROL": 5}"#, "$.SKIP-CONTROL"),
        (#"{"ASSETS": [], "SKIP-CONTROL": {"OFFSET": "soon"}}"#, "$.SKIP-CONTROL.OFFSET"),
        (#"{"ASSETS": [], "SKIP-CONTROL": {"OFFSET": 5, "DURATION": -1}}"#, "$.SKIP-CONTROL.DURATION"),
        (#"{"ASSETS": [], "SKIP-CONTROL": {"OFFSET": 5, "LABEL-ID": 7}}"#, "$.SKIP-CONTROL.LABEL-ID"),
    ])
    func malformed(json: String, path: String) throws {
        let error = try #require(throws: AssetListError.self) { try Fixture.assetList(json) }
        #expect(error.path == path)
        #expect(error.description.hasPrefix("asset list: \(path) "))
        #expect(!error.message.isEmpty)
    }

    // MARK: - Requests (D.4)

    @Test("_HLS_primary_id is added to a URI without a query")
    func primaryIDWithoutQuery() {
        let url = InterstitialRequest.url("https://ads.example.com/list.json", primaryID: "6D3A1D0E")
        #expect(url == "https://ads.example.com/list.json?_HLS_primary_id=6D3A1D0E")
    }

    @Test("existing query items are kept and the client's are appended after them")
    func keepsExistingQuery() {
        let url = InterstitialRequest.url(
            "https://ads.example.com/list.json?_HLS_interstitial_id=ad1&slot=2", primaryID: "abc", startOffset: time("12.5")
        )
        #expect(url == "https://ads.example.com/list.json?_HLS_interstitial_id=ad1&slot=2&_HLS_primary_id=abc&_HLS_start_offset=12.500")
    }

    @Test("_HLS_start_offset is added only when given and greater than zero")
    func startOffsetOnlyWhenPositive() {
        let base = "https://ads.example.com/list.json"
        #expect(InterstitialRequest.url(base, primaryID: "p", startOffset: time("30")) == base + "?_HLS_primary_id=p&_HLS_start_offset=30.000")
        #expect(InterstitialRequest.url(base, primaryID: "p", startOffset: time("0.0005")) == base + "?_HLS_primary_id=p&_HLS_start_offset=0.001",
                "rounded to the millisecond, as hls.js sends it")
        #expect(InterstitialRequest.url(base, primaryID: "p", startOffset: .zero) == base + "?_HLS_primary_id=p")
        #expect(InterstitialRequest.url(base, primaryID: "p", startOffset: time("-3")) == base + "?_HLS_primary_id=p")
        #expect(InterstitialRequest.url(base, primaryID: "p") == base + "?_HLS_primary_id=p")
    }

    @Test("without a primary ID or an offset the URI is only resolved")
    func nothingToAdd() {
        #expect(InterstitialRequest.url("list.json", relativeTo: "https://cdn.example.com/show/main.m3u8", primaryID: nil)
                == "https://cdn.example.com/show/list.json")
    }

    @Test("a relative X-ASSET-LIST is resolved against the playlist URI before the parameters are added")
    func relativeAssetList() {
        let url = InterstitialRequest.url(
            "../ads/list.json?pod=1", relativeTo: "https://cdn.example.com/show/hls/main.m3u8?token=t", primaryID: "p-1"
        )
        #expect(url == "https://cdn.example.com/show/ads/list.json?pod=1&_HLS_primary_id=p-1")
    }

    @Test("a data: URI is not a request and gets no query items")
    func dataURI() {
        let uri = #"data:application/json,{"ASSETS":[]}"#
        #expect(InterstitialRequest.url(uri, relativeTo: "https://cdn.example.com/main.m3u8", primaryID: "p", startOffset: time("3")) == uri)
    }

    @Test("the parameters go before a fragment")
    func fragmentStaysLast() {
        #expect(InterstitialRequest.url("https://a.example/list.json#part", primaryID: "p") == "https://a.example/list.json?_HLS_primary_id=p#part")
    }

    @Test("a primary ID with reserved characters is percent-encoded")
    func percentEncodedPrimaryID() {
        #expect(InterstitialRequest.url("https://a.example/x.m3u8", primaryID: "a b&c=d/é")
                == "https://a.example/x.m3u8?_HLS_primary_id=a%20b%26c%3Dd%2F%C3%A9")
    }

    @Test("removing the client's query items gives back the URI the playlist wrote")
    func removingClientQueryItems() {
        let original = "https://ads.example.com/list.json?_HLS_interstitial_id=ad1"
        let requested = InterstitialRequest.url(original, primaryID: "p", startOffset: time("4"))
        #expect(InterstitialRequest.removingClientQueryItems(requested) == original)
        #expect(InterstitialRequest.removingClientQueryItems("https://a/x.json?_HLS_primary_id=p") == "https://a/x.json")
        #expect(InterstitialRequest.removingClientQueryItems("https://a/x.json") == "https://a/x.json")
    }

    // MARK: - Resolution (RFC 3986 §5.4)

    @Test("relative references resolve as RFC 3986 §5.4.1 shows", arguments: [
        ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"), ("/g", "http://a/g"),
        ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"), ("#s", "http://a/b/c/d;p?q#s"),
        ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"), (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"),
        ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"),
        ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"), ("../../g", "http://a/g"),
        ("../../../g", "http://a/g"), ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"),
    ])
    func rfc3986(reference: String, expected: String) {
        #expect(URIResolution.resolve(reference, against: "http://a/b/c/d;p?q") == expected)
    }

    @Test("a segment's file name resolves beside its playlist, whatever the base's shape", arguments: [
        ("http://a/b/c/main.m3u8", "http://a/b/c/seg1.ts"), ("http://a/b/c/main.m3u8?token=1#top", "http://a/b/c/seg1.ts"),
        ("http://a", "http://a/seg1.ts"), ("http://a/", "http://a/seg1.ts"), ("http://a?q", "http://a/seg1.ts"),
        ("http://a/b/../c/main.m3u8", "http://a/c/seg1.ts"), ("http://a/b/./c/", "http://a/b/c/seg1.ts"),
        ("file:///tmp/x/main.m3u8", "file:///tmp/x/seg1.ts"), ("http://a/b/.hidden/main.m3u8", "http://a/b/.hidden/seg1.ts"),
    ])
    func fileNameBesidePlaylist(base: String, expected: String) {
        #expect(URIResolution.resolve("seg1.ts", against: base) == expected)
    }

    @Test("a path on the same server replaces the base's path, query and fragment", arguments: [
        ("/media/s/1.ts", "http://a:8080/b/c/main.m3u8?q#f", "http://a:8080/media/s/1.ts"),
        ("/media/s/1.ts", "http://a", "http://a/media/s/1.ts"), ("/media/s/1.ts", "http://a?q", "http://a/media/s/1.ts"),
        ("/media/../s/1.ts", "http://a/b/", "http://a/s/1.ts"), ("media/s/1.ts", "http://a/b/c", "http://a/b/media/s/1.ts"),
        ("media/./1.ts", "http://a/b/c", "http://a/b/media/1.ts"), ("a%20b.ts", "https://u@h/x/y.m3u8", "https://u@h/x/a%20b.ts"),
    ])
    func pathsOnTheSameServer(reference: String, base: String, expected: String) {
        #expect(URIResolution.resolve(reference, against: base) == expected)
    }

    @Test("absolute URIs and references without a base are left alone")
    func absoluteUnchanged() {
        #expect(URIResolution.resolve("https://ads.example.com/a.m3u8", against: "http://a/b/c") == "https://ads.example.com/a.m3u8")
        #expect(URIResolution.resolve("data:application/json,{}", against: "http://a/b/c") == "data:application/json,{}")
        #expect(URIResolution.resolve("ads/list.json", against: nil) == "ads/list.json")
        #expect(URIResolution.isAbsolute("file:///tmp/x.m3u8"))
        #expect(!URIResolution.isAbsolute("ads/list.json"))
        #expect(!URIResolution.isAbsolute("1:2"))
    }
}

@Suite("Asset lists with an unplayable asset")
struct AssetListSkippedAssetTests {
    @Test("an asset with an empty URI is skipped alone, with its JSON path, and the others play")
    func emptyURISkipsOneAsset() throws {
        let list = try AssetList(json: Array(#"{"ASSETS":[{"URI":"https://a/1.m3u8","DURATION":10},{"URI":"","DURATION":5},{"URI":"https://a/3.m3u8","DURATION":15}]}"#.utf8))
        #expect(list.assets.map(\.uri) == ["https://a/1.m3u8", "https://a/3.m3u8"])
        #expect(list.totalDuration == MediaTime(seconds: 25))
        #expect(list.skippedAssets.map(\.path) == ["$.ASSETS[1].URI"])
    }
}

/// Timed against a document four times larger (see `growthRatio`): `make test` runs the
/// `…ScalingTests` suites on their own, after the rest, so that parallel tests do not skew the times.
@Suite("Asset list decoding grows linearly with the document")
struct AssetListScalingTests {
    @Test("decoding nested client fields takes time linear in the document")
    func nestedDecodingIsLinear() throws {
        let field = AssetListTests.nested(depth: 60)
        func document(_ copies: Int) -> [UInt8] {
            let one = String(field.dropFirst(#"{"ASSETS":["#.count).dropLast(2))
            return Array((#"{"ASSETS":["# + Array(repeating: one, count: copies).joined(separator: ",") + "]}").utf8)
        }
        let small = document(20)
        let large = document(80)
        #expect(try AssetList(json: large).assets.count == 80)
        let ratio = try growthRatio(small: 1, large: 4) { size in _ = try AssetList(json: size == 1 ? small : large) }
        #expect(ratio < 10, "4× the document took \(ratio)× the time")
    }
}
