import Foundation
import NetworkIO
import Testing

@Suite("TLS: HTTPS and wss:// over loopback")
struct TLSServerTests {
    /// A temporary directory holding `cert.pem` and `key.pem`, a self-signed certificate for
    /// `names` (localhost and 127.0.0.1 unless told) made with the `openssl` command.
    private struct CertificateDirectory {
        let path: String
        var certificate: String { path + "/cert.pem" }
        var privateKey: String { path + "/key.pem" }
        var tls: HTTPServer.TLS { .init(certificatePath: certificate, privateKeyPath: privateKey) }

        static func make(names: String = "DNS:localhost,IP:127.0.0.1") async throws -> CertificateDirectory {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-tls-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            let directory = CertificateDirectory(path: path)
            let result = try await run("openssl", [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=\(names)",
                "-keyout", directory.privateKey, "-out", directory.certificate,
            ])
            try #require(result.status == 0, "openssl failed: \(result.output)")
            return directory
        }

        func remove() { try? FileManager.default.removeItem(atPath: path) }
    }

    private static func withCertificate(_ body: (CertificateDirectory) async throws -> Void) async throws {
        let directory = try await CertificateDirectory.make()
        defer { directory.remove() }
        try await body(directory)
    }

    /// Runs a command from PATH on a thread of its own, returning its exit status and output.
    private static func run(_ command: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await blocking {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [command] + arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: output, as: UTF8.self))
        }
    }

    private static func router() -> HTTPRouter {
        var router = HTTPRouter()
        router.get("/hello") { _ in HTTPResponse(body: "hello over TLS") }
        router.webSocket("/ws") { connection in
            for try await message in connection.messages { try await connection.send(message) }
        }
        return router
    }

    private static func echoes(_ client: WebSocketClient, _ url: String) async throws -> Bool {
        let connection = try await withTimeout { try await client.connect(to: url) }
        try await connection.send(.text("over TLS"))
        let reply = try await withTimeout { try await connection.receive() }
        await connection.close()
        return reply == .text("over TLS")
    }

    @Test("an HTTPS request succeeds with the server's certificate, over HTTP/1.1")
    func https() async throws {
        try await Self.withCertificate { directory in
            let configuration = HTTPServer.Configuration(tls: directory.tls)
            try await withServer(Self.router(), configuration: configuration) { _, port in
                let result = try await Self.run("curl", [
                    "--silent", "--show-error", "--max-time", "20", "--cacert", directory.certificate,
                    "--write-out", "\n%{http_code} %{http_version}", "https://127.0.0.1:\(port)/hello",
                ])
                #expect(result.status == 0, "curl: \(result.output)")
                #expect(result.output == "hello over TLS\n200 1.1")
                let plain = try await Self.run("curl", ["--silent", "--max-time", "20", "http://127.0.0.1:\(port)/hello"])
                #expect(plain.status != 0 && !plain.output.contains("hello"), "plain HTTP was answered: \(plain.output)")
            }
        }
    }

    @Test("a wss:// client echoes through a WebSocket route, trusting the certificate file or any self-signed one")
    func secureWebSocket() async throws {
        try await Self.withCertificate { directory in
            try await withServer(Self.router(), configuration: HTTPServer.Configuration(tls: directory.tls)) { (server: HTTPServer, port: Int) async throws in
                let trusting = WebSocketClient(tls: .init(trustedCertificatesPath: directory.certificate))
                let lenient = WebSocketClient(tls: .init(allowsSelfSignedCertificates: true))
                #expect(try await Self.echoes(trusting, "wss://127.0.0.1:\(port)/ws"))
                #expect(try await Self.echoes(trusting, "wss://localhost:\(port)/ws"))
                #expect(try await Self.echoes(lenient, "wss://127.0.0.1:\(port)/ws"))
                await trusting.shutdown()
                await lenient.shutdown()
                #expect(try await eventually { server.openWebSocketCount == 0 })
            }
        }
    }

    @Test("a client that does not trust the certificate, or speaks plain ws://, is refused and the server carries on")
    func refusedClients() async throws {
        try await Self.withCertificate { directory in
            try await withServer(Self.router(), configuration: HTTPServer.Configuration(tls: directory.tls)) { (server: HTTPServer, port: Int) async throws in
                let systemTrust = WebSocketClient()
                await #expect {
                    _ = try await withTimeout { try await systemTrust.connect(to: "wss://127.0.0.1:\(port)/ws") }
                } throws: { error in
                    guard case WebSocketError.connectionFailed(let reason) = error else { return false }
                    return reason == "the server's certificate was refused: self-signed certificate"
                }
                await #expect {
                    _ = try await withTimeout { try await systemTrust.connect(to: "ws://127.0.0.1:\(port)/ws") }
                } throws: { error in
                    guard case WebSocketError.connectionFailed = error else { return false }
                    return true
                }
                await systemTrust.shutdown()
                let trusting = WebSocketClient(tls: .init(trustedCertificatesPath: directory.certificate))
                #expect(try await Self.echoes(trusting, "wss://127.0.0.1:\(port)/ws"))
                await trusting.shutdown()
                #expect(try await eventually { server.openConnectionCount == 0 })
            }
        }
    }

    @Test("a trusted certificate that names another host is refused; allowing self-signed ones accepts it")
    func hostNameChecked() async throws {
        let directory = try await CertificateDirectory.make(names: "DNS:elsewhere.example")
        defer { directory.remove() }
        try await withServer(Self.router(), configuration: HTTPServer.Configuration(tls: directory.tls)) { (_: HTTPServer, port: Int) async throws in
            let trusting = WebSocketClient(tls: .init(trustedCertificatesPath: directory.certificate))
            await #expect {
                _ = try await withTimeout { try await trusting.connect(to: "wss://127.0.0.1:\(port)/ws") }
            } throws: { error in
                guard case WebSocketError.connectionFailed(let reason) = error else { return false }
                return reason.contains("mismatch")
            }
            await trusting.shutdown()
            let lenient = WebSocketClient(tls: .init(allowsSelfSignedCertificates: true))
            #expect(try await Self.echoes(lenient, "wss://127.0.0.1:\(port)/ws"))
            await lenient.shutdown()
        }
    }

    @Test("wss:// handshakes succeed while other clients start in the same process (lws takes new OpenSSL indexes for each)")
    func handshakesBesideNewContexts() async throws {
        try await Self.withCertificate { directory in
            try await withServer(Self.router(), configuration: HTTPServer.Configuration(tls: directory.tls)) { (server: HTTPServer, port: Int) async throws in
                let url = "wss://127.0.0.1:\(port)/ws"
                // Forty clients of both kinds at once: each one's first connect creates its lws
                // context while the others' handshakes are under way.
                let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for round in 0..<40 {
                        group.addTask {
                            let tls: WebSocketClient.TLS = round % 2 == 0
                                ? .init(allowsSelfSignedCertificates: true)
                                : .init(trustedCertificatesPath: directory.certificate)
                            let client = WebSocketClient(tls: tls)
                            do {
                                let echoed = try await Self.echoes(client, url)
                                await client.shutdown()
                                return echoed
                            } catch {
                                await client.shutdown()
                                throw error
                            }
                        }
                    }
                    return try await group.reduce(into: [Bool]()) { $0.append($1) }
                }
                #expect(outcomes.allSatisfy { $0 })
                #expect(try await eventually { server.openWebSocketCount == 0 })
            }
        }
    }

    @Test("a missing, unparsable or mismatched certificate or key fails the start with a TLS error")
    func unusableFiles() async throws {
        try await Self.withCertificate { directory in
            let other = try await CertificateDirectory.make()
            defer { other.remove() }
            let missing = directory.path + "/absent.pem"
            let garbage = directory.path + "/garbage.pem"
            try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: garbage))
            let cases: [(HTTPServer.TLS, NetworkIOError.TLSFile, String)] = [
                (.init(certificatePath: missing, privateKeyPath: directory.privateKey), .certificate, missing),
                (.init(certificatePath: directory.certificate, privateKeyPath: missing), .privateKey, missing),
                (.init(certificatePath: garbage, privateKeyPath: directory.privateKey), .certificate, garbage),
                (.init(certificatePath: directory.certificate, privateKeyPath: garbage), .privateKey, garbage),
                (.init(certificatePath: directory.certificate, privateKeyPath: other.privateKey), .privateKey, other.privateKey),
            ]
            for (tls, file, path) in cases {
                let server = HTTPServer(configuration: HTTPServer.Configuration(tls: tls), router: Self.router())
                await #expect {
                    try await withTimeout { try await server.run() }
                } throws: { error in
                    guard case NetworkIOError.tlsUnusable(file, path, let reason) = error, !reason.isEmpty else { return false }
                    return String(describing: error).contains("cannot use the TLS \(file.rawValue) \(path)")
                }
            }
            let client = WebSocketClient(tls: .init(trustedCertificatesPath: missing))
            await #expect(throws: NetworkIOError.tlsUnusable(.trustedCertificates, path: missing, reason: "No such file or directory")) {
                try await withTimeout { try await client.connect(to: "wss://127.0.0.1:1/ws") }
            }
        }
    }

    @Test("wss:// URLs default to port 443, which the Host header then leaves out")
    func secureURLs() throws {
        let secure = try WebSocketURL("wss://example.com/ws")
        #expect(secure.isSecure && secure.port == 443 && secure.pathAndQuery == "/ws")
        #expect(try WebSocketURL("wss://example.com:8443").port == 8443)
        #expect(try !WebSocketURL("ws://example.com").isSecure)
    }
}
