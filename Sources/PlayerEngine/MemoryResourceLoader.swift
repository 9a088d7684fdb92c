import Synchronization

/// Serves resources from memory, on a clock: each load waits a latency plus the time its bytes take
/// at a throughput, so buffering, stalls and variant switching can be tested and simulated on
/// virtual time. Resources and network conditions can change while loads are running.
public final class MemoryResourceLoader<C: Clock>: ResourceLoader where C.Duration == Duration {
    /// The network conditions loads see.
    public struct Conditions: Sendable, Hashable {
        /// Time to first byte.
        public var latency: Duration
        /// Bytes per second after the first byte; `nil` = instant.
        public var bytesPerSecond: Int?

        /// Conditions.
        public init(latency: Duration = .zero, bytesPerSecond: Int? = nil) {
            self.latency = latency
            self.bytesPerSecond = bytesPerSecond
        }
    }

    private struct State {
        var resources: [String: [UInt8]] = [:]
        var generators: [String: @Sendable (Duration) -> [UInt8]?] = [:]
        var failures: [String: LoadError] = [:]
        var outage: LoadError?
        var conditions: Conditions
        var requests: [ResourceRequest] = []
    }

    private let clock: C
    private let origin: C.Instant
    private let state: Mutex<State>

    /// A loader on `clock` with `conditions`.
    public init(clock: C, conditions: Conditions = Conditions()) {
        self.clock = clock
        self.origin = clock.now
        self.state = Mutex(State(conditions: conditions))
    }

    /// Serves `bytes` at `url` (replacing what was there).
    public func set(_ url: String, _ bytes: [UInt8]) { state.withLock { $0.resources[url] = bytes } }

    /// Serves `text` as UTF-8 at `url`.
    public func set(_ url: String, text: String) { set(url, Array(text.utf8)) }

    /// Serves what `generator` makes for the time of each request (since the loader was made), so
    /// that a live playlist can grow as time passes; `nil` from it is a 404.
    public func set(_ url: String, generator: @escaping @Sendable (Duration) -> [UInt8]?) {
        state.withLock { $0.generators[url] = generator }
    }

    /// Makes every load of `url` fail with `error` (or succeed again with `nil`).
    public func fail(_ url: String, with error: LoadError?) { state.withLock { $0.failures[url] = error } }

    /// Makes every load that starts from now on fail with `error`, whatever its URL, as a server
    /// that went away would (`nil`: the server is back).
    public func setOutage(_ error: LoadError?) { state.withLock { $0.outage = error } }

    /// Changes the conditions for loads that start from now on.
    public func setConditions(_ conditions: Conditions) { state.withLock { $0.conditions = conditions } }

    /// Every request made so far, in order.
    public var requests: [ResourceRequest] { state.withLock { $0.requests } }

    public func load(_ request: ResourceRequest) async throws(LoadError) -> LoadedResource {
        let elapsed = origin.duration(to: clock.now)
        let (stored, generator, failure, conditions) = state.withLock { state -> ([UInt8]?, (@Sendable (Duration) -> [UInt8]?)?, LoadError?, Conditions) in
            state.requests.append(request)
            let url = Self.withoutQuery(request.url)
            return (state.resources[request.url] ?? state.resources[url], state.generators[request.url] ?? state.generators[url],
                    state.outage ?? state.failures[request.url] ?? state.failures[url], state.conditions)
        }
        let bytes = stored ?? generator?(elapsed)
        let start = clock.now
        var body = bytes ?? []
        if let range = request.byteRange, bytes != nil {
            guard range.offset >= 0, range.length >= 0, range.offset + range.length <= body.count else {
                throw LoadError(kind: .httpStatus, url: request.url, status: 416, message: "byte range \(range.offset)+\(range.length) is outside the \(body.count)-byte resource")
            }
            body = Array(body[range.offset..<(range.offset + range.length)])
        }
        var wait = conditions.latency
        if let rate = conditions.bytesPerSecond, rate > 0 {
            wait += .nanoseconds(Int64(body.count) * 1_000_000_000 / Int64(rate))
        }
        do {
            try await clock.sleep(for: wait)
        } catch {
            throw LoadError(kind: .cancelled, url: request.url, message: "cancelled")
        }
        if let failure { throw failure }
        guard bytes != nil else {
            throw LoadError(kind: .notFound, url: request.url, status: 404, message: "not found")
        }
        if let limit = request.maxBytes, body.count > limit { throw LoadError.tooLarge(request.url, limit: limit) }
        return LoadedResource(bytes: body, url: request.url, elapsed: start.duration(to: clock.now))
    }

    private static func withoutQuery(_ url: String) -> String {
        url.firstIndex(of: "?").map { String(url[..<$0]) } ?? url
    }
}
