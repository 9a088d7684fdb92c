import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Loads over real HTTP(S) with Foundation's `URLSession` (libcurl on Linux), and `file://` URLs
/// from disk; measures each load on a continuous clock for throughput estimates.
public final class URLSessionResourceLoader: ResourceLoader {
    private let session: URLSession
    private let timeout: TimeInterval

    /// A loader with its own session; `timeout` bounds each request.
    public init(timeout: TimeInterval = 30) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        self.session = URLSession(configuration: configuration)
        self.timeout = timeout
    }

    public func load(_ request: ResourceRequest) async throws(LoadError) -> LoadedResource {
        guard let url = URL(string: request.url), let scheme = url.scheme?.lowercased() else {
            throw LoadError(kind: .unsupportedURL, url: request.url, message: "not a URL")
        }
        let clock = ContinuousClock()
        let start = clock.now
        if scheme == "file" {
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw LoadError(kind: .notFound, url: request.url, message: "no such file")
            }
            var bytes = Array(data)
            if let range = request.byteRange {
                guard range.offset + range.length <= bytes.count else {
                    throw LoadError(kind: .httpStatus, url: request.url, status: 416, message: "byte range outside the file")
                }
                bytes = Array(bytes[range.offset..<(range.offset + range.length)])
            }
            return LoadedResource(bytes: bytes, url: request.url, elapsed: start.duration(to: clock.now))
        }
        guard scheme == "http" || scheme == "https" else {
            throw LoadError(kind: .unsupportedURL, url: request.url, message: "the \(scheme) scheme is not supported")
        }
        var urlRequest = URLRequest(url: url, timeoutInterval: timeout)
        if let range = request.rangeHeader { urlRequest.setValue(range, forHTTPHeaderField: "Range") }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch let error as URLError {
            throw LoadError(kind: error.code == .timedOut ? .timeout : error.code == .cancelled ? .cancelled : .network,
                            url: request.url, message: error.localizedDescription)
        } catch {
            throw LoadError(kind: .network, url: request.url, message: "\(error)")
        }
        let finalURL = response.url?.absoluteString ?? request.url
        if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
            let kind: LoadError.Kind = http.statusCode == 404 || http.statusCode == 410 ? .notFound : .httpStatus
            throw LoadError(kind: kind, url: request.url, status: http.statusCode, message: "HTTP \(http.statusCode)")
        }
        return LoadedResource(bytes: Array(data), url: finalURL, elapsed: start.duration(to: clock.now))
    }
}
