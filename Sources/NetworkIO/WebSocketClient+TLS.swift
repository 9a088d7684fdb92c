extension WebSocketClient {
    /// How a client verifies the servers it reaches with `wss://`. By default it trusts the
    /// system's certificate authorities and checks that the certificate names the URL's host.
    public struct TLS: Sendable, Equatable {
        /// A PEM file of certificates to trust instead of the system's (a private CA, or a
        /// server's own self-signed certificate). Loaded by the client's first `connect`, which
        /// throws `NetworkIOError.tlsUnusable` when it cannot be.
        public var trustedCertificatesPath: String?
        /// Accepts any self-signed certificate, whatever host it names. For tests only: anyone
        /// on the path can present one.
        public var allowsSelfSignedCertificates: Bool

        public init(trustedCertificatesPath: String? = nil, allowsSelfSignedCertificates: Bool = false) {
            self.trustedCertificatesPath = trustedCertificatesPath
            self.allowsSelfSignedCertificates = allowsSelfSignedCertificates
        }
    }
}
