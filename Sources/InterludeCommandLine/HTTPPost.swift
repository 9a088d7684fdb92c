internal import CLibCurl
import Foundation

/// One HTTP POST through libcurl (the engine's HTTP library): `session create` and `session
/// revoke` talking to a group server, over `https://` with the system's CAs or a given one.
enum HTTPPost {
    /// The response's status and body (at most 64 KiB).
    struct Response {
        var status: Int
        var body: String
    }

    private final class Body {
        var bytes: [UInt8] = []
    }

    /// Posts `body` (JSON) to `url` with `Authorization: Bearer <bearer>`; `certificateAuthority`
    /// is a PEM file to trust instead of the system's.
    ///
    /// - Throws: ``CommandFailure`` when the server cannot be reached.
    static func json(_ url: String, bearer: String, body: String, certificateAuthority: String?, timeout: Int = 10) throws -> Response {
        guard let curl = curl_easy_init() else { throw CommandFailure(message: "libcurl could not make a handle") }
        defer { curl_easy_cleanup(curl) }
        var headers: UnsafeMutablePointer<curl_slist>?
        headers = curl_slist_append(headers, "Authorization: Bearer \(bearer)")
        headers = curl_slist_append(headers, "Content-Type: application/json")
        defer { curl_slist_free_all(headers) }
        let received = Body()
        let context = Unmanaged.passUnretained(received).toOpaque()
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { buffer in
            interlude_curl_set_string(curl, CURLOPT_URL, url)
            interlude_curl_set_string(curl, CURLOPT_PROTOCOLS_STR, "http,https")
            interlude_curl_set_string(curl, CURLOPT_USERAGENT, "Interlude")
            interlude_curl_set_long(curl, CURLOPT_NOSIGNAL, 1)
            interlude_curl_set_long(curl, CURLOPT_TIMEOUT, timeout)
            interlude_curl_set_string(curl, CURLOPT_COPYPOSTFIELDS, body)
            interlude_curl_set_pointer(curl, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headers))
            if let certificateAuthority { interlude_curl_set_string(curl, CURLOPT_CAINFO, certificateAuthority) }
            interlude_curl_set_pointer(curl, CURLOPT_ERRORBUFFER, buffer.baseAddress)
            interlude_curl_set_write_callback(curl) { data, size, count, context in
                guard let data, let context else { return 0 }
                let body = Unmanaged<Body>.fromOpaque(context).takeUnretainedValue()
                guard body.bytes.count + size * count <= 65_536 else { return 0 }
                body.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: size * count))
                return size * count
            }
            interlude_curl_set_pointer(curl, CURLOPT_WRITEDATA, context)
            return curl_easy_perform(curl)
        }
        guard code == CURLE_OK else {
            let detail = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw CommandFailure(message: "cannot reach the group server at \(url): \(detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail) (is `interlude serve` running?)")
        }
        var status = 0
        interlude_curl_get_long(curl, CURLINFO_RESPONSE_CODE, &status)
        return Response(status: status, body: String(decoding: received.bytes, as: UTF8.self))
    }
}
