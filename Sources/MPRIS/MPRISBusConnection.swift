import CSystemd
import Foundation
import Glibc
import PlayerEngine
import PlayerInterface
import Synchronization

/// The sd-bus side of ``MPRISService``: one connection and the model, confined to the thread
/// ``serve()`` starts (before it, to the thread that made it). Other threads reach it only
/// through ``post(_:)`` and ``stop()``, which fill the inbox and write to the wake-up descriptor.
final class MPRISBusConnection: @unchecked Sendable {
    /// What other threads leave for the bus thread.
    private struct Inbox {
        /// The newest player state not yet handled (older ones are superseded: the model needs
        /// only the latest to tell what changed).
        var state: PlayerState?
        var info: NowPlayingInfo?
        var isStopping = false
    }

    let player: Player
    private(set) var busName = ""
    private let handlers: MPRISService.Handlers
    private let inbox = Mutex(Inbox())
    /// An eventfd: written to wake the bus thread from `poll`.
    private let wakeDescriptor: Int32
    // Bus-thread state.
    private var bus: OpaquePointer?
    private var vtables: [UnsafeMutablePointer<sd_bus_vtable>] = []
    private var model: MPRISPlayerModel

    init(player: Player, info: NowPlayingInfo, busAddress: String?, handlers: MPRISService.Handlers) throws(MPRISError) {
        self.player = player
        self.handlers = handlers
        model = MPRISPlayerModel(info: info, capabilities: MPRISPlayerModel.Capabilities(
            canGoNext: handlers.next != nil, canGoPrevious: handlers.previous != nil, canQuit: handlers.quit != nil))
        wakeDescriptor = interlude_make_wake_descriptor()
        var bus: OpaquePointer?
        var result: Int32
        if let busAddress {
            result = sd_bus_new(&bus)
            if result >= 0 { result = sd_bus_set_address(bus, busAddress) }
            if result >= 0 { result = sd_bus_set_bus_client(bus, 1) }
            if result >= 0 { result = sd_bus_start(bus) }
        } else {
            result = sd_bus_open_user(&bus)
        }
        guard result >= 0, let bus else {
            sd_bus_unref(bus)
            throw MPRISError(.connect, code: result)
        }
        self.bus = bus
        let context = Unmanaged.passUnretained(self).toOpaque()
        if let root = interlude_mpris_root_vtable(mprisMethod, mprisGet) { vtables.append(root) }
        if let playerTable = interlude_mpris_player_vtable(mprisMethod, mprisGet, mprisSet) { vtables.append(playerTable) }
        result = vtables.count == 2 ? 0 : -ENOMEM
        if result >= 0 { result = sd_bus_add_object_vtable(bus, nil, INTERLUDE_MPRIS_OBJECT_PATH, INTERLUDE_MPRIS_ROOT_INTERFACE, vtables[0], context) }
        if result >= 0 { result = sd_bus_add_object_vtable(bus, nil, INTERLUDE_MPRIS_OBJECT_PATH, INTERLUDE_MPRIS_PLAYER_INTERFACE, vtables[1], context) }
        // From here on a throw ends in deinit, which closes the bus.
        guard result >= 0 else { throw MPRISError(.register, code: result) }
        var name = "org.mpris.MediaPlayer2.interlude"
        result = sd_bus_request_name(bus, name, 0)
        if result == -EEXIST {
            // The specification's convention for a second instance of the same player.
            name += ".instance\(getpid())"
            result = sd_bus_request_name(bus, name, 0)
        }
        guard result >= 0 else { throw MPRISError(.requestName, code: result) }
        busName = name
    }

    deinit {
        if let bus { sd_bus_flush_close_unref(bus) }
        // sd-bus keeps the vtables until the bus is gone.
        for table in vtables { free(table) }
        close(wakeDescriptor)
    }

    // MARK: From other threads

    func post(_ state: PlayerState) {
        inbox.withLock { $0.state = state }
        wake()
    }

    func post(_ info: NowPlayingInfo) {
        inbox.withLock { $0.info = info }
        wake()
    }

    func stop() {
        inbox.withLock { $0.isStopping = true }
        wake()
    }

    private func wake() {
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, MemoryLayout<UInt64>.size)
    }

    // MARK: The bus thread

    /// Runs the bus loop on a thread of its own until ``stop()``; closes the bus at the end.
    func serve() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let thread = Thread { [self] in
                let failure = loop()
                if let bus {
                    sd_bus_flush_close_unref(bus)
                    self.bus = nil
                }
                if let failure { continuation.resume(throwing: failure) } else { continuation.resume() }
            }
            thread.name = "MPRIS bus"
            thread.start()
        }
    }

    /// Processes messages, then the inbox, then waits for either; `nil` once stopped.
    private func loop() -> MPRISError? {
        guard let bus else { return MPRISError(.process, code: ENOTCONN) }
        while true {
            while true {
                let result = sd_bus_process(bus, nil)
                if result < 0 { return MPRISError(.process, code: result) }
                if result == 0 { break }
            }
            let inputs = inbox.withLock { inbox -> Inbox in
                defer { (inbox.state, inbox.info) = (nil, nil) }
                return inbox
            }
            if inputs.isStopping { return nil }
            if let info = inputs.info { perform(model.handle(.info(info))) }
            if let state = inputs.state { perform(model.handle(.state(state))) }

            var descriptors = [
                pollfd(fd: sd_bus_get_fd(bus), events: Int16(truncatingIfNeeded: sd_bus_get_events(bus)), revents: 0),
                pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            let result = poll(&descriptors, 2, timeoutMilliseconds(bus))
            if result < 0, errno != EINTR { return MPRISError(.wait, code: errno) }
            if descriptors[1].revents & Int16(POLLIN) != 0 {
                var count: UInt64 = 0
                _ = read(wakeDescriptor, &count, MemoryLayout<UInt64>.size)
            }
        }
    }

    /// How long `poll` may wait for sd-bus's own deadline (a method call's time-out): -1 for none.
    private func timeoutMilliseconds(_ bus: OpaquePointer) -> Int32 {
        var deadline: UInt64 = 0
        guard sd_bus_get_timeout(bus, &deadline) >= 0, deadline != UInt64.max else { return -1 }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
        guard deadline > nowMicroseconds else { return 0 }
        return Int32(clamping: (deadline - nowMicroseconds + 999) / 1_000)
    }

    /// Performs the model's actions: the player's commands and the app's handlers (with no lock
    /// held), then the signals.
    private func perform(_ actions: [MPRISPlayerModel.Action]) {
        for action in actions {
            switch action {
            case .play(let rate): player.setRate(rate)
            case .pause: player.pause()
            case .setRate(let rate): player.setRate(rate)
            case .seek(let time): player.startSeek(to: time, integrated: true)
            case .next: handlers.next?()
            case .previous: handlers.previous?()
            case .quit: handlers.quit?()
            case .propertiesChanged(let properties): emitPropertiesChanged(properties.map(\.rawValue))
            case .seeked(let position): if let bus { _ = interlude_emit_seeked(bus, position) }
            }
        }
    }

    private func emitPropertiesChanged(_ names: [String]) {
        guard let bus else { return }
        var strings = names.map { strdup($0) } + [nil]
        defer { strings.forEach { free($0) } }
        _ = sd_bus_emit_properties_changed_strv(bus, INTERLUDE_MPRIS_OBJECT_PATH, INTERLUDE_MPRIS_PLAYER_INTERFACE, &strings)
    }

    // MARK: Callbacks (on the bus thread, from sd_bus_process)

    fileprivate func call(_ call: MPRISMethodCall) {
        perform(model.handle(.call(call, current: player.state)))
    }

    fileprivate func value(interface: String, property: String) -> MPRISValue? {
        if interface == INTERLUDE_MPRIS_ROOT_INTERFACE {
            switch property {
            case "CanQuit": return .boolean(handlers.quit != nil)
            case "CanRaise", "HasTrackList": return .boolean(false)
            case "Identity": return .string("Interlude")
            case "SupportedUriSchemes": return .strings(["file", "http", "https"])
            case "SupportedMimeTypes": return .strings(["application/vnd.apple.mpegurl", "application/x-mpegurl", "audio/mpegurl"])
            default: return nil
            }
        }
        guard let property = MPRISPlayerProperty(rawValue: property) else { return nil }
        let position = property == .position ? model.positionMicroseconds(of: player.state) : 0
        return model.properties.value(of: property, positionMicroseconds: position)
    }
}

// MARK: - The C callbacks the vtables point at

private func connection(_ context: UnsafeMutableRawPointer?) -> MPRISBusConnection? {
    context.map { Unmanaged<MPRISBusConnection>.fromOpaque($0).takeUnretainedValue() }
}

private func mprisMethod(message: OpaquePointer?, context: UnsafeMutableRawPointer?, error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
    guard let message, let connection = connection(context), let member = sd_bus_message_get_member(message) else { return -EINVAL }
    let call: MPRISMethodCall?
    switch String(cString: member) {
    case "Play": call = .play
    case "Pause": call = .pause
    case "PlayPause": call = .playPause
    case "Stop": call = .stop
    case "Next": call = .next
    case "Previous": call = .previous
    case "Raise": call = .raise
    case "Quit": call = .quit
    case "Seek":
        var offset: Int64 = 0
        let result = sd_bus_message_read_basic(message, CChar(UInt8(ascii: "x")), &offset)
        guard result > 0 else { return result < 0 ? result : -EINVAL }
        call = .seek(offsetMicroseconds: offset)
    case "SetPosition":
        var path: UnsafePointer<CChar>?
        var position: Int64 = 0
        var result = sd_bus_message_read_basic(message, CChar(UInt8(ascii: "o")), &path)
        if result > 0 { result = sd_bus_message_read_basic(message, CChar(UInt8(ascii: "x")), &position) }
        guard result > 0, let path else { return result < 0 ? result : -EINVAL }
        call = .setPosition(trackID: String(cString: path), positionMicroseconds: position)
    default:
        // OpenUri: the player plays the item the app gives it.
        call = nil
    }
    guard let call else {
        return sd_bus_error_set(error, "org.freedesktop.DBus.Error.NotSupported", "Interlude plays the item its app gives it")
    }
    connection.call(call)
    let result = interlude_reply_empty(message)
    return result < 0 ? result : 1
}

private func mprisGet(bus: OpaquePointer?, path: UnsafePointer<CChar>?, interface: UnsafePointer<CChar>?, property: UnsafePointer<CChar>?,
                      reply: OpaquePointer?, context: UnsafeMutableRawPointer?, error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
    guard let interface, let property, let reply, let connection = connection(context),
          let value = connection.value(interface: String(cString: interface), property: String(cString: property)) else { return -EINVAL }
    return append(value, to: reply)
}

private func mprisSet(bus: OpaquePointer?, path: UnsafePointer<CChar>?, interface: UnsafePointer<CChar>?, property: UnsafePointer<CChar>?,
                      value: OpaquePointer?, context: UnsafeMutableRawPointer?, error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
    guard let property, let value, let connection = connection(context), String(cString: property) == "Rate" else { return -EINVAL }
    var rate = 0.0
    let result = sd_bus_message_read_basic(value, CChar(UInt8(ascii: "d")), &rate)
    guard result > 0 else { return result < 0 ? result : -EINVAL }
    connection.call(.setRate(rate))
    return 0
}

/// Appends `value` to `message` in its D-Bus type; 0 or a negative errno.
private func append(_ value: MPRISValue, to message: OpaquePointer) -> Int32 {
    func type(_ character: Unicode.Scalar) -> CChar { CChar(UInt8(ascii: character)) }
    func appendAll(_ steps: [() -> Int32]) -> Int32 {
        for step in steps {
            let result = step()
            if result < 0 { return result }
        }
        return 0
    }
    switch value {
    case .boolean(let flag):
        var bit: Int32 = flag ? 1 : 0
        return sd_bus_message_append_basic(message, type("b"), &bit)
    case .int64(var number):
        return sd_bus_message_append_basic(message, type("x"), &number)
    case .double(var number):
        return sd_bus_message_append_basic(message, type("d"), &number)
    case .string(let text):
        return text.withCString { sd_bus_message_append_basic(message, type("s"), $0) }
    case .objectPath(let path):
        return path.withCString { sd_bus_message_append_basic(message, type("o"), $0) }
    case .strings(let texts):
        return appendAll([{ sd_bus_message_open_container(message, type("a"), "s") }]
            + texts.map { text in { text.withCString { sd_bus_message_append_basic(message, type("s"), $0) } } }
            + [{ sd_bus_message_close_container(message) }])
    case .dictionary(let entries):
        return appendAll([{ sd_bus_message_open_container(message, type("a"), "{sv}") }]
            + entries.map { entry in {
                appendAll([
                    { sd_bus_message_open_container(message, type("e"), "sv") },
                    { entry.key.withCString { sd_bus_message_append_basic(message, type("s"), $0) } },
                    { sd_bus_message_open_container(message, type("v"), entry.value.signature) },
                    { append(entry.value, to: message) },
                    { sd_bus_message_close_container(message) },
                    { sd_bus_message_close_container(message) },
                ])
            } }
            + [{ sd_bus_message_close_container(message) }])
    }
}
