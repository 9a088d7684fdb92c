import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkIO
import Synchronization
import Testing

/// Runs `body` against a server listening on 127.0.0.1 on a free port, then shuts the server
/// down and waits for `run()` to return.
func withServer<T>(
    _ router: HTTPRouter,
    configuration: HTTPServer.Configuration = HTTPServer.Configuration(),
    _ body: (HTTPServer, Int) async throws -> T
) async throws -> T {
    let server = HTTPServer(configuration: configuration, router: router)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await server.run() }
        do {
            let port = try await server.listeningPort()
            let result = try await body(server, port)
            server.shutdown()
            try await group.waitForAll()
            return result
        } catch {
            server.shutdown()
            try? await group.waitForAll()
            throw error
        }
    }
}

/// A response as a test looks at it.
struct FetchedResponse {
    var status: Int
    var headers: [String: String]
    var body: Data

    func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as a JSON object.
    func json() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    }
}

/// One HTTP request with URLSession (FoundationNetworking, libcurl underneath).
func fetch(
    _ url: String,
    method: String = "GET",
    headers: [String: String] = [:],
    body: Data? = nil
) async throws -> FetchedResponse {
    var request = URLRequest(url: try #require(URL(string: url)))
    request.httpMethod = method
    request.timeoutInterval = 30
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    request.httpBody = body
    let (data, response) = try await URLSession.shared.data(for: request)
    let http = try #require(response as? HTTPURLResponse)
    var fields: [String: String] = [:]
    for (name, value) in http.allHeaderFields {
        if let name = name as? String, let value = value as? String { fields[name] = value }
    }
    return FetchedResponse(status: http.statusCode, headers: fields, body: data)
}

/// Polls `condition` until it holds or `timeout` passes. For state the code under test exposes
/// no event for (a counter reaching a value); the timeout is generous for a loaded machine.
func eventually(
    timeout: Duration = .seconds(30),
    _ condition: () async throws -> Bool
) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(5))
    }
    return try await condition()
}

/// A value set once by one task and awaited by others; later sends are ignored.
final class Signal<Value: Sendable>: Sendable {
    private let state = Mutex<(value: Value?, waiters: [CheckedContinuation<Value, Never>])>((nil, []))

    init() {}

    func send(_ value: Value) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value, Never>] in
            guard state.value == nil else { return [] }
            state.value = value
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: value) }
    }

    var value: Value {
        get async {
            await withCheckedContinuation { continuation in
                let value = state.withLock { state -> Value? in
                    if state.value == nil { state.waiters.append(continuation) }
                    return state.value
                }
                if let value { continuation.resume(returning: value) }
            }
        }
    }
}

/// A thread-safe list tests append to from handlers and access logs.
final class Collected<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])

    init() {}

    func append(_ item: Element) { items.withLock { $0.append(item) } }
    var all: [Element] { items.withLock { $0 } }
}

/// The operation did not finish in time.
struct TimedOut: Error, CustomStringConvertible {
    var description: String { "timed out" }
}

/// The operation's result, or `TimedOut` after `timeout`, so a broken behaviour fails the test
/// instead of hanging it (the operation is left to finish on its own).
func withTimeout<T: Sendable>(
    _ timeout: Duration = .seconds(30),
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = Signal<Result<T, any Error>>()
    Task {
        do { outcome.send(.success(try await operation())) } catch { outcome.send(.failure(error)) }
    }
    Task {
        try? await Task.sleep(for: timeout)
        outcome.send(.failure(TimedOut()))
    }
    return try await outcome.value.get()
}

/// A counter tasks bump and tests read.
final class Counter: Sendable {
    private let count = Mutex(0)

    init() {}

    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
