internal import CLibWebSockets
import Glibc
import Synchronization

/// TLS on a loop's vhost: a server's certificate and key, a client's trusted certificates. The
/// files are loaded once with OpenSSL before lws sees them, so that a bad one is reported as
/// such rather than as lws's failure to create the context (which reads as "cannot listen").
extension LoopDriver {
    /// `LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT`: lws initialises OpenSSL and creates the vhost's
    /// TLS contexts (server, and client for outgoing `wss://`).
    static let optionTLSGlobalInit: UInt64 = 1 << 12

    /// Counts the contexts that went through lws's TLS library set-up, twice each: odd while one is
    /// being created. lws 4.1 takes a new OpenSSL ex-data index there for every context and keeps
    /// it in one process-wide variable, where it later looks up the connection behind an `SSL`;
    /// a client handshake begun before another context's creation and verified after it finds
    /// nothing and fails its certificate check, whatever the certificate. A handshake that failed
    /// while this number moved is therefore tried again (`retriesTLSHandshake`).
    static let tlsIndexGeneration = Atomic<UInt64>(0)

    /// One context at a time in the whole process, so that the window in which handshakes can be
    /// disturbed is one creation long; a creation that sets up TLS moves `tlsIndexGeneration`.
    static func createContext(_ info: inout lws_context_creation_info) -> OpaquePointer? {
        contextCreation.lock()
        defer { contextCreation.unlock() }
        let initialisesTLS = info.options & optionTLSGlobalInit != 0
        if initialisesTLS { tlsIndexGeneration.add(1, ordering: .sequentiallyConsistent) }
        defer { if initialisesTLS { tlsIndexGeneration.add(1, ordering: .sequentiallyConsistent) } }
        return lws_create_context(&info)
    }

    /// A plain lock (nothing is called out under it but lws's own creation, which calls back
    /// into no code of ours that takes it).
    private static let contextCreation = ContextCreationLock()

    /// How often one connection's handshake is tried again after another context's creation
    /// disturbed it; more than one creation in a handshake's time is rare outside tests.
    static let tlsHandshakeRetries = 8

    /// Whether a client connection's failure may be the index race above rather than what the
    /// server presented: a TLS target, a creation begun or ended since the attempt started (or
    /// under way when it started), and retries left.
    func retriesTLSHandshake(_ session: WebSocketSession) -> Bool {
        guard let request = session.clientRequest, request.target.isSecure,
              session.tlsRetries < Self.tlsHandshakeRetries else { return false }
        let now = Self.tlsIndexGeneration.load(ordering: .sequentiallyConsistent)
        return now != session.tlsGeneration || now % 2 == 1
    }

    /// Sets `info`'s TLS fields for this loop, after checking the files; `own` keeps the strings
    /// alive for the context's lifetime.
    func configureTLS(
        _ info: inout lws_context_creation_info, own: (String) -> UnsafeMutablePointer<CChar>
    ) -> NetworkIOError? {
        switch loop.settings.role {
        case .server(let settings):
            guard let tls = settings.configuration.tls else { return nil }
            if let error = Self.checkServerFiles(tls) { return error }
            info.options |= Self.optionTLSGlobalInit
            info.ssl_cert_filepath = UnsafePointer(own(tls.certificatePath))
            info.ssl_private_key_filepath = UnsafePointer(own(tls.privateKeyPath))
            // HTTP/1.1 only, as without TLS: lws would otherwise offer h2 through ALPN.
            info.alpn = UnsafePointer(own("http/1.1"))
        case .client(let tls):
            info.options |= Self.optionTLSGlobalInit
            if let path = tls.trustedCertificatesPath {
                if let error = Self.checkTrustedCertificates(path) { return error }
                info.client_ssl_ca_filepath = UnsafePointer(own(path))
            }
        }
        return nil
    }

    /// The `ssl_connection` flags for an outgoing connection to `target`.
    func clientTLSFlags(for target: WebSocketURL) -> Int32 {
        guard target.isSecure, case .client(let tls) = loop.settings.role else { return 0 }
        var flags = LCCSCF_USE_SSL.rawValue
        if tls.allowsSelfSignedCertificates {
            flags |= LCCSCF_ALLOW_SELFSIGNED.rawValue | LCCSCF_SKIP_SERVER_CERT_HOSTNAME_CHECK.rawValue
        }
        return Int32(bitPattern: flags)
    }

    /// Whether this client's settings accept a certificate that OpenSSL judged so.
    private func accepts(verifyResult result: Int) -> Bool {
        guard case .client(let tls) = loop.settings.role, tls.allowsSelfSignedCertificates else { return false }
        return result == X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT || result == X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN
    }

    /// Whether the server's connections are TLS (the gate, which reads plain HTTP, stays off).
    var isTLSServer: Bool { server?.configuration.tls != nil }

    /// Why the server's certificate was refused, when the TLS handshake of a failed client
    /// connection got as far as verifying it (lws reports only an OpenSSL error code).
    func certificateRefusal(of wsi: OpaquePointer) -> String? {
        guard let ssl = lws_get_ssl(wsi) else { return nil }
        let result = SSL_get_verify_result(ssl)
        // X509_V_ERR_UNSPECIFIED is what a handshake that never reached a verdict reports (a reset,
        // a time-out): not a refusal of the certificate. Nor is a verdict this client accepts.
        guard result != X509_V_OK, result != X509_V_ERR_UNSPECIFIED, !accepts(verifyResult: result),
              let text = X509_verify_cert_error_string(result) else { return nil }
        return "the server's certificate was refused: \(String(cString: text))"
    }

    private static func checkServerFiles(_ tls: HTTPServer.TLS) -> NetworkIOError? {
        if let error = checkReadable(tls.certificatePath, .certificate) ?? checkReadable(tls.privateKeyPath, .privateKey) {
            return error
        }
        guard let context = SSL_CTX_new(TLS_server_method()) else {
            return .tlsUnusable(.certificate, path: tls.certificatePath, reason: openSSLMessage())
        }
        defer { SSL_CTX_free(context) }
        guard SSL_CTX_use_certificate_chain_file(context, tls.certificatePath) == 1 else {
            return .tlsUnusable(.certificate, path: tls.certificatePath, reason: openSSLMessage())
        }
        guard SSL_CTX_use_PrivateKey_file(context, tls.privateKeyPath, SSL_FILETYPE_PEM) == 1 else {
            return .tlsUnusable(.privateKey, path: tls.privateKeyPath, reason: openSSLMessage())
        }
        guard SSL_CTX_check_private_key(context) == 1 else {
            ERR_clear_error()
            return .tlsUnusable(.privateKey, path: tls.privateKeyPath, reason: "it does not match the certificate \(tls.certificatePath)")
        }
        return nil
    }

    private static func checkTrustedCertificates(_ path: String) -> NetworkIOError? {
        if let error = checkReadable(path, .trustedCertificates) { return error }
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            return .tlsUnusable(.trustedCertificates, path: path, reason: openSSLMessage())
        }
        defer { SSL_CTX_free(context) }
        guard SSL_CTX_load_verify_locations(context, path, nil) == 1 else {
            return .tlsUnusable(.trustedCertificates, path: path, reason: openSSLMessage())
        }
        return nil
    }

    /// The system's reason when `path` cannot be opened for reading, checked by opening it.
    private static func checkReadable(_ path: String, _ file: NetworkIOError.TLSFile) -> NetworkIOError? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .tlsUnusable(file, path: path, reason: String(cString: strerror(errno))) }
        close(descriptor)
        return nil
    }

    /// The reason of OpenSSL's earliest queued error on this thread, which is then cleared.
    private static func openSSLMessage() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0, let reason = ERR_reason_error_string(code) else { return "OpenSSL refused it" }
        guard let library = ERR_lib_error_string(code) else { return String(cString: reason) }
        return "\(String(cString: reason)) (\(String(cString: library)))"
    }
}

/// pthread's mutex for `LoopDriver.createContext`, which must hold it across an `inout` call.
final class ContextCreationLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init() { pthread_mutex_init(mutex, nil) }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
}
