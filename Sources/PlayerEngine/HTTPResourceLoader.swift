import CLibCurl
import Foundation
import Synchronization

/// Loads over real HTTP(S) with libcurl's easy interface, and `file://` URLs from disk; measures
/// each load on a continuous clock for throughput estimates.
///
/// Nothing a server sends can hold a load for ever or fill memory. libcurl hands the body over
/// synchronously as it reads it, so a response is cut off the moment it passes the request's
/// ``ResourceRequest/maxBytes`` (or the loader's `maxBytes`; a `Content-Length` over it is refused
/// before the body), and nothing is read ahead of that check. A server that sends nothing for
/// `timeout` seconds, or that drips a response for longer than `deadline`, fails the load with a
/// ``LoadError/Kind/timeout`` that says which limit ran out. A cancelled load ends at once; its
/// transfer stops at libcurl's next progress call (within about a second, usually at once).
///
/// Each load runs `curl_easy_perform` on a thread of its own; finished handles are kept for the
/// next loads, so connections to the same server are reused.
public final class HTTPResourceLoader: ResourceLoader {
    private let timeout: TimeInterval
    private let deadline: TimeInterval
    private let maxBytes: Int
    private let handles = Mutex<[Handle]>([])

    /// A loader. `timeout`: the longest wait for the connection or for the next bytes; `deadline`:
    /// the longest a whole response may take; `maxBytes`: the limit for requests that set none.
    public init(timeout: TimeInterval = 15, deadline: TimeInterval = 60, maxBytes: Int = 64 << 20) {
        Self.initializeOnce
        self.timeout = timeout
        self.deadline = deadline
        self.maxBytes = maxBytes
    }

    deinit {
        for handle in handles.withLock({ $0 }) { curl_easy_cleanup(handle.pointer) }
    }

    private static let initializeOnce: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    public func load(_ request: ResourceRequest) async throws(LoadError) -> LoadedResource {
        guard let url = URL(string: request.url), let scheme = url.scheme?.lowercased() else {
            throw LoadError(kind: .unsupportedURL, url: request.url, message: "not a URL")
        }
        let limit = request.maxBytes ?? maxBytes
        let clock = ContinuousClock()
        let start = clock.now
        if scheme == "file" {
            let bytes = try Self.readFile(url.path, request: request, limit: limit)
            return LoadedResource(bytes: bytes, url: request.url, elapsed: start.duration(to: clock.now))
        }
        guard scheme == "http" || scheme == "https" else {
            throw LoadError(kind: .unsupportedURL, url: request.url, message: "the \(scheme) scheme is not supported")
        }
        let transfer = Transfer(limit: limit)
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Transfer.Outcome, Never>) in
                guard transfer.begin(continuation) else { return }
                Thread.detachNewThread { [self] in
                    let handle = takeHandle()
                    let outcome = perform(request, transfer, on: handle)
                    giveBack(handle)
                    transfer.finish(outcome)
                }
            }
        } onCancel: {
            transfer.cancel()
        }
        switch outcome {
        case .completed(let bytes, let status, let finalURL):
            guard (200..<300).contains(status) else {
                let kind: LoadError.Kind = status == 404 || status == 410 ? .notFound : .httpStatus
                throw LoadError(kind: kind, url: request.url, status: status, message: "HTTP \(status)")
            }
            return LoadedResource(bytes: bytes, url: finalURL, elapsed: start.duration(to: clock.now))
        case .failed(let kind, let message):
            throw kind == .tooLarge ? LoadError.tooLarge(request.url, limit: limit) : LoadError(kind: kind, url: request.url, message: message)
        }
    }

    // MARK: Handles

    private struct Handle: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
    }

    private func takeHandle() -> Handle {
        if let handle = handles.withLock({ $0.popLast() }) {
            curl_easy_reset(handle.pointer)
            return handle
        }
        return Handle(pointer: curl_easy_init())
    }

    private func giveBack(_ handle: Handle) {
        let kept = handles.withLock { handles -> Bool in
            guard handles.count < 8 else { return false }
            handles.append(handle)
            return true
        }
        if !kept { curl_easy_cleanup(handle.pointer) }
    }

    // MARK: One transfer

    /// Runs the transfer on this thread (it blocks until the response is in, or a limit or the
    /// cancellation stops it).
    private func perform(_ request: ResourceRequest, _ transfer: Transfer, on handle: Handle) -> Transfer.Outcome {
        let curl = handle.pointer
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let idleSeconds = max(1, Int(timeout.rounded(.up)))
        let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { buffer in
            interlude_curl_set_string(curl, CURLOPT_URL, request.url)
            interlude_curl_set_string(curl, CURLOPT_PROTOCOLS_STR, "http,https")
            interlude_curl_set_string(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
            interlude_curl_set_string(curl, CURLOPT_USERAGENT, "Interlude")
            interlude_curl_set_long(curl, CURLOPT_FOLLOWLOCATION, 1)
            interlude_curl_set_long(curl, CURLOPT_MAXREDIRS, 10)
            interlude_curl_set_long(curl, CURLOPT_NOSIGNAL, 1)
            interlude_curl_set_long(curl, CURLOPT_CONNECTTIMEOUT_MS, Int(timeout * 1000))
            interlude_curl_set_long(curl, CURLOPT_TIMEOUT_MS, Int(deadline * 1000))
            // Less than a byte a second for the idle time-out is no data at all.
            interlude_curl_set_long(curl, CURLOPT_LOW_SPEED_LIMIT, 1)
            interlude_curl_set_long(curl, CURLOPT_LOW_SPEED_TIME, idleSeconds)
            interlude_curl_set_offset(curl, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(transfer.limit))
            if let range = request.rangeHeader { interlude_curl_set_string(curl, CURLOPT_RANGE, String(range.dropFirst("bytes=".count))) }
            interlude_curl_set_pointer(curl, CURLOPT_ERRORBUFFER, buffer.baseAddress)
            interlude_curl_set_write_callback(curl) { data, size, count, context in
                guard let data, let context else { return 0 }
                let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
                return transfer.append(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
            }
            interlude_curl_set_pointer(curl, CURLOPT_WRITEDATA, context)
            interlude_curl_set_long(curl, CURLOPT_NOPROGRESS, 0)
            interlude_curl_set_progress_callback(curl) { context, _, _, _, _ in
                guard let context else { return 0 }
                return Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue().isCancelled ? 1 : 0
            }
            interlude_curl_set_pointer(curl, CURLOPT_XFERINFODATA, context)
            let code = curl_easy_perform(curl)
            // The handle goes back to the pool: it must not keep pointers into this frame.
            interlude_curl_set_pointer(curl, CURLOPT_ERRORBUFFER, nil)
            return code
        }
        let detail = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        switch code {
        case CURLE_OK:
            var status = 0
            interlude_curl_get_long(curl, CURLINFO_RESPONSE_CODE, &status)
            var effective: UnsafeMutablePointer<CChar>?
            interlude_curl_get_string(curl, CURLINFO_EFFECTIVE_URL, &effective)
            let finalURL = effective.map { String(cString: $0) } ?? request.url
            return .completed(transfer.takeBytes(), status: status, url: finalURL)
        case CURLE_FILESIZE_EXCEEDED:
            return .failed(.tooLarge, "")
        case CURLE_WRITE_ERROR where transfer.isTooLarge:
            return .failed(.tooLarge, "")
        case CURLE_ABORTED_BY_CALLBACK:
            return .failed(.cancelled, "cancelled")
        case CURLE_OPERATION_TIMEDOUT:
            if detail.contains("onnect") {
                return .failed(.timeout, "timed out after \(Self.seconds(timeout)) connecting to the server")
            }
            if detail.contains("Operation too slow") {
                return .failed(.timeout, "timed out after \(Self.seconds(TimeInterval(idleSeconds))) with no data from the server")
            }
            return .failed(.timeout, "timed out after \(Self.seconds(deadline)): the whole response took longer than that")
        case CURLE_COULDNT_CONNECT:
            return .failed(.network, "cannot connect to the server (connection refused)")
        case CURLE_COULDNT_RESOLVE_HOST:
            return .failed(.network, "cannot find the host (\(detail))")
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE:
            return .failed(.network, "the connection was lost before the response was complete")
        default:
            let reason = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
            return .failed(.network, reason)
        }
    }

    /// A file's bytes, or the requested range of them, reading no more than `limit` (a device
    /// such as `/dev/zero` never ends).
    private static func readFile(_ path: String, request: ResourceRequest, limit: Int) throws(LoadError) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw LoadError(kind: .notFound, url: request.url, message: "no such file")
        }
        defer { try? handle.close() }
        do {
            if let range = request.byteRange {
                guard range.length <= limit else { throw LoadError.tooLarge(request.url, limit: limit) }
                try handle.seek(toOffset: UInt64(range.offset))
                let data = try handle.read(upToCount: range.length) ?? Data()
                guard data.count == range.length else {
                    throw LoadError(kind: .httpStatus, url: request.url, status: 416, message: "byte range outside the file")
                }
                return Array(data)
            }
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            guard data.count <= limit else { throw LoadError.tooLarge(request.url, limit: limit) }
            return Array(data)
        } catch let error as LoadError {
            throw error
        } catch {
            throw LoadError(kind: .notFound, url: request.url, message: "cannot read the file: \(error.localizedDescription)")
        }
    }

    private static func seconds(_ interval: TimeInterval) -> String {
        interval.rounded() == interval ? "\(Int(interval)) s" : "\(interval) s"
    }
}

/// One load's shared state between the waiting task and the thread running libcurl: the body so
/// far, the cancellation flag, and the continuation, resumed once by whichever comes first (the
/// transfer's end or the cancellation).
private final class Transfer: Sendable {
    enum Outcome: Sendable {
        case completed([UInt8], status: Int, url: String)
        case failed(LoadError.Kind, String)
    }

    private struct State {
        var continuation: CheckedContinuation<Outcome, Never>?
        var bytes: [UInt8] = []
        var isCancelled = false
        var isTooLarge = false
    }

    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) { self.limit = limit }

    var isCancelled: Bool { state.withLock { $0.isCancelled } }
    var isTooLarge: Bool { state.withLock { $0.isTooLarge } }

    /// Keeps the continuation; `false` (and it is resumed) when the load was cancelled already.
    func begin(_ continuation: CheckedContinuation<Outcome, Never>) -> Bool {
        let cancelled = state.withLock { state -> Bool in
            if state.isCancelled { return true }
            state.continuation = continuation
            return false
        }
        if cancelled { continuation.resume(returning: .failed(.cancelled, "cancelled")) }
        return !cancelled
    }

    /// Adds bytes; `false` when they would pass the limit (the transfer then stops).
    func append(_ data: UnsafeRawBufferPointer) -> Bool {
        state.withLock { state in
            guard !state.isCancelled else { return false }
            guard state.bytes.count + data.count <= limit else {
                state.isTooLarge = true
                return false
            }
            state.bytes.append(contentsOf: data)
            return true
        }
    }

    func takeBytes() -> [UInt8] { state.withLock { state in defer { state.bytes = [] }; return state.bytes } }

    func cancel() {
        let continuation = state.withLock { state -> CheckedContinuation<Outcome, Never>? in
            state.isCancelled = true
            state.bytes = []
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: .failed(.cancelled, "cancelled"))
    }

    func finish(_ outcome: Outcome) {
        let continuation = state.withLock { state in defer { state.continuation = nil }; return state.continuation }
        continuation?.resume(returning: outcome)
    }
}
