internal import CLibWebSockets
import Glibc

/// The gate: a look at the first bytes of each accepted connection before lws reads them, for
/// what lws 4.1 answers itself once it has parsed them, with an HTML `403` (an absolute-form
/// target, a malformed percent escape) or a silent close (`%00`, a head larger than its header
/// table). The gate peeks, and when `HTTPRequestCheck.verdict(onPeek:isFirstRead:)` refuses, it
/// writes the JSON error itself and shuts the socket for writing; lws then reads the request,
/// fails to write its own answer, and closes the connection.
///
/// It watches until a head is complete, so only the first request of a connection passes it;
/// later requests on a keep-alive connection are checked after lws has parsed them. A TLS
/// server has no gate (the first bytes are a TLS handshake): lws answers those requests itself.
extension LoopDriver {
    static let gatePeekBytes = 64 * 1024

    /// The field names lws's lexer knows, lower-case with their colon (`host:`).
    private static let knownFieldNames: Set<String> = {
        var names: Set<String> = []
        for raw in 0..<WSI_TOKEN_COUNT.rawValue {
            guard let text = lws_token_to_string(lws_token_indexes(rawValue: raw)) else { continue }
            let name = String(cString: text)
            if name.hasSuffix(":"), !name.hasPrefix(":") { names.insert(name) }
        }
        return names
    }()

    func startGate(_ wsi: OpaquePointer) {
        guard server != nil, !isTLSServer, let eventLoop else { return }
        let descriptor = lws_get_socket_fd(wsi)
        guard descriptor >= 0 else { return }
        let connection = connection(for: wsi)
        guard connection.gate == nil else { return }
        let gate = UnsafeMutablePointer<interlude_gate_t>.allocate(capacity: 1)
        gate.initialize(to: interlude_gate_t())
        connection.gate = gate
        interlude_gate_start(eventLoop, gate, descriptor, Unmanaged.passUnretained(self).toOpaque(), wsi, interludeGateReadable)
    }

    func stopGate(_ connection: LoopConnection) {
        guard let gate = connection.gate else { return }
        if let eventLoop { interlude_gate_stop(eventLoop, gate) }
        gate.deallocate()
        connection.gate = nil
    }

    func gateReadable(_ wsi: OpaquePointer, descriptor: Int32) {
        guard let connection = existingConnection(for: wsi), connection.gate != nil else { return }
        let count = recv(descriptor, gatePeekBuffer, Self.gatePeekBytes, Int32(MSG_PEEK | MSG_DONTWAIT))
        guard count > 0 else {
            if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { stopGate(connection) }
            return
        }
        // The same bytes as last time: lws is not reading them (it waits for something), and a
        // level-triggered watcher would fire again at once, so leave the connection to lws.
        guard count != connection.gatePeekedBytes else {
            stopGate(connection)
            return
        }
        let bytes = Array(UnsafeRawBufferPointer(start: gatePeekBuffer, count: count))
        let verdict = HTTPRequestCheck.verdict(onPeek: bytes, isFirstRead: connection.gatePeekedBytes == 0, knownFieldNames: Self.knownFieldNames)
        connection.gatePeekedBytes = count
        switch verdict {
        case .undecided:
            break
        case .pass:
            stopGate(connection)
        case .refuse(let refusal):
            stopGate(connection)
            refuseAtGate(connection, wsi, descriptor: descriptor, refusal, method: HTTPRequestCheck.knownMethod(in: bytes))
        }
    }

    private func refuseAtGate(
        _ connection: LoopConnection, _ wsi: OpaquePointer, descriptor: Int32, _ refusal: HTTPRequestCheck.Refusal, method: String?
    ) {
        connection.isRefusedAtGate = true
        let exchange = HTTPExchange(
            method: HTTPMethod(rawValue: method ?? "-"), path: "-", remoteAddress: Self.remoteAddress(of: wsi),
            rangeHeader: nil, closesConnection: true
        )
        let (response, output) = wholeResponse(refusal.response, for: exchange)
        _ = response.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        shutdown(descriptor, Int32(SHUT_WR))
        log(exchange, output)
    }
}
