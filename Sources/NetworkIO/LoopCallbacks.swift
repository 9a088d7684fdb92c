internal import CLibWebSockets

// libwebsockets calls back through C function pointers, which Swift can only form from top-level
// functions (dependencies.md: a closure stored in a global becomes actor-isolated under Swift 6).

/// The callback of the primary protocol: HTTP, WebSockets without a subprotocol, client
/// connections, and the inbox wake-up.
func interludePrimaryProtocolCallback(
    _ wsi: OpaquePointer?,
    _ reason: lws_callback_reasons,
    _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?,
    _ length: Int
) -> Int32 {
    guard let wsi, let driver = LoopDriver.driver(of: wsi) else {
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
    return driver.handle(wsi, reason, user, input, length)
}

/// The callback of the subprotocol entries. `LWS_CALLBACK_EVENT_WAIT_CANCELLED` is broadcast to
/// every protocol; only the primary one drains the inbox.
func interludeSubprotocolCallback(
    _ wsi: OpaquePointer?,
    _ reason: lws_callback_reasons,
    _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?,
    _ length: Int
) -> Int32 {
    if reason == LWS_CALLBACK_EVENT_WAIT_CANCELLED { return 0 }
    guard let wsi, let driver = LoopDriver.driver(of: wsi) else {
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
    return driver.handle(wsi, reason, user, input, length)
}

/// The service loop's libev timer fired (see `LoopTimers`).
func interludeLoopTimerFired(_ owner: UnsafeMutableRawPointer?) {
    guard let owner else { return }
    Unmanaged<LoopDriver>.fromOpaque(owner).takeUnretainedValue().timersFired()
}

/// An accepted connection's socket is readable, before lws reads it (see `LoopDriver+Gate`).
func interludeGateReadable(_ owner: UnsafeMutableRawPointer?, _ wsi: OpaquePointer?, _ descriptor: Int32) {
    guard let owner, let wsi else { return }
    Unmanaged<LoopDriver>.fromOpaque(owner).takeUnretainedValue().gateReadable(wsi, descriptor: descriptor)
}
