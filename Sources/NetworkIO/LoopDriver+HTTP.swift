internal import CLibWebSockets
import Glibc

/// HTTP on the service thread: requests are read out of libwebsockets' header table into an
/// `HTTPRequest`, routed, and answered either at once (files, errors, preflight) or by a handler
/// task whose response comes back through the inbox. Responses are assembled in the send buffer
/// and written in chunks of at most `sendChunkBytes`, one `lws_write` per writable callback.
extension LoopDriver {
    /// The header tokens libwebsockets parses, with their lower-case names.
    private static let requestHeaderTokens: [(token: UInt32, name: String)] = {
        var tokens: [(UInt32, String)] = []
        for raw in 0..<WSI_TOKEN_COUNT.rawValue {
            guard let text = lws_token_to_string(lws_token_indexes(rawValue: raw)) else { continue }
            let name = String(cString: text)
            guard name.hasSuffix(":"), !name.hasPrefix(":") else { continue }
            tokens.append((raw, String(name.dropLast())))
        }
        return tokens
    }()

    static func requestHeaders(of wsi: OpaquePointer) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for (token, name) in requestHeaderTokens {
            if let value = header(lws_token_indexes(rawValue: token), of: wsi) { headers.add(name: name, value: value) }
        }
        return headers
    }

    /// The query items; libwebsockets splits the query at `&` and percent-decodes each item.
    static func queryItems(of wsi: OpaquePointer) -> [HTTPQueryItem] {
        var items: [HTTPQueryItem] = []
        var index: Int32 = 0
        while true {
            let length = Int(lws_hdr_fragment_length(wsi, WSI_TOKEN_HTTP_URI_ARGS, index))
            guard length > 0 else { break }
            let item = withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { buffer -> String in
                let copied = lws_hdr_copy_fragment(wsi, buffer.baseAddress, Int32(length + 1), WSI_TOKEN_HTTP_URI_ARGS, index)
                guard copied >= 0 else { return "" }
                return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: Int(copied)), as: UTF8.self)
            }
            if !item.isEmpty {
                if let equals = item.firstIndex(of: "=") {
                    items.append(HTTPQueryItem(name: String(item[..<equals]), value: String(item[item.index(after: equals)...])))
                } else {
                    items.append(HTTPQueryItem(name: item, value: ""))
                }
            }
            index += 1
        }
        return items
    }

    private static func method(ofIndex index: Int32) -> HTTPMethod? {
        switch Int(index) {
        case LWSHUMETH_GET: .get
        case LWSHUMETH_POST: .post
        case LWSHUMETH_OPTIONS: .options
        case LWSHUMETH_PUT: .put
        case LWSHUMETH_PATCH: .patch
        case LWSHUMETH_DELETE: .delete
        case LWSHUMETH_HEAD: .head
        case LWSHUMETH_CONNECT: HTTPMethod(rawValue: "CONNECT")
        default: nil
        }
    }

    /// What `HTTPRequestCheck` needs from the wsi's header table.
    private static func requestCheck(of wsi: OpaquePointer, pathBytes: [UInt8], headers: HTTPHeaders) -> HTTPRequestCheck {
        var hosts: [String] = []
        var index: Int32 = 0
        while true {
            let length = Int(lws_hdr_fragment_length(wsi, WSI_TOKEN_HOST, index))
            guard length > 0 else { break }
            let value = withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { buffer -> String in
                let copied = lws_hdr_copy_fragment(wsi, buffer.baseAddress, Int32(length + 1), WSI_TOKEN_HOST, index)
                guard copied >= 0 else { return "" }
                return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: Int(copied)), as: UTF8.self)
            }
            hosts.append(value)
            index += 1
        }
        let queryBytes = Int(lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_URI_ARGS))
        return HTTPRequestCheck(
            version: header(WSI_TOKEN_HTTP, of: wsi),
            hosts: hosts,
            pathBytes: pathBytes,
            targetBytes: pathBytes.count + (queryBytes > 0 ? queryBytes + 1 : 0),
            headerBytes: headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        )
    }

    /// Answers bytes lws's HTTP parser could not take as a request (they arrive here in the raw
    /// role, `LWS_SERVER_OPTION_FALLBACK_TO_APPLY_LISTEN_ACCEPT_CONFIG`) with a JSON error, then
    /// closes the connection.
    func onUnparsableRequest(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        if let connection = existingConnection(for: wsi) {
            stopGate(connection)
            if connection.isRefusedAtGate { return -1 }
        }
        let bytes = input.map { UnsafeRawBufferPointer(start: $0, count: length) } ?? UnsafeRawBufferPointer(start: nil, count: 0)
        let (method, refusal) = HTTPRequestCheck.refusalForUnparsable(bytes)
        let exchange = HTTPExchange(
            method: HTTPMethod(rawValue: method ?? "-"), path: "-", remoteAddress: Self.remoteAddress(of: wsi),
            rangeHeader: nil, closesConnection: true
        )
        let (response, output) = wholeResponse(refusal.response, for: exchange)
        let base = sendBuffer + Self.headroom
        response.withUnsafeBytes { base.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        // LWS_WRITE_RAW is a macro for LWS_WRITE_HTTP; on a raw connection it writes the bytes as they are.
        _ = lws_write(wsi, base.assumingMemoryBound(to: UInt8.self), response.count, LWS_WRITE_HTTP)
        log(exchange, output)
        return -1
    }

    // MARK: Requests

    func onHTTPRequest(_ wsi: OpaquePointer) -> Int32 {
        guard let server else { return -1 }
        let connection = connection(for: wsi)
        stopGate(connection)
        // The gate has answered this request already.
        if connection.isRefusedAtGate { return -1 }
        var uri: UnsafeMutablePointer<CChar>?
        var uriLength: Int32 = 0
        guard let method = Self.method(ofIndex: lws_http_get_uri_and_method(wsi, &uri, &uriLength)) else { return -1 }
        let pathBytes = uri.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(uriLength))) } ?? Array("/".utf8)
        let path = String(decoding: pathBytes, as: UTF8.self)
        let headers = Self.requestHeaders(of: wsi)
        let remoteAddress = remoteAddress(of: connection, wsi)
        var refusal = Self.requestCheck(of: wsi, pathBytes: pathBytes, headers: headers).refusal
        if refusal == nil, method.rawValue == "CONNECT" {
            refusal = HTTPRequestCheck.connectRefusal
        }
        let exchange = HTTPExchange(
            method: method,
            path: path,
            remoteAddress: remoteAddress,
            rangeHeader: headers["range"],
            closesConnection: refusal != nil || (headers["connection"].map(Self.requestsClose) ?? false)
        )
        if let previous = connection.exchange {
            // lws holds pipelined requests back until a transaction completes, so this should
            // not happen; if it does, forget the old exchange rather than leak its count.
            previous.output?.body.closeFile()
            previous.output = nil
            httpExchangesInFlight -= 1
        }
        connection.exchange = exchange
        httpExchangesInFlight += 1
        if let refusal {
            exchange.output = makeOutput(refusal.response, for: exchange)
            return writeHTTP(connection, wsi)
        }
        var request = HTTPRequest(
            method: method,
            path: path,
            queryItems: Self.queryItems(of: wsi),
            headers: headers,
            remoteAddress: remoteAddress
        )
        let bodyLength = headers["content-length"].flatMap { Int($0) } ?? 0
        if bodyLength > server.configuration.maximumRequestBodyBytes {
            exchange.closesConnection = true
            let limit = server.configuration.maximumRequestBodyBytes
            exchange.output = makeOutput(.error(.contentTooLarge, message: "the body exceeds \(limit) bytes"), for: exchange)
            return writeHTTP(connection, wsi)
        }
        let response: HTTPResponse
        if isDraining {
            exchange.closesConnection = true
            response = .error(.serviceUnavailable, message: "the server is shutting down")
        } else {
            var match = server.router.match(method, path: path)
            if case .immediate(let immediate, let handler, let parameters) = match {
                request.pathParameters = parameters
                // The fast path: answered here, between two reads of the sockets, when it can be.
                if bodyLength == 0, let answer = immediate(request) {
                    exchange.output = makeOutput(answer, for: exchange)
                    return writeHTTP(connection, wsi)
                }
                match = .handler(handler, parameters: parameters)
            }
            switch match {
            case .immediate:
                preconditionFailure("an immediate route was turned into its handler above")
            case .handler(let handler, let parameters):
                request.pathParameters = parameters
                if bodyLength > 0 {
                    request.body.reserveCapacity(bodyLength)
                    exchange.pendingRequest = request
                    exchange.pendingHandler = handler
                    return Self.continueIfExpected(wsi, headers)
                } else {
                    dispatch(request, to: handler, on: connection, exchange: exchange)
                }
                return 0
            case .file(let file):
                response = HTTPResponse(body: .file(path: file))
            case .methodNotAllowed(let allowed) where method == .options:
                response = preflightResponse(allowed: allowed, requestHeaders: headers)
            case .methodNotAllowed(let allowed):
                response = .error(
                    .methodNotAllowed,
                    message: "\(method) is not allowed on \(path)",
                    headers: ["Allow": allowed.map(\.rawValue).joined(separator: ", ")]
                )
            case .notFound:
                response = .error(.notFound, message: "no route for \(method) \(path)")
            }
        }
        if bodyLength > 0 {
            // Read (and drop) the body before answering, so it is not taken for the next request.
            exchange.deferredResponse = response
            return Self.continueIfExpected(wsi, headers)
        }
        exchange.output = makeOutput(response, for: exchange)
        return writeHTTP(connection, wsi)
    }

    /// Sends `100 Continue` when the client waits for it before sending the body: libcurl (so
    /// URLSession) asks for bodies over 1 KiB and otherwise waits a second; lws 4.1 does not
    /// answer for us.
    private static func continueIfExpected(_ wsi: OpaquePointer, _ headers: HTTPHeaders) -> Int32 {
        guard headers["expect"]?.lowercased() == "100-continue" else { return 0 }
        var interim = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
        let written = interim.withUnsafeMutableBufferPointer { buffer in
            lws_write(wsi, buffer.baseAddress, buffer.count, LWS_WRITE_HTTP)
        }
        return written < 0 ? -1 : 0
    }

    private static func requestsClose(_ connectionHeader: String) -> Bool {
        connectionHeader.split(separator: ",").contains { $0.trimmingPrefix(" ").lowercased().hasPrefix("close") }
    }

    /// The answer to a CORS preflight or plain `OPTIONS` request on a path that has routes.
    private func preflightResponse(allowed: [HTTPMethod], requestHeaders: HTTPHeaders) -> HTTPResponse {
        let methods = allowed.map(\.rawValue).joined(separator: ", ")
        var headers: HTTPHeaders = ["Allow": methods]
        if server?.configuration.isCORSEnabled == true {
            headers["Access-Control-Allow-Methods"] = methods
            headers["Access-Control-Allow-Headers"] = requestHeaders["access-control-request-headers"]
                ?? "Range, Content-Type, Authorization"
            headers["Access-Control-Max-Age"] = "86400"
        }
        return HTTPResponse(status: .noContent, headers: headers)
    }

    func onHTTPBody(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        guard let server, let connection = existingConnection(for: wsi), let exchange = connection.exchange,
              exchange.pendingRequest != nil, let input, length > 0 else { return 0 }
        exchange.pendingRequest!.body.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length))
        let limit = server.configuration.maximumRequestBodyBytes
        guard exchange.pendingRequest!.body.count <= limit else {
            exchange.pendingRequest = nil
            exchange.pendingHandler = nil
            exchange.closesConnection = true
            exchange.output = makeOutput(.error(.contentTooLarge, message: "the body exceeds \(limit) bytes"), for: exchange)
            return writeHTTP(connection, wsi)
        }
        return 0
    }

    func onHTTPBodyCompletion(_ wsi: OpaquePointer) -> Int32 {
        guard let connection = existingConnection(for: wsi), let exchange = connection.exchange,
              exchange.output == nil, !exchange.isAwaitingHandler else { return 0 }
        if let handler = exchange.pendingHandler, let request = exchange.pendingRequest {
            exchange.pendingHandler = nil
            exchange.pendingRequest = nil
            dispatch(request, to: handler, on: connection, exchange: exchange)
            return 0
        }
        let response = exchange.deferredResponse ?? .error(.badRequest, message: "unexpected request body")
        exchange.deferredResponse = nil
        exchange.output = makeOutput(response, for: exchange)
        return writeHTTP(connection, wsi)
    }

    private func dispatch(_ request: HTTPRequest, to handler: @escaping HTTPRouter.Handler, on connection: LoopConnection, exchange: HTTPExchange) {
        exchange.isAwaitingHandler = true
        if let wsi = connection.wsi {
            // A handler may take as long as it needs (a blocking playlist reload): lift lws's
            // 5-second content timeout. And stop reading until the response arrives, because
            // lws 4.1 leaves pipelined bytes (or a peer's EOF) unread meanwhile and libev would
            // report them readable in a busy loop.
            lws_set_timeout(wsi, NO_PENDING_TIMEOUT, 0)
            pauseReceiving(exchange, wsi)
        }
        server?.events.send(.request(id: connection.id, request: request, handler: handler))
    }

    private func pauseReceiving(_ exchange: HTTPExchange, _ wsi: OpaquePointer) {
        guard !exchange.isReceivingPaused else { return }
        exchange.isReceivingPaused = true
        lws_rx_flow_control(wsi, 0)
    }

    /// Reading resumes before the response is written: lws 4.1's HTTP/1 service does not
    /// deliver writable callbacks to a connection whose reading is paused.
    func resumeReceiving(_ exchange: HTTPExchange, _ wsi: OpaquePointer) {
        guard exchange.isReceivingPaused else { return }
        exchange.isReceivingPaused = false
        lws_rx_flow_control(wsi, 1)
    }

    // MARK: Responses

    /// Resolves a response into bytes to write: opens a file body, applies a byte range, and
    /// builds the header block with the headers the server adds.
    func makeOutput(_ response: HTTPResponse, for exchange: HTTPExchange, error: String? = nil) -> HTTPOutput {
        var status = response.status
        var headers = response.headers
        var body = HTTPBodySource.none
        var contentLength: Int64 = 0
        switch response.body {
        case .empty:
            break
        case .bytes(let bytes):
            var range = 0..<bytes.count
            if headers["Accept-Ranges"] == "bytes", status == .ok, exchange.method == .get || exchange.method == .head {
                // A handler that sets `Accept-Ranges: bytes` lets the server answer ranges of its body.
                switch ByteRange.resolve(exchange.rangeHeader, length: Int64(bytes.count)) {
                case .whole:
                    break
                case .partial(let partial):
                    status = .partialContent
                    headers["Content-Range"] = "bytes \(partial.lowerBound)-\(partial.upperBound)/\(bytes.count)"
                    range = Int(partial.lowerBound)..<Int(partial.upperBound + 1)
                case .unsatisfiable:
                    var refusal = HTTPResponse.error(.rangeNotSatisfiable, message: "the range is outside the \(bytes.count) bytes")
                    refusal.headers["Content-Range"] = "bytes */\(bytes.count)"
                    return makeOutput(refusal, for: exchange, error: error)
                }
            }
            body = .bytes(bytes, next: range.lowerBound, end: range.upperBound)
            contentLength = Int64(range.count)
        case .file(let path):
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            var info = stat()
            guard descriptor >= 0, fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                if descriptor >= 0 { close(descriptor) }
                return makeOutput(.error(.notFound, message: "no file for \(exchange.path)"), for: exchange, error: error)
            }
            let length = Int64(info.st_size)
            if headers["Content-Type"] == nil { headers["Content-Type"] = MediaType.forPath(path) }
            headers["Accept-Ranges"] = "bytes"
            var range: Range<Int64> = 0..<length
            if status == .ok, exchange.method == .get || exchange.method == .head {
                switch ByteRange.resolve(exchange.rangeHeader, length: length) {
                case .whole:
                    break
                case .partial(let bytes):
                    status = .partialContent
                    headers["Content-Range"] = "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(length)"
                    range = bytes.lowerBound..<(bytes.upperBound + 1)
                case .unsatisfiable:
                    close(descriptor)
                    var refusal = HTTPResponse.error(.rangeNotSatisfiable, message: "the range is outside the \(length) bytes")
                    refusal.headers["Content-Range"] = "bytes */\(length)"
                    return makeOutput(refusal, for: exchange, error: error)
                }
            }
            body = .file(descriptor: descriptor, next: range.lowerBound, end: range.upperBound)
            contentLength = Int64(range.count)
        }
        let hasNoBody = status.code < 200 || status.code == 204 || status.code == 304
        if hasNoBody || exchange.method == .head {
            body.closeFile()
            body = .none
        }
        if isDraining { exchange.closesConnection = true }

        // The header block is written as bytes, the fixed lines from constants: no `String` is
        // built per response.
        var head: [UInt8] = []
        head.reserveCapacity(Self.headBytesEstimate(headers))
        head.append(contentsOf: Self.statusLinePrefix)
        Self.appendDecimal(Int64(status.code), to: &head)
        head.append(UInt8(ascii: " "))
        head.append(contentsOf: status.reasonPhrase.utf8)
        head.append(contentsOf: Self.lineEnd)
        for field in headers where !Self.isManagedHeader(field.name) {
            head.append(contentsOf: field.name.utf8)
            head.append(contentsOf: Self.fieldSeparator)
            head.append(contentsOf: field.value.utf8)
            head.append(contentsOf: Self.lineEnd)
        }
        if !hasNoBody {
            head.append(contentsOf: Self.contentLengthPrefix)
            Self.appendDecimal(contentLength, to: &head)
            head.append(contentsOf: Self.lineEnd)
        }
        head.append(contentsOf: httpDateLine())
        if server?.configuration.isCORSEnabled == true, !headers.contains("Access-Control-Allow-Origin") {
            head.append(contentsOf: Self.corsLines)
        }
        if exchange.closesConnection { head.append(contentsOf: Self.connectionCloseLine) }
        head.append(contentsOf: Self.lineEnd)
        return HTTPOutput(head: head, body: body, status: status.code, error: error)
    }

    private static let statusLinePrefix = Array("HTTP/1.1 ".utf8)
    private static let lineEnd = Array("\r\n".utf8)
    private static let fieldSeparator = Array(": ".utf8)
    private static let contentLengthPrefix = Array("Content-Length: ".utf8)
    private static let corsLines = Array(
        "Access-Control-Allow-Origin: *\r\nAccess-Control-Expose-Headers: Content-Length, Content-Range, Accept-Ranges, Date\r\n".utf8
    )
    private static let connectionCloseLine = Array("Connection: close\r\n".utf8)

    /// Room for the header block: the handler's fields plus the lines the server adds.
    private static func headBytesEstimate(_ headers: HTTPHeaders) -> Int {
        headers.reduce(256) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
    }

    /// Appends the decimal digits of `value` (a small string: nothing is allocated).
    private static func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Headers the server sets itself, whatever a handler says. The length is looked at first,
    /// so most fields are passed over without comparing their names.
    private static func isManagedHeader(_ name: String) -> Bool {
        switch name.utf8.count {
        case 4: HTTPHeaders.namesMatch(name, "Date")
        case 10: HTTPHeaders.namesMatch(name, "Connection")
        case 14: HTTPHeaders.namesMatch(name, "Content-Length")
        case 17: HTTPHeaders.namesMatch(name, "Transfer-Encoding")
        default: false
        }
    }

    func onHTTPWritable(_ wsi: OpaquePointer) -> Int32 {
        guard let connection = existingConnection(for: wsi), connection.exchange?.output != nil else { return 0 }
        return writeHTTP(connection, wsi)
    }

    /// Writes the next chunk of the exchange's response: the header block and as much body as
    /// fits in one send chunk. Returns the callback result (-1 closes the connection).
    func writeHTTP(_ connection: LoopConnection, _ wsi: OpaquePointer) -> Int32 {
        guard let exchange = connection.exchange, var output = exchange.output else { return 0 }
        let base = sendBuffer + Self.headroom
        let capacity = Self.sendChunkBytes + Self.headReserveBytes
        var used = 0
        if !output.isHeadWritten {
            if output.head.count > capacity {
                // An enormous header block goes out on its own, straight from the array.
                let written = output.head.withUnsafeMutableBytes { bytes in
                    lws_write(wsi, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, LWS_WRITE_HTTP_HEADERS)
                }
                guard written >= 0 else { return abortExchange(connection) }
            } else {
                output.head.withUnsafeBytes { base.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
                used = output.head.count
            }
            output.isHeadWritten = true
        }
        switch output.body {
        case .none:
            break
        case .bytes(let bytes, let next, let end):
            let count = min(end - next, capacity - used)
            bytes.withUnsafeBytes { (base + used).copyMemory(from: $0.baseAddress! + next, byteCount: count) }
            used += count
            output.bodyBytesSent += count
            output.body = .bytes(bytes, next: next + count, end: end)
        case .file(let descriptor, let next, let end):
            let want = Int(min(end - next, Int64(capacity - used)))
            let got = pread(descriptor, base + used, want, off_t(next))
            guard got > 0 else { return abortExchange(connection) }
            used += got
            output.bodyBytesSent += got
            output.body = .file(descriptor: descriptor, next: next + Int64(got), end: end)
        }
        let isLast = output.body.isFinished
        exchange.output = output
        if used > 0 {
            let kind = isLast ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP
            guard lws_write(wsi, base.assumingMemoryBound(to: UInt8.self), used, kind) >= 0 else {
                return abortExchange(connection)
            }
        }
        guard isLast else {
            lws_callback_on_writable(wsi)
            return 0
        }
        return completeExchange(connection, wsi)
    }

    /// The response is fully handed to lws: log it, then keep the connection for the next
    /// request or close it.
    private func completeExchange(_ connection: LoopConnection, _ wsi: OpaquePointer) -> Int32 {
        guard let exchange = connection.exchange, let output = exchange.output else { return 0 }
        output.body.closeFile()
        connection.exchange = nil
        httpExchangesInFlight -= 1
        log(exchange, output)
        checkDrained()
        if exchange.closesConnection { return -1 }
        return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
    }

    /// Writing failed (the peer went away, or a file shrank): close the connection.
    private func abortExchange(_ connection: LoopConnection) -> Int32 {
        if let exchange = connection.exchange, let output = exchange.output {
            output.body.closeFile()
            exchange.output?.body = .none
            log(exchange, output)
        }
        return -1
    }

    func log(_ exchange: HTTPExchange, _ output: HTTPOutput) {
        guard let accessLog = server?.configuration.accessLog else { return }
        accessLog(HTTPAccessLogEntry(
            method: exchange.method,
            path: exchange.path,
            status: output.status,
            bodyBytes: output.bodyBytesSent,
            duration: .now - exchange.startedAt,
            remoteAddress: exchange.remoteAddress,
            error: output.error
        ))
    }

    /// Answers an upgrade request that will not become a WebSocket, then hangs up.
    func refuseUpgrade(_ response: HTTPResponse, on wsi: OpaquePointer, path: String) -> Int32 {
        let exchange = HTTPExchange(method: .get, path: path, remoteAddress: Self.remoteAddress(of: wsi), rangeHeader: nil, closesConnection: true)
        let (whole, output) = wholeResponse(response, for: exchange)
        var bytes = whole
        _ = bytes.withUnsafeMutableBytes { buffer in
            lws_write(wsi, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), buffer.count, LWS_WRITE_HTTP_FINAL)
        }
        log(exchange, output)
        return -1
    }

    /// A small response (an error) as one block of bytes, head and body, written in one go; the
    /// output records the body as sent, for the access log.
    func wholeResponse(_ response: HTTPResponse, for exchange: HTTPExchange) -> (bytes: [UInt8], output: HTTPOutput) {
        var output = makeOutput(response, for: exchange)
        var bytes = output.head
        if case .bytes(let body, let next, let end) = output.body {
            bytes += body[next..<end]
            output.bodyBytesSent = end - next
        }
        return (bytes, output)
    }
}
