import MediaTime

extension DateRange {
    /// Reads a date range from its attribute list, enforcing each attribute's value type.
    ///
    /// Only `ID` is required here: START-DATE may come from an earlier tag with the same ID, which
    /// the parser and the validator check at playlist level.
    public init(attributes: [Attribute]) throws(AttributeError) {
        // One pass with a switch on the name: a 24-hour DVR playlist has thousands of these.
        self.init(id: "")
        var sawID = false
        var legacyCue: [Cue]?
        for attribute in attributes {
            let name = attribute.name
            let value = attribute.value
            switch name {
            case "ID":
                id = try AttributeReader.quotedString(name, value)
                sawID = true
            case "CLASS": className = try AttributeReader.quotedString(name, value)
            case "START-DATE": startDate = try AttributeReader.date(name, value)
            case "CUE": cue = AttributeReader.splitList(try AttributeReader.quotedString(name, value)).map(Cue.init(rawValue:))
            case "X-CUE":
                // The attribute was named X-CUE in earlier drafts; players still honour it.
                if case .quotedString(let text) = value {
                    legacyCue = AttributeReader.splitList(text).map(Cue.init(rawValue:))
                }
                clientAttributes.append(attribute)
            case "END-DATE": endDate = try AttributeReader.date(name, value)
            case "DURATION": duration = try AttributeReader.decimalTime(name, value, signed: false)
            case "PLANNED-DURATION": plannedDuration = try AttributeReader.decimalTime(name, value, signed: false)
            case "END-ON-NEXT":
                guard case .enumerated("YES") = value else {
                    throw AttributeError(name: name, reason: "must be YES, found \(value.playlistText)")
                }
                endOnNext = true
            case "SCTE35-CMD": scte35Command = try AttributeReader.hexadecimal(name, value)
            case "SCTE35-OUT": scte35Out = try AttributeReader.hexadecimal(name, value)
            case "SCTE35-IN": scte35In = try AttributeReader.hexadecimal(name, value)
            case "X-ASSET-URI": assetURI = try AttributeReader.quotedString(name, value)
            case "X-ASSET-LIST": assetList = try AttributeReader.quotedString(name, value)
            case "X-RESUME-OFFSET": resumeOffset = try AttributeReader.decimalTime(name, value, signed: true)
            case "X-PLAYOUT-LIMIT": playoutLimit = try AttributeReader.decimalTime(name, value, signed: false)
            case "X-SNAP": snap = AttributeReader.splitList(try AttributeReader.quotedString(name, value)).map(Snap.init(rawValue:))
            case "X-RESTRICT":
                restrict = AttributeReader.splitList(try AttributeReader.quotedString(name, value)).map(Restriction.init(rawValue:))
            case "X-TIMELINE-OCCUPIES": timelineOccupies = TimelineOccupancy(rawValue: try AttributeReader.quotedString(name, value))
            case "X-TIMELINE-STYLE": timelineStyle = TimelineStyle(rawValue: try AttributeReader.quotedString(name, value))
            case "X-CONTENT-MAY-VARY": contentMayVary = YesNo(rawValue: try AttributeReader.quotedString(name, value))
            case "X-SKIP-CONTROL-OFFSET": skipControlOffset = try AttributeReader.decimalTime(name, value, signed: false)
            case "X-SKIP-CONTROL-DURATION": skipControlDuration = try AttributeReader.decimalTime(name, value, signed: false)
            case "X-SKIP-CONTROL-LABEL-ID": skipControlLabelID = try AttributeReader.quotedString(name, value)
            case "X-URI": preloadURI = try AttributeReader.quotedString(name, value)
            case "X-TARGET-ID": preloadTargetID = try AttributeReader.quotedString(name, value)
            case "X-TARGET-CLASS": preloadTargetClass = try AttributeReader.quotedString(name, value)
            default:
                if name.utf8.starts(with: "X-".utf8) {
                    clientAttributes.append(attribute)
                } else {
                    unknownAttributes.append(attribute)
                }
            }
        }
        guard sawID else { throw AttributeError(name: "ID", reason: "is required", isMissing: true) }
        if cue == nil, let legacyCue {
            cue = legacyCue
            clientAttributes.removeAll { $0.name == "X-CUE" }
        }
    }

    /// The attribute list in canonical order: the base attributes of §4.4.5.1, the interstitial
    /// attributes of Appendix D, then client and unknown attributes as they were.
    public var attributes: [Attribute] {
        var writer = AttributeWriter()
        writer.quoted("ID", id)
        writer.quoted("CLASS", className)
        writer.date("START-DATE", startDate)
        writer.list("CUE", cue?.map(\.rawValue))
        writer.date("END-DATE", endDate)
        writer.time("DURATION", duration)
        writer.time("PLANNED-DURATION", plannedDuration)
        if endOnNext == true { writer.enumerated("END-ON-NEXT", "YES") }
        writer.hexadecimal("SCTE35-CMD", scte35Command)
        writer.hexadecimal("SCTE35-OUT", scte35Out)
        writer.hexadecimal("SCTE35-IN", scte35In)
        writer.quoted("X-ASSET-URI", assetURI)
        writer.quoted("X-ASSET-LIST", assetList)
        writer.time("X-RESUME-OFFSET", resumeOffset)
        writer.time("X-PLAYOUT-LIMIT", playoutLimit)
        writer.list("X-SNAP", snap?.map(\.rawValue))
        writer.list("X-RESTRICT", restrict?.map(\.rawValue))
        writer.quoted("X-TIMELINE-OCCUPIES", timelineOccupies?.rawValue)
        writer.quoted("X-TIMELINE-STYLE", timelineStyle?.rawValue)
        writer.quoted("X-CONTENT-MAY-VARY", contentMayVary?.rawValue)
        writer.time("X-SKIP-CONTROL-OFFSET", skipControlOffset)
        writer.time("X-SKIP-CONTROL-DURATION", skipControlDuration)
        writer.quoted("X-SKIP-CONTROL-LABEL-ID", skipControlLabelID)
        writer.quoted("X-URI", preloadURI)
        writer.quoted("X-TARGET-ID", preloadTargetID)
        writer.quoted("X-TARGET-CLASS", preloadTargetClass)
        writer.append(contentsOf: clientAttributes)
        writer.append(contentsOf: unknownAttributes)
        return writer.attributes
    }
}

/// Two EXT-X-DATERANGE tags with the same ID disagree on an attribute both carry (RFC 8216bis
/// §4.4.5.1: "any AttributeName that appears in both tags MUST have the same AttributeValue").
public struct DateRangeConflict: Error, Sendable, Hashable, CustomStringConvertible {
    /// The date range's ID.
    public var id: String
    /// The attribute whose value changed.
    public var attribute: String
    /// The value in the earlier tag, as written.
    public var earlierValue: String
    /// The value in the later tag, as written.
    public var laterValue: String

    /// A readable explanation.
    public var description: String {
        "EXT-X-DATERANGE ID=\"\(id)\" changes \(attribute) from \(earlierValue) to \(laterValue); "
            + "a later tag with the same ID may add attributes but not change them"
    }
}

extension DateRange {
    /// Consolidates a later tag with the same ID into this one: attributes only the later tag has
    /// are added; an attribute both have must be equal.
    ///
    /// Values are compared by meaning (`DURATION=15` equals `DURATION=15.000`; dates compare as
    /// instants).
    ///
    /// - Throws: ``DateRangeConflict`` naming the first attribute whose value differs.
    /// - Complexity: O(a²) in the number of attributes, which is small.
    public func merging(_ later: DateRange) throws(DateRangeConflict) -> DateRange {
        precondition(later.id == id, "merging date ranges with different IDs")
        if later == self { return self }
        let earlierAttributes = attributes
        var merged = earlierAttributes
        for attribute in later.attributes {
            if let existing = earlierAttributes.first(where: { $0.name == attribute.name }) {
                if !Self.sameValue(existing, attribute) {
                    throw DateRangeConflict(
                        id: id,
                        attribute: attribute.name,
                        earlierValue: existing.value.playlistText,
                        laterValue: attribute.value.playlistText
                    )
                }
            } else {
                merged.append(attribute)
            }
        }
        do {
            return try DateRange(attributes: merged)
        } catch {
            // Both inputs were valid date ranges, so their union reads back.
            preconditionFailure("merged date range does not read back: \(error)")
        }
    }

    private static func sameValue(_ a: Attribute, _ b: Attribute) -> Bool {
        if a.value == b.value { return true }
        switch (a.value, b.value) {
        case (.decimal(let x), .decimal(let y)):
            return MediaTime(decimal: x).flatMap { lhs in MediaTime(decimal: y).map { lhs == $0 } } ?? false
        case (.quotedString(let x), .quotedString(let y)):
            if let dx = PlaylistDate(iso8601: x), let dy = PlaylistDate(iso8601: y) { return dx == dy }
            return false
        default:
            return false
        }
    }
}
