extension OriginConfiguration {
    /// The configuration `interlude origin` serves without `--config`: the example of the WWDC22
    /// SharePlay talk (S1.2, S1.10) over the bundled media, in both modes, VOD and live.
    ///
    /// - alice is premium: no ads;
    /// - bob gets one 15-second ad at every break;
    /// - charlie gets 30 seconds: a 10-second and a 20-second ad;
    /// - dana, in region DE, gets no ads but a 5-second legal warning before the film, which only
    ///   viewers in DE get.
    ///
    /// `movie` (interstitials) and `movie-stitched` are 120 s of content with breaks at 0 (the
    /// legal warning), 40 and 80 s; `channel` (interstitials) and `channel-stitched` are live, with
    /// a 60-second window, delta updates, and a break every 60 s from 20 s after the stream starts.
    public static let defaultJSON = """
        {
          "content": { "media": "content", "codecs": "avc1.42C00C,mp4a.40.2", "resolution": "320x180", "frameRate": 25 },
          "programDateTime": "2026-01-01T00:00:00.000Z",
          "ads": [
            { "id": "legal-warning", "media": "ads/ad-5s" },
            { "id": "spot-10s", "media": "ads/ad-10s" },
            { "id": "spot-15s", "media": "ads/ad-15s" },
            { "id": "spot-20s", "media": "ads/ad-20s" }
          ],
          "viewers": [
            { "id": "alice", "premium": true, "region": "US" },
            { "id": "bob", "region": "US", "pod": ["spot-15s"] },
            { "id": "charlie", "region": "US", "pod": ["spot-10s", "spot-20s"] },
            { "id": "dana", "region": "DE", "pod": [] }
          ],
          "streams": [
            {
              "id": "movie", "kind": "vod", "mode": "interstitials", "durationSeconds": 120,
              "breaks": [
                { "id": "legal", "positionSeconds": 0, "regions": ["DE"], "pod": ["legal-warning"],
                  "dateRange": { "CUE": ["PRE", "ONCE"], "X-RESUME-OFFSET": 0, "X-RESTRICT": ["SKIP", "JUMP"],
                                 "X-TIMELINE-OCCUPIES": "POINT" } },
                { "id": "mid-1", "positionSeconds": 40,
                  "dateRange": { "PLANNED-DURATION": 30, "X-RESUME-OFFSET": 0, "X-RESTRICT": ["SKIP"],
                                 "X-TIMELINE-OCCUPIES": "RANGE", "X-TIMELINE-STYLE": "HIGHLIGHT" } },
                { "id": "mid-2", "positionSeconds": 80,
                  "dateRange": { "PLANNED-DURATION": 30, "X-RESUME-OFFSET": 0, "X-PLAYOUT-LIMIT": 30,
                                 "X-TIMELINE-OCCUPIES": "POINT", "X-TIMELINE-STYLE": "HIGHLIGHT" } }
              ]
            },
            {
              "id": "movie-stitched", "kind": "vod", "mode": "stitched", "durationSeconds": 120,
              "breaks": [
                { "id": "legal", "positionSeconds": 0, "regions": ["DE"], "pod": ["legal-warning"] },
                { "id": "mid-1", "positionSeconds": 40 },
                { "id": "mid-2", "positionSeconds": 80 }
              ]
            },
            {
              "id": "channel", "kind": "live", "mode": "interstitials", "windowSeconds": 60, "deltaUpdates": true,
              "repeatingBreak": {
                "id": "ad", "firstAtSeconds": 20, "everySeconds": 60,
                "dateRange": { "PLANNED-DURATION": 30, "X-RESTRICT": ["SKIP"], "X-SNAP": ["OUT", "IN"],
                               "X-TIMELINE-OCCUPIES": "RANGE" }
              }
            },
            {
              "id": "channel-stitched", "kind": "live", "mode": "stitched", "windowSeconds": 60, "deltaUpdates": true,
              "repeatingBreak": { "id": "ad", "firstAtSeconds": 20, "everySeconds": 60 }
            }
          ]
        }
        """

    /// ``defaultJSON``, read.
    public static let `default`: OriginConfiguration = {
        do {
            return try OriginConfiguration(json: Array(defaultJSON.utf8))
        } catch {
            preconditionFailure("the embedded default origin configuration does not read: \(error)")
        }
    }()
}
