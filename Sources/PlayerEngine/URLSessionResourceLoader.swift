import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Loads over real HTTP(S) with Foundation's `URLSession` (libcurl on Linux), and `file://` URLs
/// from disk; measures each load on a continuous clock for throughput estimates.
///
/// Nothing a server sends can hold a load for ever or fill memory: a response is read as it
/// arrives and cut off as soon as it passes the request's ``ResourceRequest/maxBytes`` (or the
/// loader's `maxBytes`); a server that sends nothing for `timeout` seconds, or that drips bytes
/// so slowly that the whole response takes longer than `deadline`, fails the load with a
/// ``LoadError/Kind/timeout`` that says which limit ran out.
public final class URLSessionResourceLoader: ResourceLoader {
    private let session: URLSession
    private let transfers: Transfers
    private let timeout: TimeInterval
    private let deadline: TimeInterval
    private let maxBytes: Int

    /// A loader with its own session. `timeout`: the longest wait for the next bytes; `deadline`:
    /// the longest a whole response may take; `maxBytes`: the limit for requests that set none.
    public init(timeout: TimeInterval = 15, deadline: TimeInterval = 60, maxBytes: Int = 64 << 20) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = deadline
        let transfers = Transfers()
        self.transfers = transfers
        self.session = URLSession(configuration: configuration, delegate: transfers, delegateQueue: nil)
        self.timeout = timeout
        self.deadline = deadline
        self.maxBytes = maxBytes
    }

    // The session is not invalidated: a task still running (one whose load was abandoned, which
    // stops at its next bytes) could no longer be stopped, and cancelling it here could race its
    // completion. An idle session holds no connection and little memory.

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
        var urlRequest = URLRequest(url: url, timeoutInterval: timeout)
        if let range = request.rangeHeader { urlRequest.setValue(range, forHTTPHeaderField: "Range") }
        let task = session.dataTask(with: urlRequest)
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Transfers.Outcome, Never>) in
                guard !Task.isCancelled else { return continuation.resume(returning: .failed(URLError(.cancelled))) }
                transfers.begin(task, limit: limit, continuation: continuation)
                // A deadline of our own as well as the session's: libcurl's resource time-out is
                // not applied everywhere.
                let seconds = deadline
                DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [transfers] in transfers.end(task, with: .expired) }
            }
        } onCancel: {
            transfers.end(task, with: .failed(URLError(.cancelled)))
        }
        switch outcome {
        case .tooLarge:
            throw LoadError.tooLarge(request.url, limit: limit)
        case .expired:
            throw LoadError(kind: .timeout, url: request.url, message: "timed out after \(Self.seconds(deadline)): the whole response took longer than that")
        case .failed(let error as URLError):
            switch error.code {
            case .timedOut:
                throw LoadError(kind: .timeout, url: request.url, message: "timed out after \(Self.seconds(timeout)) with no data from the server")
            case .cancelled:
                throw LoadError(kind: .cancelled, url: request.url, message: "cancelled")
            case .cannotConnectToHost:
                throw LoadError(kind: .network, url: request.url, message: "cannot connect to the server (connection refused)")
            case .networkConnectionLost:
                throw LoadError(kind: .network, url: request.url, message: "the connection was lost before the response was complete")
            case .cannotFindHost:
                throw LoadError(kind: .network, url: request.url, message: "cannot find the host \(url.host ?? "")")
            default:
                throw LoadError(kind: .network, url: request.url, message: error.localizedDescription)
            }
        case .failed(let error):
            throw LoadError(kind: .network, url: request.url, message: "\(error)")
        case .completed(let data, let response):
            let finalURL = response.url?.absoluteString ?? request.url
            if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
                let kind: LoadError.Kind = http.statusCode == 404 || http.statusCode == 410 ? .notFound : .httpStatus
                throw LoadError(kind: kind, url: request.url, status: http.statusCode, message: "HTTP \(http.statusCode)")
            }
            return LoadedResource(bytes: Array(data), url: finalURL, elapsed: start.duration(to: clock.now))
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

/// The session's delegate: collects each task's bytes, and resumes the waiting load once,
/// whichever comes first: the task's end, the load's cancellation, its deadline, or its limit.
///
/// A load that ends before its task does leaves the task behind, marked; the task is stopped from
/// the next bytes it delivers (or ends by itself, bounded by the idle time-out). The task is
/// never cancelled from anywhere else: FoundationNetworking traps when a task is cancelled
/// while it completes on its own, and inside a data callback it cannot be completing. Every call
/// out (cancelling a task, resuming a load) happens after the lock is let go.
private final class Transfers: NSObject, URLSessionDataDelegate, Sendable {
    enum Outcome: @unchecked Sendable {
        case completed(Data, URLResponse)
        case failed(any Error)
        case tooLarge
        case expired
    }

    private struct Transfer {
        var limit: Int
        /// The load waiting for this task; `nil` once it has been resumed.
        var continuation: CheckedContinuation<Outcome, Never>?
        var data = Data()
        var response: URLResponse?
        /// Whether the task has been told to stop.
        var isCancelled = false
    }

    private let transfers = Mutex<[Int: Transfer]>([:])

    func begin(_ task: URLSessionDataTask, limit: Int, continuation: CheckedContinuation<Outcome, Never>) {
        transfers.withLock { $0[task.taskIdentifier] = Transfer(limit: limit, continuation: continuation) }
        task.resume()
    }

    /// Ends the load now with `outcome` (cancelled, or past its deadline), if it has not ended;
    /// the task is left to be stopped from its next bytes.
    func end(_ task: URLSessionTask, with outcome: Outcome) {
        let continuation = transfers.withLock { transfers -> CheckedContinuation<Outcome, Never>? in
            guard let continuation = transfers[task.taskIdentifier]?.continuation else { return nil }
            transfers[task.taskIdentifier]?.continuation = nil
            transfers[task.taskIdentifier]?.data = Data()
            return continuation
        }
        continuation?.resume(returning: outcome)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let (tooLarge, abandoned) = transfers.withLock { transfers -> (Bool, Bool) in
            guard let transfer = transfers[dataTask.taskIdentifier] else { return (false, true) }
            transfers[dataTask.taskIdentifier]?.response = response
            return (response.expectedContentLength > Int64(transfer.limit), transfer.continuation == nil)
        }
        completionHandler(tooLarge || abandoned ? .cancel : .allow)
        if tooLarge { end(dataTask, with: .tooLarge) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        enum Step { case keep, tooLarge, stop, nothing }
        let step = transfers.withLock { transfers -> Step in
            guard var transfer = transfers[dataTask.taskIdentifier] else { return .nothing }
            guard transfer.continuation != nil else {
                if transfer.isCancelled { return .nothing }
                transfers[dataTask.taskIdentifier]?.isCancelled = true
                return .stop
            }
            guard transfer.data.count + data.count <= transfer.limit else { return .tooLarge }
            transfers[dataTask.taskIdentifier] = nil
            transfer.data.append(data)
            transfers[dataTask.taskIdentifier] = transfer
            return .keep
        }
        switch step {
        case .keep, .nothing:
            break
        case .tooLarge:
            // Stopped before the load ends: the loader (and its session) may go away as soon as
            // it does.
            transfers.withLock { $0[dataTask.taskIdentifier]?.isCancelled = true }
            dataTask.cancel()
            end(dataTask, with: .tooLarge)
        case .stop:
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }), let continuation = transfer.continuation else { return }
        let outcome: Outcome
        if let error {
            outcome = .failed(error)
        } else if let response = transfer.response ?? task.response {
            outcome = .completed(transfer.data, response)
        } else {
            outcome = .failed(URLError(.badServerResponse))
        }
        continuation.resume(returning: outcome)
    }
}
