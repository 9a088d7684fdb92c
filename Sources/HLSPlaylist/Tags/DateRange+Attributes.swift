#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MediaTime

extension DateRange {
    /// Reads a date range from its attribute list, enforcing each attribute's value type.
    ///
    /// Only `ID` is required here: START-DATE may come from an earlier tag with the same ID, which
    /// the parser and the validator check at playlist level.
    /// The attributes the model types, matched by name.
    enum Field: CaseIterable {
        case id, className, startDate, cue, endDate, duration, plannedDuration, endOnNext, scte35Command, scte35Out, scte35In, assetURI, assetList, resumeOffset, playoutLimit, snap, restrict, timelineOccupies, timelineStyle, contentMayVary, skipControlOffset, skipControlDuration, skipControlLabelID, preloadURI, preloadTargetID, preloadTargetClass

    /// Matches an attribute name given as bytes: a switch on the length, then `memcmp`.
    static func match(_ name: UnsafePointer<UInt8>, _ length: Int) -> Field? {
        @inline(__always) func equals(_ text: StaticString) -> Bool { memcmp(name, text.utf8Start, length) == 0 }
        switch length {
        case 2:
            if equals("ID") { return .id }
            return nil
        case 3:
            if equals("CUE") { return .cue }
            return nil
        case 5:
            if equals("CLASS") { return .className }
            if equals("X-URI") { return .preloadURI }
            return nil
        case 6:
            if equals("X-SNAP") { return .snap }
            return nil
        case 8:
            if equals("END-DATE") { return .endDate }
            if equals("DURATION") { return .duration }
            return nil
        case 9:
            if equals("SCTE35-IN") { return .scte35In }
            return nil
        case 10:
            if equals("START-DATE") { return .startDate }
            if equals("SCTE35-CMD") { return .scte35Command }
            if equals("SCTE35-OUT") { return .scte35Out }
            if equals("X-RESTRICT") { return .restrict }
            return nil
        case 11:
            if equals("END-ON-NEXT") { return .endOnNext }
            if equals("X-ASSET-URI") { return .assetURI }
            if equals("X-TARGET-ID") { return .preloadTargetID }
            return nil
        case 12:
            if equals("X-ASSET-LIST") { return .assetList }
            return nil
        case 14:
            if equals("X-TARGET-CLASS") { return .preloadTargetClass }
            return nil
        case 15:
            if equals("X-RESUME-OFFSET") { return .resumeOffset }
            if equals("X-PLAYOUT-LIMIT") { return .playoutLimit }
            return nil
        case 16:
            if equals("PLANNED-DURATION") { return .plannedDuration }
            if equals("X-TIMELINE-STYLE") { return .timelineStyle }
            return nil
        case 18:
            if equals("X-CONTENT-MAY-VARY") { return .contentMayVary }
            return nil
        case 19:
            if equals("X-TIMELINE-OCCUPIES") { return .timelineOccupies }
            return nil
        case 21:
            if equals("X-SKIP-CONTROL-OFFSET") { return .skipControlOffset }
            return nil
        case 23:
            if equals("X-SKIP-CONTROL-DURATION") { return .skipControlDuration }
            if equals("X-SKIP-CONTROL-LABEL-ID") { return .skipControlLabelID }
            return nil
        default:
            return nil
        }
    }

        /// Matches an attribute name.
        static func match(_ name: String) -> Field? {
            var name = name
            return name.withUTF8 { bytes in bytes.baseAddress.flatMap { match($0, bytes.count) } }
        }
    }

    public init(attributes: [Attribute]) throws(AttributeError) {
        self.init(id: "")
        var sawID = false
        for attribute in attributes {
            if let field = Field.match(attribute.name) {
                try assign(field, attribute.value)
                if field == .id { sawID = true }
            } else {
                appendOther(attribute)
            }
        }
        try finishDecoding(sawID: sawID)
    }

    /// Sets one typed attribute from its value, enforcing the value type §4.4.5.1 and Appendix D
    /// give it. Shared by the parser (which reads values in place) and ``init(attributes:)``.
    mutating func assign(_ field: Field, _ value: some AttributeValueReading) throws(AttributeError) {
        func quoted(_ name: String) throws(AttributeError) -> String {
            guard value.kind == .quotedString else {
                throw AttributeError(name: name, reason: "must be a quoted string, found \(value.playlistText)")
            }
            return value.text
        }
        func date(_ name: String) throws(AttributeError) -> PlaylistDate {
            guard value.kind == .quotedString else {
                throw AttributeError(name: name, reason: "must be a quoted string, found \(value.playlistText)")
            }
            guard let date = value.date else {
                throw AttributeError(name: name, reason: "must be an ISO 8601 date with a time zone, found \(value.playlistText)")
            }
            return date
        }
        func seconds(_ name: String, signed: Bool) throws(AttributeError) -> MediaTime {
            guard value.kind == .decimal, let time = value.decimalTime else {
                throw AttributeError(name: name, reason: "must be a decimal number of seconds, found \(value.playlistText)")
            }
            if !signed, value.isSigned {
                throw AttributeError(name: name, reason: "must be an unsigned decimal number, found \(value.playlistText)")
            }
            return time
        }
        func hexadecimal(_ name: String) throws(AttributeError) -> String {
            guard value.kind == .hexadecimal else {
                throw AttributeError(name: name, reason: "must be a hexadecimal sequence (0x…), found \(value.playlistText)")
            }
            return value.text
        }
        func list(_ name: String) throws(AttributeError) -> [String] { AttributeReader.splitList(try quoted(name)) }
        switch field {
        case .id: id = try quoted("ID")
        case .className: className = try quoted("CLASS")
        case .startDate: startDate = try date("START-DATE")
        case .cue: cue = try list("CUE").map(Cue.init(rawValue:))
        case .endDate: endDate = try date("END-DATE")
        case .duration: duration = try seconds("DURATION", signed: false)
        case .plannedDuration: plannedDuration = try seconds("PLANNED-DURATION", signed: false)
        case .endOnNext:
            guard value.isYes else { throw AttributeError(name: "END-ON-NEXT", reason: "must be YES, found \(value.playlistText)") }
            endOnNext = true
        case .scte35Command: scte35Command = try hexadecimal("SCTE35-CMD")
        case .scte35Out: scte35Out = try hexadecimal("SCTE35-OUT")
        case .scte35In: scte35In = try hexadecimal("SCTE35-IN")
        case .assetURI: assetURI = try quoted("X-ASSET-URI")
        case .assetList: assetList = try quoted("X-ASSET-LIST")
        case .resumeOffset: resumeOffset = try seconds("X-RESUME-OFFSET", signed: true)
        case .playoutLimit: playoutLimit = try seconds("X-PLAYOUT-LIMIT", signed: false)
        case .snap: snap = try list("X-SNAP").map(Snap.init(rawValue:))
        case .restrict: restrict = try list("X-RESTRICT").map(Restriction.init(rawValue:))
        case .timelineOccupies: timelineOccupies = TimelineOccupancy(rawValue: try quoted("X-TIMELINE-OCCUPIES"))
        case .timelineStyle: timelineStyle = TimelineStyle(rawValue: try quoted("X-TIMELINE-STYLE"))
        case .contentMayVary: contentMayVary = YesNo(rawValue: try quoted("X-CONTENT-MAY-VARY"))
        case .skipControlOffset: skipControlOffset = try seconds("X-SKIP-CONTROL-OFFSET", signed: false)
        case .skipControlDuration: skipControlDuration = try seconds("X-SKIP-CONTROL-DURATION", signed: false)
        case .skipControlLabelID: skipControlLabelID = try quoted("X-SKIP-CONTROL-LABEL-ID")
        case .preloadURI: preloadURI = try quoted("X-URI")
        case .preloadTargetID: preloadTargetID = try quoted("X-TARGET-ID")
        case .preloadTargetClass: preloadTargetClass = try quoted("X-TARGET-CLASS")
        }
    }

    /// Whether ``assign(_:_:)`` takes `value` for `field` without an error: the same checks, made
    /// without building the value (dates and numbers are still read, to know they are valid).
    static func accepts(_ field: Field, _ value: RawAttributeValue) -> Bool {
        switch field {
        case .id, .className, .cue, .assetURI, .assetList, .snap, .restrict, .timelineOccupies, .timelineStyle, .contentMayVary,
            .skipControlLabelID, .preloadURI, .preloadTargetID, .preloadTargetClass:
            return value.kind == .quotedString
        case .startDate, .endDate:
            return value.kind == .quotedString && value.date != nil
        case .duration, .plannedDuration, .playoutLimit, .skipControlOffset, .skipControlDuration:
            return value.kind == .decimal && !value.isSigned && value.decimalTime != nil
        case .resumeOffset:
            return value.kind == .decimal && value.decimalTime != nil
        case .endOnNext:
            return value.isYes
        case .scte35Command, .scte35Out, .scte35In:
            return value.kind == .hexadecimal
        }
    }

    /// Whether the attribute list `buffer[start..<end]` reads as a date range with no problem at
    /// all: the grammar of §4.2, every typed attribute accepted (``accepts(_:_:)``), an ID. Such a
    /// list can be kept as it is and decoded later by ``init(decoding:_:_:)``, which cannot fail.
    ///
    /// - Complexity: O(n) in the length of the list; no allocation.
    static func isWellFormed(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        guard let base = buffer.baseAddress else { return false }
        var cursor = AttributeCursor(buffer, start, end)
        var sawID = false
        while let span = cursor.next() {
            guard let field = Field.match(base + span.nameStart, span.nameEnd - span.nameStart) else { continue }
            guard accepts(field, RawAttributeValue(buffer: buffer, start: span.valueStart, end: span.valueEnd, kind: span.kind))
            else { return false }
            if field == .id { sawID = true }
        }
        return !cursor.isMalformed && sawID
    }

    /// The date range of a well-formed attribute list (``isWellFormed(_:_:_:)``), decoded as the
    /// parser decodes one: typed attributes assigned in order, the others kept with their types.
    init(decoding buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
        self.init(id: "")
        guard let base = buffer.baseAddress else { return }
        var cursor = AttributeCursor(buffer, start, end)
        var sawID = false
        while let span = cursor.next() {
            let value = RawAttributeValue(buffer: buffer, start: span.valueStart, end: span.valueEnd, kind: span.kind)
            if let field = Field.match(base + span.nameStart, span.nameEnd - span.nameStart) {
                // Accepted when the list was checked, so this does not throw.
                try? assign(field, value)
                if field == .id { sawID = true }
            } else {
                let name = String(decoding: UnsafeBufferPointer(rebasing: buffer[span.nameStart..<span.nameEnd]), as: UTF8.self)
                appendOther(Attribute(name: name, value: value.attributeValue))
            }
        }
        try? finishDecoding(sawID: sawID)
    }

    /// Keeps an attribute the model has no field for: a client (`X-`) attribute or an unknown one.
    ///
    /// Appends in place (through ``mutate(_:)``): going through the `clientAttributes` property
    /// would copy the array on every append, quadratic in a tag with many attributes.
    mutating func appendOther(_ attribute: Attribute) {
        let isClient = attribute.name.utf8.starts(with: "X-".utf8)
        mutate { values in
            if isClient { values.clientAttributes.append(attribute) } else { values.unknownAttributes.append(attribute) }
        }
    }

    /// Checks that ID was present, and honours the legacy `X-CUE` (the attribute's name in earlier
    /// drafts, still sent by some packagers) when `CUE` is absent.
    mutating func finishDecoding(sawID: Bool) throws(AttributeError) {
        guard sawID else { throw AttributeError(name: "ID", reason: "is required", isMissing: true) }
        if cue == nil, let legacy = clientAttributes.first(where: { $0.name == "X-CUE" }), case .quotedString(let text) = legacy.value {
            cue = AttributeReader.splitList(text).map(Cue.init(rawValue:))
            mutate { $0.clientAttributes.removeAll { $0.name == "X-CUE" } }
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
    /// - Complexity: O(a + b) expected in the attributes of both tags.
    public func merging(_ later: DateRange) throws(DateRangeConflict) -> DateRange {
        precondition(later.id == id, "merging date ranges with different IDs")
        if later == self { return self }
        var merger = DateRangeMerger(self)
        if let name = merger.add(later).first {
            throw DateRangeConflict(
                id: id, attribute: name,
                earlierValue: merger.earlierText(of: name) ?? "",
                laterValue: DateRangeMerger(later).earlierText(of: name) ?? ""
            )
        }
        return merger.range
    }

    static func sameValue(_ a: Attribute, _ b: Attribute) -> Bool {
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
