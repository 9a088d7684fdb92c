import Foundation

extension SimulationReport {
    /// A drawing of each participant's coordinated position against true time: a line per
    /// participant, solid while it plays, dotted while it is in its own break, dashed while it waits
    /// for the group, with a legend and the notable moments as ticks along the top.
    public var svg: String {
        let width = 960.0, height = 420.0
        let left = 60.0, right = 150.0, top = 30.0, bottom = 40.0
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let totalSeconds = max(1, Self.seconds(duration))
        let maxPosition = max(1, participants.flatMap { $0.series.map(\.coordinated) }.max() ?? 1)
        func x(_ seconds: Double) -> Double { left + seconds / totalSeconds * plotWidth }
        func y(_ position: Double) -> Double { top + plotHeight - position / maxPosition * plotHeight }
        func f(_ value: Double) -> String { String(format: "%.1f", value) }
        func escape(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        }
        let colors = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"]
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif" font-size="11">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(f(left))" y="18" font-size="13">\(escape(scenario)): coordinated position against time</text>

            """
        // Axes with ticks.
        svg += "<line x1=\"\(f(left))\" y1=\"\(f(top + plotHeight))\" x2=\"\(f(left + plotWidth))\" y2=\"\(f(top + plotHeight))\" stroke=\"black\"/>\n"
        svg += "<line x1=\"\(f(left))\" y1=\"\(f(top))\" x2=\"\(f(left))\" y2=\"\(f(top + plotHeight))\" stroke=\"black\"/>\n"
        let timeStep = Self.niceStep(totalSeconds / 8)
        var tick = 0.0
        while tick <= totalSeconds + 0.001 {
            svg += "<line x1=\"\(f(x(tick)))\" y1=\"\(f(top + plotHeight))\" x2=\"\(f(x(tick)))\" y2=\"\(f(top + plotHeight + 4))\" stroke=\"black\"/>"
            svg += "<text x=\"\(f(x(tick)))\" y=\"\(f(top + plotHeight + 16))\" text-anchor=\"middle\">\(Self.clock(.milliseconds(Int64(tick * 1000))))</text>\n"
            tick += timeStep
        }
        let positionStep = Self.niceStep(maxPosition / 6)
        tick = 0
        while tick <= maxPosition + 0.001 {
            svg += "<line x1=\"\(f(left - 4))\" y1=\"\(f(y(tick)))\" x2=\"\(f(left + plotWidth))\" y2=\"\(f(y(tick)))\" stroke=\"#eeeeee\"/>"
            svg += "<text x=\"\(f(left - 6))\" y=\"\(f(y(tick) + 4))\" text-anchor=\"end\">\(Int(tick)) s</text>\n"
            tick += positionStep
        }
        svg += "<text x=\"\(f(left + plotWidth / 2))\" y=\"\(f(height - 6))\" text-anchor=\"middle\">group time</text>\n"
        // Notable moments.
        for note in notes where note.text.hasPrefix("user") || note.text.contains("waiting for") {
            svg += "<line x1=\"\(f(x(Self.seconds(note.time))))\" y1=\"\(f(top))\" x2=\"\(f(x(Self.seconds(note.time))))\" y2=\"\(f(top + plotHeight))\" stroke=\"#cccccc\" stroke-dasharray=\"2,3\"><title>\(escape(note.text))</title></line>\n"
        }
        // One line per participant, in runs of the same state.
        for (index, participant) in participants.enumerated() {
            let color = colors[index % colors.count]
            var run: [ParticipantReport.Point] = []
            func flush() {
                guard run.count >= 2, let state = run.first?.state else { return }
                let points = run.map { "\(f(x(Self.seconds($0.time)))),\(f(y($0.coordinated)))" }.joined(separator: " ")
                let dash = state == "waiting" ? " stroke-dasharray=\"6,4\"" : state == "inBreak" ? " stroke-dasharray=\"1,3\"" : ""
                let widthAttribute = state == "playing" ? "2" : "3"
                svg += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"\(widthAttribute)\"\(dash) points=\"\(points)\"><title>\(escape(participant.name)): \(state)</title></polyline>\n"
            }
            for point in participant.series {
                if let last = run.last, last.state != point.state {
                    run.append(ParticipantReport.Point(time: point.time, coordinated: point.coordinated, state: last.state))
                    flush()
                    run = [point]
                } else {
                    run.append(point)
                }
            }
            flush()
            let legendY = top + 14 + Double(index) * 16
            svg += "<line x1=\"\(f(left + plotWidth + 12))\" y1=\"\(f(legendY - 4))\" x2=\"\(f(left + plotWidth + 32))\" y2=\"\(f(legendY - 4))\" stroke=\"\(color)\" stroke-width=\"2\"/>"
            svg += "<text x=\"\(f(left + plotWidth + 38))\" y=\"\(f(legendY))\">\(escape(participant.name))</text>\n"
        }
        let keyY = top + 30 + Double(participants.count) * 16
        svg += "<text x=\"\(f(left + plotWidth + 12))\" y=\"\(f(keyY))\">solid: playing</text>\n"
        svg += "<text x=\"\(f(left + plotWidth + 12))\" y=\"\(f(keyY + 14))\">dotted: in a break</text>\n"
        svg += "<text x=\"\(f(left + plotWidth + 12))\" y=\"\(f(keyY + 28))\">dashed: waiting</text>\n"
        svg += "</svg>\n"
        return svg
    }

    /// 1, 2 or 5 times a power of ten, at least `raw`.
    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0 else { return 1 }
        let power = pow(10, floor(log10(raw)))
        for multiple in [1.0, 2.0, 5.0, 10.0] where multiple * power >= raw { return multiple * power }
        return 10 * power
    }
}
