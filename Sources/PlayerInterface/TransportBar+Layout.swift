import MediaTime

extension TransportBar {
    /// One column of a bar laid out as text.
    public enum Cell: Sendable, Hashable {
        /// Primary content (ahead of the playhead, or anywhere when progress is not shown).
        case primary
        /// Primary content already played.
        case played
        /// A point break's dot.
        case pointBreak
        /// Part of a range break's highlighted span.
        case rangeBreak
        /// The playhead.
        case playhead

        /// The glyph terminals draw: `-` primary, `=` played, `o` a point break, `#` a range
        /// break, `|` the playhead.
        public var glyph: Character {
            switch self {
            case .primary: "-"
            case .played: "="
            case .pointBreak: "o"
            case .rangeBreak: "#"
            case .playhead: "|"
            }
        }
    }

    /// The column of `columns` that an integrated time falls in, clamped to the bar: the bar's
    /// extent is spread evenly, and a time on a column boundary belongs to the column on its right.
    public func column(for time: MediaTime, columns: Int) -> Int {
        guard columns > 0 else { return 0 }
        guard knownDuration > .zero, time.isNumeric else { return 0 }
        let fraction = (time - start).seconds / knownDuration.seconds
        return min(columns - 1, max(0, Int((fraction * Double(columns)).rounded(.down))))
    }

    /// The bar laid out in `columns` cells. Range breaks are drawn over primary, then point breaks
    /// over both, then (with `showsProgress`) the playhead over everything; with `showsProgress`
    /// primary content left of the playhead is ``Cell/played``, without it every primary cell is
    /// ``Cell/primary`` and no playhead is drawn (an overview of the timeline).
    ///
    /// - Complexity: O(columns + marks).
    public func cells(columns: Int, showsProgress: Bool = true) -> [Cell] {
        guard columns > 0 else { return [] }
        let playheadColumn = column(for: clampedPlayhead, columns: columns)
        var cells = (0..<columns).map { showsProgress && $0 < playheadColumn ? Cell.played : Cell.primary }
        guard knownDuration > .zero else {
            if showsProgress { cells[playheadColumn] = .playhead }
            return cells
        }
        for mark in marks where mark.kind == .range {
            let first = column(for: mark.timelineRange.start, columns: columns)
            let last = max(first, column(for: mark.timelineRange.end, columns: columns) - 1)
            for index in first...last { cells[index] = .rangeBreak }
        }
        for mark in marks where mark.kind == .point {
            cells[column(for: mark.timelineRange.start, columns: columns)] = .pointBreak
        }
        if showsProgress { cells[playheadColumn] = .playhead }
        return cells
    }

    /// ``cells(columns:showsProgress:)`` as text, each cell drawn with `glyph` (``Cell/glyph`` by
    /// default).
    public func text(columns: Int, showsProgress: Bool = true, glyph: (Cell) -> Character = \.glyph) -> String {
        String(cells(columns: columns, showsProgress: showsProgress).map(glyph))
    }
}
