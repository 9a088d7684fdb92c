import MediaTime

// MARK: - The rules

extension PlaylistValidator.Rule {
    /// The EXT-X-DATERANGE rules (§4.4.5.1, §6.2.1).
    static let dateRangeRules: [PlaylistValidator.Rule] = [
        dateRangeIDRequired, dateRangeIDReused, dateRangeAttributeChanged, dateRangeStartDateRequired,
        dateRangeEndBeforeStart, dateRangeDurationNegative, dateRangeDurationEndDateMismatch, endOnNextRequiresClass,
        endOnNextWithEnd, endOnNextOverlap, cuePreAndPost, cueUnknownToken, clientAttributeName, clientAttributeValue,
        dateRangeUnknownAttribute, legacyXCue, dateWithoutTimeZone, programDateTimeRequired,
        attributeChangedSincePrevious, removedWhileMapped,
    ]

    /// The HLS Interstitials rules (Appendix D).
    static let interstitialRules: [PlaylistValidator.Rule] = [
        assetURIXorList, assetURINotAbsolute, interstitialClassPlural, interstitialClassMissing, playoutLimitNegative,
        playoutLimitZero, interstitialUnknownToken, interstitialUnknownValue, skipControlLabelIDCharacters,
        skipControlNotInteger,
    ]

    /// The preload date range rules (Appendix F).
    static let preloadRules: [PlaylistValidator.Rule] = [
        preloadAttributeRequired, preloadDurationRequired, preloadCueOrEndOnNext, preloadTargetClassMismatch,
        preloadIgnoredWithEndList,
    ]

    static let dateRangeIDRequired = PlaylistValidator.Rule(
        id: "daterange.id-required", severity: .error,
        summary: "every EXT-X-DATERANGE has a non-empty ID", specSection: "RFC 8216bis §4.4.5.1"
    )
    static let dateRangeIDReused = PlaylistValidator.Rule(
        id: "daterange.id-reused", severity: .error,
        summary: "an ID names one date range: a later tag with the same ID keeps its START-DATE",
        specSection: "RFC 8216bis §4.4.5.1, §6.2.1"
    )
    static let dateRangeAttributeChanged = PlaylistValidator.Rule(
        id: "daterange.attribute-changed", severity: .error,
        summary: "tags with the same ID give the same value to every attribute both carry", specSection: "RFC 8216bis §4.4.5.1"
    )
    static let dateRangeStartDateRequired = PlaylistValidator.Rule(
        id: "daterange.start-date-required", severity: .error,
        summary: "EXT-X-DATERANGE has a START-DATE unless an earlier tag with the same ID had one",
        specSection: "RFC 8216bis §4.4.5.1"
    )
    static let dateRangeEndBeforeStart = PlaylistValidator.Rule(
        id: "daterange.end-before-start", severity: .error,
        summary: "END-DATE is not before START-DATE", specSection: "RFC 8216bis §4.4.5.1"
    )
    static let dateRangeDurationNegative = PlaylistValidator.Rule(
        id: "daterange.duration-negative", severity: .error,
        summary: "DURATION and PLANNED-DURATION are not negative", specSection: "RFC 8216bis §4.4.5.1"
    )
    static let dateRangeDurationEndDateMismatch = PlaylistValidator.Rule(
        id: "daterange.duration-end-date-mismatch", severity: .error,
        summary: "with both DURATION and END-DATE, END-DATE is START-DATE plus DURATION", specSection: "RFC 8216bis §4.4.5.1"
    )
    static let endOnNextRequiresClass = PlaylistValidator.Rule(
        id: "daterange.end-on-next-requires-class", severity: .error,
        summary: "an END-ON-NEXT=YES date range has a CLASS", specSection: "RFC 8216bis §4.4.5.1"
    )
    static let endOnNextWithEnd = PlaylistValidator.Rule(
        id: "daterange.end-on-next-with-end", severity: .error,
        summary: "an END-ON-NEXT=YES date range has neither DURATION nor END-DATE", specSection: "RFC 8216bis §4.4.5.1"
    )
    static let endOnNextOverlap = PlaylistValidator.Rule(
        id: "daterange.end-on-next-overlap", severity: .error,
        summary: "date ranges of a CLASS that uses END-ON-NEXT do not overlap", specSection: "RFC 8216bis §4.4.5.1"
    )
    static let cuePreAndPost = PlaylistValidator.Rule(
        id: "daterange.cue-pre-and-post", severity: .error,
        summary: "CUE does not contain both PRE and POST", specSection: "RFC 8216bis §4.4.5.1"
    )
    static let cueUnknownToken = PlaylistValidator.Rule(
        id: "daterange.cue-unknown-token", severity: .warning,
        summary: "CUE contains only PRE, POST and ONCE (clients ignore other tokens)", specSection: "RFC 8216bis §4.4.5.1"
    )
    static let clientAttributeName = PlaylistValidator.Rule(
        id: "daterange.client-attribute-name", severity: .error,
        summary: "client attribute names are X- followed by A-Z, 0-9 and '-'", specSection: "RFC 8216bis §4.2, §4.4.5.1"
    )
    static let clientAttributeValue = PlaylistValidator.Rule(
        id: "daterange.client-attribute-value", severity: .error,
        summary: "client attribute values are quoted strings, hexadecimal sequences or signed decimal numbers",
        specSection: "RFC 8216bis §4.4.5.1"
    )
    static let dateRangeUnknownAttribute = PlaylistValidator.Rule(
        id: "daterange.unknown-attribute", severity: .warning,
        summary: "EXT-X-DATERANGE attributes are those of §4.4.5.1 or X- client attributes", specSection: "RFC 8216bis §4.4.5.1"
    )
    static let legacyXCue = PlaylistValidator.Rule(
        id: "daterange.legacy-x-cue", severity: .warning,
        summary: "the trigger attribute is CUE, not the earlier drafts' X-CUE", specSection: "RFC 8216bis §4.4.5.1"
    )
    static let dateWithoutTimeZone = PlaylistValidator.Rule(
        id: "daterange.date-without-time-zone", severity: .warning,
        summary: "START-DATE and END-DATE give a time zone", specSection: "RFC 8216bis §4.4.5.1"
    )
    static let programDateTimeRequired = PlaylistValidator.Rule(
        id: "daterange.program-date-time-required", severity: .error,
        summary: "a playlist with EXT-X-DATERANGE has at least one EXT-X-PROGRAM-DATE-TIME", specSection: "RFC 8216bis §4.4.5.1"
    )
    static let attributeChangedSincePrevious = PlaylistValidator.Rule(
        id: "daterange.attribute-changed-since-previous", severity: .error,
        summary: "a date range keeps every attribute and value across reloads; later tags may only add attributes",
        specSection: "RFC 8216bis §4.4.5.1, §4.4.5.1.1"
    )
    static let removedWhileMapped = PlaylistValidator.Rule(
        id: "daterange.removed-while-mapped", severity: .error,
        summary: "a date range stays in the playlist while any of its dates maps to a segment of the playlist",
        specSection: "RFC 8216bis §6.2.1"
    )

    static let assetURIXorList = PlaylistValidator.Rule(
        id: "interstitial.asset-uri-xor-list", severity: .error,
        summary: "an interstitial has exactly one of X-ASSET-URI and X-ASSET-LIST", specSection: "RFC 8216bis Appendix D.2"
    )
    static let assetURINotAbsolute = PlaylistValidator.Rule(
        id: "interstitial.asset-uri-not-absolute", severity: .warning,
        summary: "X-ASSET-URI is an absolute URI", specSection: "RFC 8216bis Appendix D.2"
    )
    static let interstitialClassPlural = PlaylistValidator.Rule(
        id: "interstitial.class-plural", severity: .warning,
        summary: "the interstitial CLASS is \"com.apple.hls.interstitial\" (singular)", specSection: "RFC 8216bis Appendix D.2"
    )
    static let interstitialClassMissing = PlaylistValidator.Rule(
        id: "interstitial.class-missing", severity: .warning,
        summary: "a date range with X-ASSET-URI or X-ASSET-LIST has CLASS=\"com.apple.hls.interstitial\"",
        specSection: "RFC 8216bis Appendix D.2"
    )
    static let playoutLimitNegative = PlaylistValidator.Rule(
        id: "interstitial.playout-limit-negative", severity: .error,
        summary: "X-PLAYOUT-LIMIT is a non-negative number of seconds", specSection: "RFC 8216bis Appendix D.2"
    )
    static let playoutLimitZero = PlaylistValidator.Rule(
        id: "interstitial.playout-limit-zero", severity: .warning,
        summary: "X-PLAYOUT-LIMIT is positive (zero ends the interstitial before it plays)",
        specSection: "RFC 8216bis Appendix D.2"
    )
    static let interstitialUnknownToken = PlaylistValidator.Rule(
        id: "interstitial.unknown-token", severity: .warning,
        summary: "X-SNAP contains only OUT and IN, X-RESTRICT only SKIP and JUMP (clients ignore other tokens)",
        specSection: "RFC 8216bis Appendix D.2"
    )
    static let interstitialUnknownValue = PlaylistValidator.Rule(
        id: "interstitial.unknown-value", severity: .warning,
        summary: "X-TIMELINE-OCCUPIES, X-TIMELINE-STYLE and X-CONTENT-MAY-VARY have a defined value (others count as absent)",
        specSection: "RFC 8216bis Appendix D.2"
    )
    static let skipControlLabelIDCharacters = PlaylistValidator.Rule(
        id: "interstitial.skip-control-label-id-characters", severity: .error,
        summary: "X-SKIP-CONTROL-LABEL-ID uses only a-z, A-Z, '-' and '_'", specSection: "RFC 8216bis Appendix D.3"
    )
    static let skipControlNotInteger = PlaylistValidator.Rule(
        id: "interstitial.skip-control-not-integer", severity: .error,
        summary: "X-SKIP-CONTROL-OFFSET and X-SKIP-CONTROL-DURATION are decimal integers", specSection: "RFC 8216bis Appendix D.3"
    )

    static let preloadAttributeRequired = PlaylistValidator.Rule(
        id: "preload.attribute-required", severity: .error,
        summary: "a preload date range has X-URI, X-TARGET-ID and X-TARGET-CLASS", specSection: "RFC 8216bis Appendix F"
    )
    static let preloadDurationRequired = PlaylistValidator.Rule(
        id: "preload.duration-required", severity: .error,
        summary: "a preload date range has DURATION or END-DATE", specSection: "RFC 8216bis Appendix F"
    )
    static let preloadCueOrEndOnNext = PlaylistValidator.Rule(
        id: "preload.cue-or-end-on-next", severity: .error,
        summary: "a preload date range has neither CUE nor END-ON-NEXT", specSection: "RFC 8216bis Appendix F"
    )
    static let preloadTargetClassMismatch = PlaylistValidator.Rule(
        id: "preload.target-class-mismatch", severity: .warning,
        summary: "X-TARGET-CLASS is the CLASS of the date range X-TARGET-ID names", specSection: "RFC 8216bis Appendix F"
    )
    static let preloadIgnoredWithEndList = PlaylistValidator.Rule(
        id: "preload.ignored-with-endlist", severity: .note,
        summary: "clients ignore preload date ranges in a playlist with EXT-X-ENDLIST", specSection: "RFC 8216bis Appendix D.2"
    )
}

extension PlaylistValidator {
    /// Rules that can explain why the parser skipped a tag (see ``validate(_:options:previous:)``).
    static let skippedTagRuleIDs: Set<String> = [
        Rule.dateRangeIDRequired.id, Rule.dateRangeDurationNegative.id, Rule.playoutLimitNegative.id,
        Rule.skipControlNotInteger.id,
    ]

    /// The misspelled interstitial class some packagers write.
    static let pluralInterstitialClass = "com.apple.hls.interstitials"
}

// MARK: - The checks

extension MediaContext {
    mutating func checkDateRangeRules() {
        let tags = playlist.dateRanges
        let tagLines: [Int?]
        if let positions = source?.positions, positions.dateRanges.count == tags.count {
            tagLines = positions.dateRanges.map { Int($0) }
        } else {
            tagLines = Array(repeating: nil, count: tags.count)
        }
        var merged: [String: DateRange] = [:]
        var mergers: [String: DateRangeMerger] = [:]
        var firstLines: [String: Int?] = [:]
        var order: [String] = []
        var reported = Set<String>()
        for (index, tag) in tags.enumerated() {
            let line = tagLines[index]
            let earlier = mergers[tag.id]?.typedRange ?? merged[tag.id]
            if tag.id.isEmpty {
                findings.report(
                    .dateRangeIDRequired, line: line, attribute: "ID",
                    "EXT-X-DATERANGE has an empty ID; give every date range a unique ID=\"…\""
                )
            }
            if tag.startDate == nil, earlier?.startDate == nil {
                findings.report(
                    .dateRangeStartDateRequired, line: line,
                    "EXT-X-DATERANGE ID=\(PlaylistValidator.quoted(tag.id)) has no START-DATE and no earlier tag with that ID "
                        + "gives one; add START-DATE=\"<ISO 8601 date>\""
                )
            }
            var current = tag
            if let earlier {
                // Merged in place, so that many tags with one ID cost time linear in their attributes;
                // a conflicting attribute keeps its earlier value, as in `consolidatedDateRanges`.
                if mergers[tag.id] == nil, earlier == tag {
                    current = earlier
                } else {
                    let names = mergers[tag.id, default: DateRangeMerger(earlier)].add(tag)
                    if let merger = mergers[tag.id] {
                        let later = DateRangeMerger(tag)
                        for name in names {
                            reportConflict(
                                DateRangeConflict(id: tag.id, attribute: name, earlierValue: merger.earlierText(of: name) ?? "",
                                                  laterValue: later.earlierText(of: name) ?? ""),
                                line: line
                            )
                        }
                        current = merger.typedRange
                    }
                }
            } else {
                order.append(tag.id)
                firstLines[tag.id] = line
                merged[tag.id] = tag
            }
            checkValues(of: tag, className: current.className, line: line)
            checkContradictions(in: current, line: line, reported: &reported)
        }
        for (id, merger) in mergers { merged[id] = merger.range }
        let consolidated = order.compactMap { merged[$0] }
        for range in consolidated {
            checkCompleteness(of: range, line: firstLines[range.id] ?? nil, all: merged)
        }
        checkEndOnNextOverlaps(consolidated, lines: firstLines)
        if let first = tags.first, !playlist.segments.contains(where: { $0.programDateTime != nil }) {
            findings.report(
                .programDateTimeRequired, line: tagLines[0],
                "the playlist has EXT-X-DATERANGE tags (ID=\(PlaylistValidator.quoted(first.id))) but no EXT-X-PROGRAM-DATE-TIME, "
                    + "so their dates map to no segment; add #EXT-X-PROGRAM-DATE-TIME before the first segment"
            )
        }
        checkSkippedDateRangeTags()
        checkAgainstPrevious(consolidated, lines: firstLines)
    }

    private mutating func reportConflict(_ conflict: DateRangeConflict, line: Int?) {
        if conflict.attribute == "START-DATE" {
            findings.report(
                .dateRangeIDReused, line: line, attribute: "ID",
                "ID=\(PlaylistValidator.quoted(conflict.id)) already names a date range starting at \(conflict.earlierValue); "
                    + "this tag starts at \(conflict.laterValue), so it is a new date range and needs a new ID"
            )
        } else {
            findings.report(
                .dateRangeAttributeChanged, line: line, attribute: conflict.attribute,
                "\(conflict.description); keep \(conflict.attribute)=\(conflict.earlierValue) or drop it from this tag"
            )
        }
    }

    // MARK: One tag

    /// Checks the attributes one tag writes; `className` is the consolidated range's class.
    private mutating func checkValues(of tag: DateRange, className: String?, line: Int?) {
        let id = PlaylistValidator.quoted(tag.id)
        if let cue = tag.cue {
            if cue.contains(.pre), cue.contains(.post) {
                findings.report(
                    .cuePreAndPost, line: line, attribute: "CUE",
                    "EXT-X-DATERANGE ID=\(id) has CUE=\"\(cue.map(\.rawValue).joined(separator: ","))\"; PRE and POST exclude "
                        + "each other, so keep one of them"
                )
            }
            let unknown = cue.filter { !$0.isKnown }.map(\.rawValue)
            if !unknown.isEmpty {
                findings.report(
                    .cueUnknownToken, line: line, attribute: "CUE",
                    "CUE of ID=\(id) contains \(unknown.map(PlaylistValidator.quoted).joined(separator: ", ")), which clients ignore; "
                        + "the triggers are PRE, POST and ONCE"
                )
            }
        }
        for attribute in tag.clientAttributes {
            if !Self.isLegalClientAttributeName(attribute.name) {
                findings.report(
                    .clientAttributeName, line: line,
                    "client attribute name \(PlaylistValidator.quoted(attribute.name)) of ID=\(id) is not X- followed by "
                        + "A-Z, 0-9 and '-'; rename it, for example X-COM-EXAMPLE-AD-ID"
                )
            }
            if case .enumerated(let text) = attribute.value {
                findings.report(
                    .clientAttributeValue, line: line, attribute: attribute.name,
                    "\(attribute.name)=\(text) of ID=\(id) is neither a quoted string, a hexadecimal sequence nor a number; "
                        + "quote it: \(attribute.name)=\"\(text)\""
                )
            }
        }
        if !tag.unknownAttributes.isEmpty {
            let names = tag.unknownAttributes.map(\.name)
            findings.report(
                .dateRangeUnknownAttribute, line: line, attribute: names[0],
                "EXT-X-DATERANGE ID=\(id) has \(names.joined(separator: ", ")), not an attribute of EXT-X-DATERANGE; "
                    + "prefix private attributes with X- (for example X-\(names[0]))"
            )
        }
        if let line, let source, source.attributes(atLine: line).contains(where: { $0.name == "X-CUE" }) {
            findings.report(
                .legacyXCue, line: line, attribute: "X-CUE",
                "ID=\(id) uses X-CUE, the name of earlier drafts; rename it to CUE"
            )
        }
        for (name, date) in [("START-DATE", tag.startDate), ("END-DATE", tag.endDate)] {
            if let date, date.timeZoneOffsetSeconds == nil {
                findings.report(
                    .dateWithoutTimeZone, line: line, attribute: name,
                    "\(name) of ID=\(id) has no time zone; clients assume UTC, so write it explicitly, for example "
                        + "\(name)=\"\(date.iso8601String)\""
                )
            }
        }
        for (name, duration) in [("DURATION", tag.duration), ("PLANNED-DURATION", tag.plannedDuration)] {
            if let duration, duration.isNegative {
                findings.report(
                    .dateRangeDurationNegative, line: line, attribute: name,
                    "\(name)=\(duration) of ID=\(id) is negative; a duration is zero or more seconds"
                )
            }
        }
        if tag.className == PlaylistValidator.pluralInterstitialClass {
            findings.report(
                .interstitialClassPlural, line: line, attribute: "CLASS",
                "CLASS=\"\(PlaylistValidator.pluralInterstitialClass)\" of ID=\(id) is not the interstitial class, so players "
                    + "ignore the break; write CLASS=\"\(DateRange.interstitialClass)\" (singular)"
            )
        }
        if className == DateRange.interstitialClass {
            checkInterstitialValues(of: tag, line: line)
        }
    }

    static func isLegalClientAttributeName(_ name: String) -> Bool {
        name.hasPrefix("X-") && name.utf8.count > 2
            && name.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
    }

    private mutating func checkInterstitialValues(of tag: DateRange, line: Int?) {
        let id = PlaylistValidator.quoted(tag.id)
        if let uri = tag.assetURI, !PlaylistValidator.isAbsoluteURI(uri) {
            findings.report(
                .assetURINotAbsolute, line: line, attribute: "X-ASSET-URI",
                "X-ASSET-URI=\"\(uri)\" of interstitial \(id) is relative; write an absolute URI (https://…) so every "
                    + "playlist of the presentation resolves it alike"
            )
        }
        if let limit = tag.playoutLimit {
            if limit.isNegative {
                findings.report(
                    .playoutLimitNegative, line: line, attribute: "X-PLAYOUT-LIMIT",
                    "X-PLAYOUT-LIMIT=\(limit) of interstitial \(id) is negative; give the most seconds the break may play"
                )
            } else if limit.isZero {
                findings.report(
                    .playoutLimitZero, line: line, attribute: "X-PLAYOUT-LIMIT",
                    "X-PLAYOUT-LIMIT=0 of interstitial \(id) ends the break before it plays; remove it or give the seconds to play"
                )
            }
        }
        let snap = (tag.snap ?? []).filter { !$0.isKnown }.map(\.rawValue)
        if !snap.isEmpty {
            findings.report(
                .interstitialUnknownToken, line: line, attribute: "X-SNAP",
                "X-SNAP of interstitial \(id) contains \(snap.map(PlaylistValidator.quoted).joined(separator: ", ")), which clients "
                    + "ignore; the tokens are OUT and IN"
            )
        }
        let restrict = (tag.restrict ?? []).filter { !$0.isKnown }.map(\.rawValue)
        if !restrict.isEmpty {
            findings.report(
                .interstitialUnknownToken, line: line, attribute: "X-RESTRICT",
                "X-RESTRICT of interstitial \(id) contains \(restrict.map(PlaylistValidator.quoted).joined(separator: ", ")), "
                    + "which clients ignore; the tokens are SKIP and JUMP"
            )
        }
        let values: [(String, String?, Bool, String)] = [
            ("X-TIMELINE-OCCUPIES", tag.timelineOccupies?.rawValue, tag.timelineOccupies?.isKnown ?? true, "\"POINT\" or \"RANGE\""),
            ("X-TIMELINE-STYLE", tag.timelineStyle?.rawValue, tag.timelineStyle?.isKnown ?? true, "\"HIGHLIGHT\" or \"PRIMARY\""),
            ("X-CONTENT-MAY-VARY", tag.contentMayVary?.rawValue, tag.contentMayVary?.boolValue != nil || tag.contentMayVary == nil,
             "\"YES\" or \"NO\""),
        ]
        for (name, value, isKnown, expected) in values where !isKnown {
            findings.report(
                .interstitialUnknownValue, line: line, attribute: name,
                "\(name)=\"\(value ?? "")\" of interstitial \(id) is not a defined value, so clients treat it as absent; "
                    + "write \(expected)"
            )
        }
        if let label = tag.skipControlLabelID, !Self.isLegalLabelID(label) {
            let words = label.split { !Self.isLegalLabelID(String($0)) }
            let suggestion = words.isEmpty ? "Skip-Label" : words.joined(separator: "-")
            findings.report(
                .skipControlLabelIDCharacters, line: line, attribute: "X-SKIP-CONTROL-LABEL-ID",
                "X-SKIP-CONTROL-LABEL-ID=\"\(label)\" of interstitial \(id) may contain only a-z, A-Z, '-' and '_'; "
                    + "for example \"\(suggestion)\""
            )
        }
        for (name, value) in [("X-SKIP-CONTROL-OFFSET", tag.skipControlOffset), ("X-SKIP-CONTROL-DURATION", tag.skipControlDuration)] {
            guard let value else { continue }
            let written = line.flatMap { source?.attributes(atLine: $0).first { $0.name == name }?.value }
            let isInteger = written.map(Self.isDecimalInteger) ?? PlaylistValidator.isWholeSeconds(value)
            if !isInteger {
                reportSkipControlNotInteger(name, written: written ?? value.description, id: tag.id, line: line)
            }
        }
    }

    private mutating func reportSkipControlNotInteger(_ name: String, written: String, id: String, line: Int?) {
        findings.report(
            .skipControlNotInteger, line: line, attribute: name,
            "\(name)=\(written) of interstitial \(PlaylistValidator.quoted(id)) must be a decimal integer of seconds, "
                + "for example \(name)=\(max(0, Int(Double(written) ?? 0)))"
        )
    }

    static func isLegalLabelID(_ label: String) -> Bool {
        label.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x5F }
    }

    static func isDecimalInteger(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 18 && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    // MARK: One date range, consolidated

    /// Checks attributes that contradict each other, once per date range, at the tag that brought
    /// in the contradiction.
    private mutating func checkContradictions(in range: DateRange, line: Int?, reported: inout Set<String>) {
        let id = PlaylistValidator.quoted(range.id)
        func first(_ rule: PlaylistValidator.Rule) -> Bool { reported.insert(range.id + "\u{0}" + rule.id).inserted }
        if let start = range.startDate, let end = range.endDate, end < start, first(.dateRangeEndBeforeStart) {
            findings.report(
                .dateRangeEndBeforeStart, line: line, attribute: "END-DATE",
                "END-DATE \(end) of ID=\(id) is before its START-DATE \(start); END-DATE must be at or after START-DATE"
            )
        }
        if let start = range.startDate, let end = range.endDate, let duration = range.duration, !duration.isNegative,
            end.timeIntervalSince(start) != duration, first(.dateRangeDurationEndDateMismatch)
        {
            findings.report(
                .dateRangeDurationEndDateMismatch, line: line,
                "ID=\(id) has DURATION=\(duration) but END-DATE − START-DATE = \(end.timeIntervalSince(start)); "
                    + "make END-DATE \(start.adding(duration)) or drop one of them"
            )
        }
        if range.endOnNext == true, range.duration != nil || range.endDate != nil, first(.endOnNextWithEnd) {
            let names = [range.duration != nil ? "DURATION" : nil, range.endDate != nil ? "END-DATE" : nil].compactMap { $0 }
            findings.report(
                .endOnNextWithEnd, line: line, attribute: "END-ON-NEXT",
                "ID=\(id) has END-ON-NEXT=YES and \(names.joined(separator: " and ")); END-ON-NEXT ends the range at the next "
                    + "range of its class, so remove \(names.joined(separator: " and ")) or END-ON-NEXT"
            )
        }
        if range.isInterstitial, let uri = range.assetURI, let list = range.assetList, first(.assetURIXorList) {
            findings.report(
                .assetURIXorList, line: line,
                "interstitial \(id) has both X-ASSET-URI=\"\(uri)\" and X-ASSET-LIST=\"\(list)\"; keep exactly one"
            )
        }
        if range.className == DateRange.preloadClass, range.cue != nil || range.endOnNext == true, first(.preloadCueOrEndOnNext) {
            let name = range.cue != nil ? "CUE" : "END-ON-NEXT"
            findings.report(
                .preloadCueOrEndOnNext, line: line, attribute: name,
                "preload date range \(id) has \(name); a preload range must not have CUE or END-ON-NEXT, so remove it"
            )
        }
    }

    /// Checks what the consolidated date range must have, at its first tag.
    private mutating func checkCompleteness(of range: DateRange, line: Int?, all: [String: DateRange]) {
        let id = PlaylistValidator.quoted(range.id)
        if range.endOnNext == true, range.className == nil {
            findings.report(
                .endOnNextRequiresClass, line: line, attribute: "END-ON-NEXT",
                "ID=\(id) has END-ON-NEXT=YES but no CLASS; the range ends where the next range of its CLASS starts, so add CLASS=\"…\""
            )
        }
        if range.isInterstitial, range.assetURI == nil, range.assetList == nil {
            findings.report(
                .assetURIXorList, line: line,
                "interstitial \(id) has neither X-ASSET-URI nor X-ASSET-LIST; add X-ASSET-URI=\"<absolute URI of the asset>\" "
                    + "or X-ASSET-LIST=\"<URI of the asset list>\""
            )
        }
        if !range.isInterstitial, range.className != PlaylistValidator.pluralInterstitialClass,
            range.assetURI != nil || range.assetList != nil
        {
            let found = range.className.map { "CLASS=\"\($0)\"" } ?? "no CLASS"
            findings.report(
                .interstitialClassMissing, line: line,
                "ID=\(id) has \(range.assetURI != nil ? "X-ASSET-URI" : "X-ASSET-LIST") but \(found), so players do not treat "
                    + "it as an interstitial; add CLASS=\"\(DateRange.interstitialClass)\""
            )
        }
        guard range.className == DateRange.preloadClass else { return }
        let missing = [
            range.preloadURI == nil ? "X-URI" : nil, range.preloadTargetID == nil ? "X-TARGET-ID" : nil,
            range.preloadTargetClass == nil ? "X-TARGET-CLASS" : nil,
        ].compactMap { $0 }
        if !missing.isEmpty {
            findings.report(
                .preloadAttributeRequired, line: line,
                "preload date range \(id) lacks \(missing.joined(separator: ", ")); a preload range names the resource (X-URI) "
                    + "and the date range it is for (X-TARGET-ID, X-TARGET-CLASS)"
            )
        }
        if range.duration == nil, range.endDate == nil {
            findings.report(
                .preloadDurationRequired, line: line,
                "preload date range \(id) has neither DURATION nor END-DATE; add DURATION=<seconds during which to preload>"
            )
        }
        if let targetID = range.preloadTargetID, let targetClass = range.preloadTargetClass, let target = all[targetID],
            target.className != targetClass
        {
            findings.report(
                .preloadTargetClassMismatch, line: line, attribute: "X-TARGET-CLASS",
                "preload date range \(id) has X-TARGET-CLASS=\"\(targetClass)\" but its target ID=\"\(targetID)\" has "
                    + "\(target.className.map { "CLASS=\"\($0)\"" } ?? "no CLASS"); clients will not use the preload, so match them"
            )
        }
        if playlist.hasEndList {
            findings.report(
                .preloadIgnoredWithEndList, line: line,
                "preload date range \(id) is in a playlist with EXT-X-ENDLIST, where clients ignore preload ranges"
            )
        }
    }

    // MARK: Several date ranges

    private mutating func checkEndOnNextOverlaps(_ ranges: [DateRange], lines: [String: Int?]) {
        var classes: [String] = []
        for range in ranges where range.endOnNext == true {
            if let className = range.className, !classes.contains(className) { classes.append(className) }
        }
        for className in classes {
            let members = ranges.enumerated()
                .filter { $0.element.className == className && $0.element.startDate != nil }
                .sorted { ($0.element.startDate!, $0.offset) < ($1.element.startDate!, $1.offset) }
                .map(\.element)
            var previous: DateRange?
            var reach: (end: PlaylistDate, id: String)?
            for range in members {
                let start = range.startDate!
                if let previous, previous.startDate == start {
                    reportOverlap(range, with: previous.id, until: nil, className: className, line: lines[range.id] ?? nil)
                } else if let reach, reach.end > start {
                    reportOverlap(range, with: reach.id, until: reach.end, className: className, line: lines[range.id] ?? nil)
                }
                // An END-ON-NEXT range ends where the next one starts; others end where they say.
                if range.endOnNext != true, let end = range.resolvedEndDate, reach.map({ end > $0.end }) ?? true {
                    reach = (end, range.id)
                }
                previous = range
            }
        }
    }

    private mutating func reportOverlap(_ range: DateRange, with other: String, until end: PlaylistDate?, className: String, line: Int?) {
        let extent = end.map { "which lasts until \($0)" } ?? "which starts at the same date"
        findings.report(
            .endOnNextOverlap, line: line, attribute: "START-DATE",
            "ID=\(PlaylistValidator.quoted(range.id)) of CLASS=\"\(className)\" starts at \(range.startDate!), inside "
                + "ID=\(PlaylistValidator.quoted(other)) \(extent); ranges of a class that uses END-ON-NEXT must not overlap"
        )
    }

    /// Date range tags the parser skipped, checked for the rules that explain why.
    private mutating func checkSkippedDateRangeTags() {
        guard let source else { return }
        // A tag the lenient parser kept with a malformed attribute left out (a tolerant reader's
        // repair) is checked like a skipped one, for the attributes its model lacks.
        var accepted: [Int: DateRange] = [:]
        let tags = playlist.dateRanges
        if source.positions.dateRanges.count == tags.count {
            for (line, tag) in zip(source.positions.dateRanges, tags) { accepted[Int(line)] = tag }
        }
        for line in source.lines(ofTag: "EXT-X-DATERANGE") {
            let kept = accepted[line]
            if let kept, kept.duration != nil, kept.plannedDuration != nil, kept.playoutLimit != nil,
                kept.skipControlOffset != nil, kept.skipControlDuration != nil
            {
                continue
            }
            let attributes = source.attributes(atLine: line)
            func value(_ name: String) -> String? {
                // What the model kept was checked with the typed rules.
                if let kept {
                    switch name {
                    case "ID": return "\"\(kept.id)\""
                    case "DURATION" where kept.duration != nil, "PLANNED-DURATION" where kept.plannedDuration != nil,
                        "X-PLAYOUT-LIMIT" where kept.playoutLimit != nil, "X-SKIP-CONTROL-OFFSET" where kept.skipControlOffset != nil,
                        "X-SKIP-CONTROL-DURATION" where kept.skipControlDuration != nil:
                        return nil
                    default: break
                    }
                }
                return attributes.first { $0.name == name }?.value
            }
            let id = value("ID").map { "ID=\($0)" } ?? "the EXT-X-DATERANGE"
            if value("ID") == nil {
                findings.report(.dateRangeIDRequired, line: line, "EXT-X-DATERANGE has no ID; add a unique ID=\"…\"")
            }
            for name in ["DURATION", "PLANNED-DURATION"] {
                if let written = value(name), written.hasPrefix("-") {
                    findings.report(
                        .dateRangeDurationNegative, line: line, attribute: name,
                        "\(name)=\(written) of \(id) is negative; a duration is zero or more seconds"
                    )
                }
            }
            if let written = value("X-PLAYOUT-LIMIT"), written.hasPrefix("-") {
                findings.report(
                    .playoutLimitNegative, line: line, attribute: "X-PLAYOUT-LIMIT",
                    "X-PLAYOUT-LIMIT=\(written) of \(id) is negative; give the most seconds the break may play"
                )
            }
            for name in ["X-SKIP-CONTROL-OFFSET", "X-SKIP-CONTROL-DURATION"] {
                if let written = value(name), !Self.isDecimalInteger(written) {
                    reportSkipControlNotInteger(name, written: written, id: value("ID")?.withoutQuotes ?? "", line: line)
                }
            }
        }
    }

    // MARK: Reloads

    private mutating func checkAgainstPrevious(_ ranges: [DateRange], lines: [String: Int?]) {
        guard let previous else { return }
        let earlier = previous.consolidatedDateRanges
        let earlierByID = Dictionary(earlier.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for range in ranges {
            guard let before = earlierByID[range.id] else { continue }
            let line = lines[range.id] ?? nil
            do {
                _ = try before.merging(range)
            } catch {
                findings.report(
                    .attributeChangedSincePrevious, line: line, attribute: error.attribute,
                    "ID=\(PlaylistValidator.quoted(range.id)) had \(error.attribute)=\(error.earlierValue) in the previous playlist "
                        + "and now has \(error.laterValue); a date range keeps its attributes across reloads, so use a new ID "
                        + "for a new range"
                )
                continue
            }
            // A delta update may skip the tag that added an attribute; a whole playlist may not.
            guard playlist.skip == nil else { continue }
            let names = Set(range.attributes.map(\.name))
            let lost = before.attributes.map(\.name).filter { !names.contains($0) }
            if !lost.isEmpty {
                findings.report(
                    .attributeChangedSincePrevious, line: line,
                    "ID=\(PlaylistValidator.quoted(range.id)) lost \(lost.joined(separator: ", ")) since the previous playlist; "
                        + "keep every EXT-X-DATERANGE tag of the range until the range leaves the playlist"
                )
            }
        }
        checkRemovedDateRanges(earlier)
    }

    private mutating func checkRemovedDateRanges(_ earlier: [DateRange]) {
        let present = Set(playlist.dateRanges.map(\.id))
        // A delta update that skips date ranges lists the ones removed; the others may be skipped.
        let listed = playlist.skip?.recentlyRemovedDateRanges.map(Set.init)
        let dates = playlist.programDateTimes()
        let segments = playlist.segments
        for range in earlier where !present.contains(range.id) {
            if let listed, !listed.contains(range.id) { continue }
            guard let start = range.startDate else { continue }
            var end: PlaylistDate?
            if let resolved = range.resolvedEndDate {
                end = resolved
            } else if range.endOnNext == true {
                end = earlier.filter { $0.className == range.className && ($0.startDate.map { $0 > start } ?? false) }
                    .compactMap(\.startDate).min()
            } else {
                end = start.adding(range.plannedDuration ?? .zero)
            }
            for (index, segment) in segments.enumerated() {
                guard let date = dates[index] else { continue }
                let segmentEnd = date.adding(segment.duration)
                guard segmentEnd > start, end.map({ date <= $0 }) ?? true else { continue }
                findings.report(
                    .removedWhileMapped, line: source?.segmentLine(index),
                    "EXT-X-DATERANGE ID=\(PlaylistValidator.quoted(range.id)) (from \(start)"
                        + (end.map { " to \($0)" } ?? "") + ") was removed since the previous playlist, but its dates still map "
                        + "to segment \(PlaylistValidator.quoted(segment.uri)) (\(date)); keep the tag until no segment of the "
                        + "playlist falls inside the range"
                )
                break
            }
        }
    }
}

extension String {
    /// The text without one pair of surrounding double quotes.
    fileprivate var withoutQuotes: String {
        hasPrefix("\"") && hasSuffix("\"") && count >= 2 ? String(dropFirst().dropLast()) : self
    }
}
