internal import MediaTime
public import PlayerInterface

/// What the controls strip draws for a ``ControlsStrip``: its bar laid out one cell per pixel
/// column (``TransportBar/cells(columns:showsProgress:)``) and turned into runs of colour, a dot
/// over each point break, the playhead, and its ``ControlsStrip/label``: the position and
/// duration, or in a break its countdown and whether it can be skipped.
public struct TransportBarDrawing: Sendable, Hashable {
    /// The strip's colours, as 24-bit RGB (the pixel values of a TrueColor visual).
    public enum Color: UInt32, Sendable, Hashable {
        case background = 0x202020
        case primary = 0x606060
        case played = 0xd0d0d0
        case rangeBreak = 0xf1c40f
        case pointBreak = 0x3498db
        case playhead = 0xe74c3c
        case text = 0xffffff
    }

    public enum Shape: Sendable, Hashable {
        case rectangle(PixelRect, Color)
        /// A filled circle in `rect`.
        case dot(PixelRect, Color)
        /// Text with its baseline's left end at `x`, `y`.
        case text(String, x: Int, y: Int, Color)
    }

    /// The shapes in drawing order.
    public var shapes: [Shape]
    /// The track's rectangle: column `i` of the bar's cells is pixel `track.x + i`.
    public var track: PixelRect

    /// The horizontal margin either side of the track.
    public static let margin = 12

    /// The drawing of `bar` as it is (its own current break) in a `width` × `height` window.
    public init(bar: TransportBar?, width: Int, height: Int) {
        self.init(strip: bar.map { ControlsStrip(bar: $0) } ?? ControlsStrip(), width: width, height: height)
    }

    /// The drawing of `strip` in a `width` × `height` window; an empty track before the first bar.
    ///
    /// - Complexity: O(width + marks).
    public init(strip: ControlsStrip, width: Int, height: Int) {
        track = PixelRect(x: Self.margin, y: height * 2 / 3 - 2, width: max(0, width - 2 * Self.margin), height: 4)
        shapes = [.rectangle(PixelRect(x: 0, y: 0, width: width, height: height), .background)]
        guard let bar = strip.bar, let label = strip.label, track.width > 0 else { return }
        // A point break's cell and the playhead's take the colour of the track under them (the
        // dot and the playhead are drawn over it), so runs are of colours, not of cells.
        let playheadColumn = bar.column(for: bar.playhead, columns: track.width)
        let colors = bar.cells(columns: track.width).enumerated().map { column, cell -> Color in
            switch cell {
            case .primary: .primary
            case .played: .played
            case .rangeBreak: .rangeBreak
            case .pointBreak, .playhead: column < playheadColumn ? .played : .primary
            }
        }
        var runStart = 0
        for index in 1...colors.count where index == colors.count || colors[index] != colors[runStart] {
            shapes.append(.rectangle(PixelRect(x: track.x + runStart, y: track.y, width: index - runStart, height: track.height), colors[runStart]))
            runStart = index
        }
        for mark in bar.marks where mark.kind == .point {
            let x = track.x + bar.column(for: mark.timelineRange.start, columns: track.width)
            shapes.append(.dot(PixelRect(x: x - 5, y: track.y - 3, width: 10, height: 10), .pointBreak))
        }
        let playhead = track.x + playheadColumn
        shapes.append(.rectangle(PixelRect(x: playhead - 1, y: track.y - 6, width: 3, height: track.height + 12), .playhead))
        shapes.append(.text(label, x: Self.margin, y: max(12, track.y - 10), .text))
    }
}
