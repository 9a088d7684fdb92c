extension HTTPServer {
    /// A server's certificate and private key, as PEM files (the files an ACME client or
    /// `openssl req -x509` writes). They are read when the server starts: `run()` throws
    /// `NetworkIOError.tlsUnusable` when either cannot be read or parsed, or they are not a pair.
    public struct TLS: Sendable, Equatable {
        /// The certificate, followed by any intermediates up to (not including) the root.
        public var certificatePath: String
        /// The private key for the certificate, unencrypted.
        public var privateKeyPath: String

        public init(certificatePath: String, privateKeyPath: String) {
            self.certificatePath = certificatePath
            self.privateKeyPath = privateKeyPath
        }
    }
}
