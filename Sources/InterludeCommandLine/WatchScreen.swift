import Foundation
import GroupCoordination
import HLSInterstitials
import MediaTime
import NetworkIO
import PlayerEngine
import PlayerInterface

/// What `interlude watch` shows, laid out for a terminal of `width` × `height` cells from one
/// ``PlayerState``: no curses here, so the layout is tested as text.
///
///     The Long Take
///
///     [o=========|-----------------##########-----------------------o-------------------------]
///     0:12 / 1:10                                                                         -0:58
///
///     paused
///     rate 1.25×
///
///     space play/pause · ←/→ seek 5 s · [ ] rate · s skip · i info · q quit
///
/// Inside a break, the line under the times says which ad of how many plays, how long the break
/// has left and whether it may be skipped (`Ad 1 of 2 · 0:07 left · cannot be skipped`); a key
/// refused there says why on the notice line.
///
/// The bar is ``TransportBar``'s layout (`o` a point break at its mapped start, `#` a range
/// break's span, `|` the playhead, `=` played, `-` ahead); times are ``TimeFormat``'s. With the
/// info panel open, the variant, the position, what is buffered and the break schedule follow
/// the notice line.
///
/// A group participant (`watch --join`) gets two lines under the status: who it is in which
/// session and how it is connected, with its skew; then what the group does, and whom it waits
/// for when it waits.
///
///     session 5f2c · bob (controller) · in session · skew +1.3 ms · 1 other
///     the group waits for charlie (in an ad)
package struct WatchScreen: Sendable {
    /// How a line is painted.
    package enum Style: Sendable, Hashable {
        case title
        case bar
        case plain
        /// The break line.
        case emphasis
        case notice
        /// The key help and the info panel's headings.
        case dim
    }

    /// A line of text, at most the screen's width in columns.
    package struct Line: Sendable, Hashable {
        package var text: String
        package var style: Style
    }

    /// Which characters the text may use: a terminal whose locale is not UTF-8 gets ASCII.
    package enum Charset: Sendable, Hashable {
        case unicode
        case ascii
    }

    /// What the player shows besides its state (read from the player's logs).
    package struct Details: Sendable {
        /// The variant loading now: its media playlist and declared bandwidth.
        package var variant: (uri: String, bandwidth: Int)?
        /// What of the primary item is buffered.
        package var buffered: [MediaTimeRange]

        package init(variant: (uri: String, bandwidth: Int)? = nil, buffered: [MediaTimeRange] = []) {
            self.variant = variant
            self.buffered = buffered
        }
    }

    /// What the channels and parental controls add (``WatchChannelsStateMachine``).
    package struct Channels: Sendable, Hashable {
        /// What covers the player: the loading screen or the passcode prompt.
        package var overlay: Overlay?
        /// Their notice; it shows instead of the controls' one.
        package var notice: WatchChannelsStateMachine.Notice?
        /// Whether `n` and `p` switch channels (the help says so).
        package var isChannelList: Bool

        package init(overlay: Overlay? = nil, notice: WatchChannelsStateMachine.Notice? = nil, isChannelList: Bool) {
            self.overlay = overlay
            self.notice = notice
            self.isChannelList = isChannelList
        }
    }

    /// What a group participant adds (``WatchGroupStateMachine``, read from the participant).
    package struct Group: Sendable, Hashable {
        /// How the participant is connected to the group server.
        package enum Connection: Sendable, Hashable {
            /// Not yet admitted.
            case connecting
            /// Admitted: commands flow.
            case inSession
            /// Admitted before, and the connection dropped: it is being made again.
            case reconnecting
            /// Refused for good.
            case stopped
        }

        /// What the group does.
        package enum Status: Sendable, Hashable {
            case playing
            case paused
            /// The group holds until these are ready.
            case waiting(for: [Blocker])
        }

        /// Someone the group waits for, and why.
        package struct Blocker: Sendable, Hashable {
            package var name: String
            package var cause: WaitInterval.Cause

            package init(name: String, cause: WaitInterval.Cause) {
                self.name = name
                self.cause = cause
            }
        }

        /// The session's identifier, once admitted.
        package var session: String?
        /// This participant's name.
        package var name: String
        /// Its role, once admitted.
        package var role: SessionRole?
        package var connection: Connection
        /// What the group does, once the coordinator knows.
        package var status: Status?
        /// This player's primary time less where the group expects it (positive: ahead).
        package var skew: Duration?
        /// How many others the coordinator knows.
        package var others: Int
        /// The group's notice; it shows instead of the others.
        package var notice: WatchGroupStateMachine.Notice?

        package init(session: String?, name: String, role: SessionRole?, connection: Connection, status: Status?, skew: Duration?, others: Int,
                     notice: WatchGroupStateMachine.Notice? = nil) {
            self.session = session
            self.name = name
            self.role = role
            self.connection = connection
            self.status = status
            self.skew = skew
            self.others = others
            self.notice = notice
        }
    }

    /// A screen that replaces the player's.
    package enum Overlay: Sendable, Hashable {
        /// A channel loading: `Loading channel 2 of 3: Sports`.
        case loading(ChannelSwitchStateMachine.LoadingScreen)
        /// The passcode prompt, the typed characters masked.
        case passcode(WatchChannelsStateMachine.PasscodePrompt)
    }

    /// The lines, top to bottom: exactly the screen's height (blank lines included).
    package let lines: [Line]
    /// Where the bar is (its row and first column) and its cells, to colour them; `nil` before
    /// the item's timeline is known.
    package let bar: (row: Int, column: Int, cells: [TransportBar.Cell])?

    /// The screen's text, one line per row with trailing blanks removed (for tests and logs).
    package var text: String {
        lines.map { String($0.text.reversed().drop { $0 == " " }.reversed()) }.joined(separator: "\n")
    }

    /// Lays out `state` for a `width` × `height` terminal.
    ///
    /// - Complexity: O(width + segments + breaks).
    package init(state: PlayerState, title: String, isInfoShown: Bool, notice: WatchControlStateMachine.Notice?, details: Details = Details(),
         width: Int, height: Int, charset: Charset = .unicode, channels: Channels? = nil, group: Group? = nil) {
        let width = max(width, 1)
        let height = max(height, 1)
        let dot = charset == .unicode ? " · " : " - "
        let noticeText = group?.notice.map(Self.text(for:)) ?? channels?.notice.map { Self.text(for: $0, separator: dot) } ?? notice.map(Self.text(for:))
        if let overlay = channels?.overlay {
            let rows = Self.fitted(Self.overlayLines(overlay, separator: dot) + [Line(text: noticeText ?? "", style: .notice)],
                                   help: Line(text: Self.overlayHelp(overlay, separator: dot), style: .dim), height: height)
            lines = rows.map { Line(text: String($0.text.prefix(width)), style: $0.style) }
            bar = nil
            return
        }
        let transportBar = state.snapshot.map(TransportBar.init(snapshot:))

        var top: [Line] = [Line(text: title, style: .title), Line(text: "", style: .plain)]
        var barPlacement: (row: Int, column: Int, cells: [TransportBar.Cell])?
        if let transportBar {
            let cells = transportBar.cells(columns: max(width - 2, 1))
            barPlacement = (top.count, 1, cells)
            top.append(Line(text: "[" + String(cells.map(\.glyph)) + "]", style: .bar))
            top.append(Line(text: Self.spread(Self.times(transportBar), Self.countdown(transportBar), width: width), style: .plain))
        } else {
            top.append(Line(text: "", style: .bar))
            top.append(Line(text: "", style: .plain))
        }
        top.append(Line(text: Self.breakLine(state, transportBar, separator: dot), style: .emphasis))
        top.append(Line(text: Self.statusLine(state, separator: dot), style: .plain))
        if let group {
            top.append(Line(text: Self.groupLine(group, separator: dot), style: .plain))
            top.append(Line(text: Self.groupStatusLine(group), style: .plain))
        }
        top.append(Line(text: noticeText ?? "", style: .notice))
        let info = isInfoShown ? [Line(text: "", style: .plain)] + Self.infoLines(state, details, charset: charset) : []
        let help = Line(text: Self.help(charset, separator: dot, hasChannels: channels?.isChannelList == true), style: .dim)

        // Tall enough: everything, the help on the last row. Short: the blank under the title
        // goes first, then the info panel from its end, then the rows under the bar.
        var rows = top
        if rows.count + info.count + 1 > height, rows.count > 1 {
            rows.remove(at: 1)
            if let row = barPlacement?.row { barPlacement?.row = row - 1 }
        }
        rows += info.prefix(max(0, height - 1 - rows.count))
        rows = Self.fitted(rows, help: help, height: height)
        if let row = barPlacement?.row, row >= rows.count { barPlacement = nil }
        lines = rows.map { Line(text: String($0.text.prefix(width)), style: $0.style) }
        bar = barPlacement
    }

    // MARK: Pieces

    /// `0:12 / 1:10`, elapsed on the integrated timeline over its length (`live` for a live
    /// stream).
    private static func times(_ bar: TransportBar) -> String {
        TimeFormat.elapsed(bar.clampedPlayheadOffset) + " / " + (bar.isLive ? "live" : TimeFormat.elapsed(bar.knownDuration))
    }

    /// `-0:58`, what is left of the item (nothing for live).
    private static func countdown(_ bar: TransportBar) -> String {
        bar.isLive ? "" : TimeFormat.remaining(bar.knownDuration - bar.clampedPlayheadOffset)
    }

    /// `Ad 1 of 2 · 0:07 left · cannot be skipped`, or empty outside a break.
    private static func breakLine(_ state: PlayerState, _ bar: TransportBar?, separator: String) -> String {
        guard let current = bar?.currentBreak else { return "" }
        var parts: [String] = []
        let scheduled = state.snapshot?.schedule.scheduledBreak(id: current.eventID)
        if let assets = scheduled?.assets, !assets.isEmpty, let asset = scheduled?.asset(at: current.offset) {
            parts.append("Ad \(asset.index + 1) of \(assets.count)")
        } else {
            parts.append("Break \"\(current.eventID)\"")
        }
        if let remaining = current.remaining {
            // The countdown rounds up, so it reads 0:01 until the very end; its minus sign is
            // said in words here.
            parts.append(String(TimeFormat.remaining(remaining).dropFirst()) + " left")
        }
        if current.isSkippable {
            parts.append("s to skip")
        } else if !current.allowsSeekingForward {
            parts.append("cannot be skipped")
        }
        return parts.joined(separator: separator)
    }

    /// `playing`, `paused`, `waiting: buffering`, with the rate when it is not 1 and `live`.
    private static func statusLine(_ state: PlayerState, separator: String) -> String {
        if let error = state.error { return "failed: \(error.message)" }
        if state.item == nil { return "no item" }
        if state.hasPlayedToEnd { return "ended" }
        var parts: [String] = []
        let rate = state.rate == 1 || state.rate == 0 ? "" : " at \(rateText(state.rate))"
        switch state.timeControlStatus {
        case .playing:
            parts.append("playing" + rate)
        case .paused:
            parts.append(state.itemStatus == .unknown ? "loading" : "paused")
        case .waitingToPlayAtSpecifiedRate(let reason):
            switch reason {
            case .interstitialEvent: parts.append("playing" + rate)
            case .toMinimizeStalls: parts.append("waiting: buffering")
            case .evaluatingBufferingRate: parts.append(state.itemStatus == .unknown ? "loading" : "waiting: starting")
            case .noItemToPlay: parts.append("waiting: no item")
            case .waitingForCoordinatedPlayback: parts.append("waiting for the group")
            }
        }
        if state.duration?.isIndefinite == true { parts.append("live") }
        return parts.joined(separator: separator)
    }

    static func rateText(_ rate: Double) -> String {
        (rate.rounded() == rate ? String(Int(rate)) : String(rate)) + "×"
    }

    /// `session 5f2c · bob (controller) · in session · skew +1.3 ms · 1 other`.
    static func groupLine(_ group: Group, separator: String) -> String {
        let who = TerminalText.escaped(group.name) + (group.role.map { " (\($0.rawValue))" } ?? "")
        guard let session = group.session else { return "connecting to the group as \(who)…" }
        var parts = ["session \(TerminalText.escaped(session))", who]
        switch group.connection {
        case .connecting: parts.append("connecting")
        case .inSession: parts.append("in session")
        case .reconnecting: parts.append("disconnected, reconnecting")
        case .stopped: parts.append("stopped")
        }
        if let skew = group.skew {
            parts.append(String(format: "skew %+.1f ms", skew / .milliseconds(1)))
        }
        parts.append("\(group.others) \(group.others == 1 ? "other" : "others")")
        return parts.joined(separator: separator)
    }

    /// `the group is playing`, `the group is paused`, `the group waits for charlie (in an ad)`.
    static func groupStatusLine(_ group: Group) -> String {
        switch group.status {
        case nil: return ""
        case .playing: return "the group is playing"
        case .paused: return "the group is paused"
        case .waiting(let blockers):
            guard !blockers.isEmpty else { return "the group waits" }
            let names = blockers.map { blocker -> String in
                let why = switch blocker.cause {
                case .notReady: "not ready"
                case .suspension(.playingInterstitial): "in an ad"
                case .suspension(.userIsChangingCurrentTime): "seeking"
                case .suspension(.stallRecovery): "buffering"
                case .suspension(let reason): reason.rawValue
                }
                return "\(TerminalText.escaped(blocker.name)) (\(TerminalText.escaped(why)))"
            }
            return "the group waits for " + names.joined(separator: ", ")
        }
    }

    /// A notice of the group's in words.
    package static func text(for notice: WatchGroupStateMachine.Notice) -> String {
        switch notice {
        case .refused(let error):
            let message = TerminalText.escaped(error.message)
            return error.code == .forbidden ? "refused by the group: \(message)" : "the server refused: \(TerminalText.escaped(error.code.rawValue)): \(message)"
        case .presence(let name, let role, let state):
            let what = switch state {
            case .joined: "joined"
            case .left: "left"
            case .lost: "was lost"
            case .returned: "is back"
            }
            return "\(TerminalText.escaped(name)) (\(role.rawValue)) \(what)"
        case .disconnected(let reason):
            return "disconnected (\(TerminalText.escaped(reason))); reconnecting"
        case .reconnected:
            return "back in the session"
        }
    }

    /// A notice in words.
    package static func text(for notice: WatchControlStateMachine.Notice) -> String {
        switch notice {
        case .refused(.restricted(let eventID)):
            return "refused: \"\(eventID)\" cannot be skipped or sought through (X-RESTRICT=SKIP)"
        case .refused(.notSkippable(let eventID)):
            return "refused: \"\(eventID)\" cannot be skipped yet"
        case .refused(.notInBreak):
            return "nothing to skip: no break is playing"
        case .refused(.noTimeline):
            return "not loaded yet"
        case .rate(let rate):
            return "rate \(rateText(rate))"
        case .seeking(let time):
            return "seeking to \(TimeFormat.elapsed(time))"
        case .playingBreakFirst(let eventID):
            return "\"\(eventID)\" plays first (X-RESTRICT=JUMP)"
        case .skipped(let eventID):
            return "skipped \"\(eventID)\""
        }
    }

    /// `rows` cut or padded to `height`, the help on the last row (a one-row terminal shows the
    /// first row only).
    private static func fitted(_ rows: [Line], help: Line, height: Int) -> [Line] {
        guard height > 1 else { return Array(rows.prefix(1)) }
        let kept = Array(rows.prefix(height - 1))
        return kept + Array(repeating: Line(text: "", style: .plain), count: height - 1 - kept.count) + [help]
    }

    /// The loading screen's or the prompt's lines, above the notice.
    private static func overlayLines(_ overlay: Overlay, separator: String) -> [Line] {
        switch overlay {
        case .loading(let screen):
            return [
                Line(text: "Loading channel \(screen.number) of \(screen.count): \(screen.channel.title)", style: .title),
                Line(text: "", style: .plain),
                Line(text: screen.channel.url, style: .dim),
            ]
        case .passcode(let prompt):
            let rating = prompt.rating.map { "Rated \($0.label)" } ?? "Unrated"
            let limit = prompt.limit.map { ", above the limit \($0.label)" } ?? ""
            let attempts = "\(prompt.attemptsLeft) \(prompt.attemptsLeft == 1 ? "attempt" : "attempts") left"
            return [
                Line(text: prompt.title, style: .title),
                Line(text: "", style: .plain),
                Line(text: "\(rating)\(limit): enter the passcode to watch it.", style: .plain),
                Line(text: "Passcode: " + String(repeating: "*", count: prompt.typedCount), style: .emphasis),
                prompt.isLastAttemptWrong ? Line(text: "Wrong passcode\(separator)\(attempts)", style: .notice) : Line(text: attempts, style: .plain),
            ]
        }
    }

    private static func overlayHelp(_ overlay: Overlay, separator: String) -> String {
        switch overlay {
        case .loading: ["n/p channel", "q quit"].joined(separator: separator)
        case .passcode: ["Enter check", "Esc cancel", "Backspace erase"].joined(separator: separator)
        }
    }

    /// A notice of the channels' or parental controls' in words.
    package static func text(for notice: WatchChannelsStateMachine.Notice, separator: String = " · ") -> String {
        switch notice {
        case .switchFailed(let channel, let failure):
            let reason = switch failure {
            case .loadFailed(.unreachable): "the stream cannot be reached"
            case .loadFailed(.unplayable): "the stream cannot be played"
            case .timedOut: "it did not load in time"
            case .superseded, .cancelled: "another channel was asked for"
            case .noChannels, .noSuchChannel: "no such channel"
            }
            return "could not switch to \(channel.title): \(reason)"
        case .notAllowed(let channel, let rating, let denial):
            let name = channel.title + (rating.map { " (\($0.label))" } ?? "")
            switch denial {
            case .forbiddenByProfile: return "\(name) is not allowed on this profile"
            case .passcodeCancelled: return "\(name) not shown: passcode cancelled\(separator)u to enter it"
            case .tooManyAttempts: return "\(name) not shown: too many wrong passcodes\(separator)u to try again"
            case .previouslyDenied: return "\(name) was refused\(separator)u to enter the passcode"
            case .superseded: return "\(name) not shown"
            }
        case .noChannelList:
            return "n and p switch channels when a channel list is given (--channels)"
        case .nothingToUnlock:
            return "nothing was refused: nothing to unlock"
        }
    }

    private static func help(_ charset: Charset, separator: String, hasChannels: Bool) -> String {
        let arrows = charset == .unicode ? "←/→" : "left/right"
        let keys = ["space play/pause", "\(arrows) seek 5 s", "[ ] rate"] + (hasChannels ? ["n/p channel"] : []) + ["s skip", "i info", "q quit"]
        return keys.joined(separator: separator)
    }

    /// The info panel: the variant, the position, what is buffered, the break schedule.
    private static func infoLines(_ state: PlayerState, _ details: Details, charset: Charset) -> [Line] {
        var lines: [Line] = []
        func row(_ label: String, _ value: String) {
            lines.append(Line(text: label.padding(toLength: 10, withPad: " ", startingAt: 0) + value, style: .plain))
        }
        if let variant = details.variant {
            row("variant", variant.bandwidth > 0 ? "\(variant.uri) (\(variant.bandwidth) bit/s)" : variant.uri)
        } else {
            row("variant", "-")
        }
        switch state.position {
        case .primary(let time):
            row("position", "primary \(TimeFormat.elapsed(time, fractionDigits: 1)), integrated \(TimeFormat.elapsed(state.integratedCurrentTime, fractionDigits: 1))")
        case .interstitial(let eventID, let offset):
            row("position", "break \"\(eventID)\" +\(TimeFormat.elapsed(offset, fractionDigits: 1)), primary \(TimeFormat.elapsed(state.currentTime, fractionDigits: 1))")
        }
        let dash = charset == .unicode ? "–" : "-"
        let buffered = details.buffered.map { "\(TimeFormat.elapsed($0.start, fractionDigits: 1))\(dash)\(TimeFormat.elapsed($0.end, fractionDigits: 1))" }
        row("buffered", buffered.isEmpty ? "nothing" : buffered.joined(separator: ", "))
        let breaks = state.snapshot?.schedule.breaks ?? []
        row("breaks", breaks.isEmpty ? "none" : "")
        for scheduled in breaks {
            let event = scheduled.event
            var text = "  \(scheduled.id) at \(TimeFormat.elapsed(scheduled.start)), "
            text += event.timelineOccupancy == .fill ? "range" : "point"
            text += scheduled.duration.map { ", \(TimeFormat.elapsed($0, fractionDigits: 1)) long" } ?? ", length unknown"
            if let assets = scheduled.assets { text += ", \(assets.count) \(assets.count == 1 ? "ad" : "ads")" }
            var restrictions: [String] = []
            if event.restrictions.contains(.requiresPlaybackAtPreferredRateForAdvancement) { restrictions.append("SKIP") }
            if event.restrictions.contains(.constrainsSeekingForwardInPrimaryContent) { restrictions.append("JUMP") }
            if !restrictions.isEmpty { text += ", X-RESTRICT=" + restrictions.joined(separator: ",") }
            if state.currentEvent?.identifier == scheduled.id { text += (charset == .unicode ? "  ◀ now" : "  < now") }
            lines.append(Line(text: text, style: .plain))
        }
        return lines
    }

    /// `left` and `right` at the two ends of a line `width` wide (`right` dropped when they do not
    /// fit).
    private static func spread(_ left: String, _ right: String, width: Int) -> String {
        guard !right.isEmpty, left.count + 1 + right.count <= width else { return left }
        return left + String(repeating: " ", count: width - left.count - right.count) + right
    }
}

extension TransportBar {
    /// The playhead's distance from the bar's left end, clamped to the bar.
    fileprivate var clampedPlayheadOffset: MediaTime {
        MediaTimeRange(start: start, duration: knownDuration).clamp(playhead) - start
    }
}
