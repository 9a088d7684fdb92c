import HLSInterstitials
import MediaTime
import PlayerInterface

/// The text form of `interlude timeline`.
enum TimelineText {
    static func render(
        report: TimelineReport, snapshot: IntegratedTimeline.Snapshot, schedule: InterstitialSchedule, stitched: StitchedAds,
        location: String, at: MediaTime?, width: Int
    ) -> String {
        var out = ""
        let primary = schedule.primary
        out += "Primary   \(location)\n"
        out += "  \(primary.isLive ? "live" : "VOD"), \(primary.segmentStarts.count) segments, "
        out += "primary \(TimeFormat.elapsed(primary.start))–\(TimeFormat.elapsed(primary.end)) (\(seconds(primary.duration)))\n"
        out += "  integrated \(primary.isLive ? "indefinite (live), known " : "")\(seconds(snapshot.knownDuration)), "
        out += "playout \(seconds(snapshot.playoutDuration))\n"

        out += "\nEvents\n"
        if report.events.isEmpty {
            out += "  (no interstitials)\n"
        } else {
            out += InspectReport.table(
                header: ["ID", "CUE", "START", "DURATION", "RESUME-OFFSET", "RESUMES AT", "LIMIT", "OCCUPIES", "STYLE", "RESTRICT", "SNAP", "ASSETS"],
                rows: report.events.map { event in
                    [
                        event.id,
                        event.cue.isEmpty ? "-" : event.cue.joined(separator: ","),
                        event.start.map(secondsText) ?? "(not scheduled)",
                        event.duration.map(secondsText) ?? "?",
                        event.resumptionOffset.map(secondsText) ?? "(default)",
                        event.resumeTime.map(secondsText) ?? "-",
                        event.playoutLimit.map(secondsText) ?? "-",
                        event.timelineOccupancy,
                        event.timelineStyle,
                        event.restrict.isEmpty ? "-" : event.restrict.joined(separator: ","),
                        event.snap.isEmpty ? "-" : event.snap.joined(separator: ","),
                        event.assets.map { "\($0.count) asset\($0.count == 1 ? "" : "s")" } ?? (event.assetListURI.map { "list " + $0 } ?? "-"),
                    ]
                }
            )
        }
        for exclusion in schedule.exclusions {
            out += "  \(exclusion.id): not scheduled (\(describe(exclusion.reason)))\n"
        }

        out += "\nSegments (primary / integrated / playout, seconds)\n"
        out += InspectReport.table(
            header: ["#", "TYPE", "EVENT", "PRIMARY", "INTEGRATED", "PLAYOUT"],
            rows: snapshot.segments.enumerated().map { index, segment in
                [
                    String(index), segment.segmentType.rawValue, segment.eventID ?? "-",
                    range(segment.primaryRange), range(segment.timeMapping.target), range(segment.playoutRange),
                ]
            }
        )
        if !stitched.ranges.isEmpty {
            out += "\nStitched ads (item time): " + stitched.ranges.map(range).joined(separator: ", ")
            out += "; content duration \(seconds(stitched.contentDuration))\n"
        }

        out += "\nTransport bar\n"
        out += bar(snapshot: snapshot, width: width)
        out += "  legend: = primary   o point break   # range break   ^ current time\n"
        if let at {
            out += "\nAt \(seconds(at)) on the integrated timeline: "
            switch snapshot.currentPosition {
            case .primary(let time):
                out += "primary content at \(seconds(time))\n"
            case .interstitial(let eventID, let offset):
                out += "interstitial \"\(eventID)\", \(seconds(offset)) into the break"
                if let scheduled = schedule.scheduledBreak(id: eventID), let (index, assetOffset) = scheduled.asset(at: offset) {
                    out += " (asset \(index + 1) of \(scheduled.assets?.count ?? 0), \(seconds(assetOffset)) in)"
                }
                out += "\n"
            }
        }
        return out
    }

    /// Draws the transport bar of S2.11 from a snapshot: ``TransportBar``'s overview layout (no
    /// progress) with primary content as `=`, and a caret under the current time.
    static func bar(snapshot: IntegratedTimeline.Snapshot, width: Int) -> String {
        let bar = TransportBar(snapshot: snapshot)
        var text = "  [" + bar.text(columns: width, showsProgress: false) { $0 == .primary ? "=" : $0.glyph } + "]\n"
        let caret = bar.column(for: snapshot.currentTime, columns: width)
        text += "   " + String(repeating: " ", count: caret) + "^ \(TimeFormat.elapsed(snapshot.currentTime))"
        text += bar.isLive ? " (live)\n" : " / \(TimeFormat.elapsed(bar.end))\n"
        return text
    }

    static func describe(_ reason: InterstitialSchedule.ExclusionReason) -> String {
        switch reason {
        case .unmappableDate: return "its START-DATE cannot be mapped: the playlist has no EXT-X-PROGRAM-DATE-TIME"
        case .afterEnd: return "it starts after the end of the primary content"
        case .beforeStart: return "it ended before the live window starts"
        case .leaveCueOnLive: return "CUE=POST plays only after a live stream ends"
        case .playedOnce: return "CUE=ONCE and already played"
        case .skippedByResumption: return "an earlier break's resumption offset skips past it"
        case .invalid: return "invalid"
        }
    }

    static func seconds(_ time: MediaTime) -> String { time.fixedDecimalString(digits: 3) }
    static func secondsText(_ value: Double) -> String { MediaTime(seconds: value, preferredTimescale: 1000).map(seconds) ?? "\(value)" }
    static func range(_ range: MediaTimeRange) -> String { "\(seconds(range.start))–\(seconds(range.end))" }
}
