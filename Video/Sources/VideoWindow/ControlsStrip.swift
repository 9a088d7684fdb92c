public import MediaTime
public import PlayerInterface

/// What the controls strip shows, folded from a ``TransportBarStateMachine``'s actions: the bar
/// (its marks and playhead), the break playing now and its countdown. The machine sends a new
/// break as ``TransportBarStateMachine/Action/updateControls(_:)`` and the countdown with each
/// ``TransportBarStateMachine/Action/movePlayhead(_:breakRemaining:)``, without redrawing the
/// bar, so neither can be read off the last bar alone.
public struct ControlsStrip: Sendable, Hashable {
    /// The bar as last drawn; its playhead is the current time, or a scrub's target.
    public private(set) var bar: TransportBar?
    /// The break playing now, if any.
    public private(set) var currentBreak: TransportBar.CurrentBreak?
    /// What is left of it, as last reported.
    public private(set) var breakRemaining: MediaTime?
    /// The watch-together group's state (`group playing`, `group waits for p2`), when following one.
    public private(set) var groupState: String?

    public init() {}

    /// A strip showing `bar` as it is.
    public init(bar: TransportBar) {
        _ = apply(.redraw(bar))
    }

    /// Takes in `action`; returns whether the strip changed (the actions meant for the player,
    /// seeks, skips and refusals, change nothing).
    public mutating func apply(_ action: TransportBarStateMachine.Action) -> Bool {
        let before = self
        switch action {
        case .redraw(let bar):
            self.bar = bar
            currentBreak = bar.currentBreak
            breakRemaining = bar.currentBreak?.remaining
        case .updateControls(let current):
            currentBreak = current
            breakRemaining = current?.remaining
        case .movePlayhead(let time, let remaining):
            bar = bar?.withPlayhead(time)
            breakRemaining = remaining
        case .showScrubPreview(let preview):
            bar = bar?.withPlayhead(preview.target)
        case .hideScrubPreview, .seek, .playBreakFirst, .skipCurrentBreak, .refused:
            break
        }
        return self != before
    }

    /// Shows `text` as the group's state (`nil`: none); returns whether the strip changed.
    public mutating func setGroupState(_ text: String?) -> Bool {
        defer { groupState = text }
        return groupState != text
    }

    /// The strip's line of text: `0:21 / 1:00`, or in a break its countdown, `Ad -0:02` (with
    /// `[Skip]` once skipping is allowed); then the group's state, if any (`0:21 / 1:00   group playing`: Xlib draws Latin-1, so plain ASCII).
    public var label: String? {
        guard let bar else { return nil }
        let group = groupState.map { "   \($0)" } ?? ""
        if let currentBreak {
            let countdown = (breakRemaining ?? currentBreak.remaining).map { TimeFormat.remaining($0) } ?? ""
            return "Ad \(countdown)" + (currentBreak.isSkippable ? "  [Skip]" : "") + group
        }
        return "\(TimeFormat.elapsed(bar.playhead - bar.start)) / \(TimeFormat.elapsed(bar.knownDuration))" + group
    }
}
