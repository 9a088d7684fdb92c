import HLSInterstitials
import MediaTime
import PlayerInterface
import Testing
import VideoWindow

/// The controls strip drawn from the content's schedule: a point break at 21.3 s, a range break
/// from 40 to 50 s, on a 60.02 s bar.
@Suite("TransportBarDrawing")
struct TransportBarDrawingTests {
    static func bar(at position: IntegratedTimeline.Position) throws -> TransportBar {
        TransportBar(snapshot: IntegratedTimeline.Snapshot(schedule: try ContentSchedule.make(), position: position))
    }

    static func rectangles(_ drawing: TransportBarDrawing, _ color: TransportBarDrawing.Color) -> [PixelRect] {
        drawing.shapes.compactMap { shape in
            if case .rectangle(let rect, color) = shape { return rect }
            return nil
        }
    }

    @Test("one pixel column per cell: played up to the playhead, the range break's span, a dot at the point break, the playhead over all")
    func layout() throws {
        let bar = try Self.bar(at: .primary(MediaTime(seconds: 30)))
        let drawing = TransportBarDrawing(bar: bar, width: 624, height: 40)
        // 600 columns of track for 60.021 s: 9.996 columns a second.
        #expect(drawing.track == PixelRect(x: 12, y: 24, width: 600, height: 4))
        let range = try #require(Self.rectangles(drawing, .rangeBreak).first)
        #expect(range.x == 12 + bar.column(for: MediaTime(seconds: 40), columns: 600))
        #expect(range.x + range.width == 12 + bar.column(for: MediaTime(seconds: 50), columns: 600))
        let played = try #require(Self.rectangles(drawing, .played).first)
        #expect(played.x == 12 && played.width == bar.column(for: MediaTime(seconds: 30), columns: 600))
        let dots = drawing.shapes.compactMap { shape -> PixelRect? in
            if case .dot(let rect, .pointBreak) = shape { return rect }
            return nil
        }
        #expect(dots.map { $0.x + 5 } == [12 + bar.column(for: try #require(MediaTime(decimal: "21.3")), columns: 600)])
        let playhead = try #require(Self.rectangles(drawing, .playhead).first)
        #expect(playhead.x + 1 == 12 + bar.column(for: MediaTime(seconds: 30), columns: 600))
        #expect(drawing.shapes.last == .text("0:30 / 1:00", x: 12, y: 14, .text))
    }

    @Test("in a break the text is its countdown")
    func countdown() throws {
        let bar = try Self.bar(at: .interstitial(eventID: "ad", offset: try #require(MediaTime(decimal: "0.4"))))
        let drawing = TransportBarDrawing(bar: bar, width: 624, height: 40)
        guard case .text(let text, _, _, _) = drawing.shapes.last else {
            Issue.record("no text in \(drawing.shapes)")
            return
        }
        #expect(text == "Ad -0:03")
    }

    @Test("before the first bar: the background and nothing else")
    func empty() {
        #expect(TransportBarDrawing(bar: nil, width: 100, height: 40).shapes == [.rectangle(PixelRect(x: 0, y: 0, width: 100, height: 40), .background)])
    }
}
