import GroupCoordination
import Foundation
import GroupService
import Testing

@Suite("Token key files")
struct TokenKeyFileTests {
    /// A fresh directory for one test, removed afterwards.
    private static func withDirectory<T>(_ body: (String) throws -> T) throws -> T {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-keys-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }

    private static func write(_ text: String, to path: String, mode: Int) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }

    private static func mode(of path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    private static let secret1 = String(repeating: "11", count: 32)
    private static let secret2 = String(repeating: "2a", count: 40)

    @Test("a created key file has mode 0600, loads back to the same key, and is never overwritten")
    func create() throws {
        try Self.withDirectory { directory in
            let path = directory + "/token-keys"
            let created = try TokenKeyRing.createKeyFile(at: path)
            #expect(try Self.mode(of: path) == 0o600)
            #expect(created.signingKey.secret.count == 32)
            let loaded = try TokenKeyRing.load(contentsOf: path)
            #expect(loaded.signingKeyID == created.signingKeyID)
            let claims = InvitationClaims(sessionID: "s", role: .viewer, issuedAt: 100, lifetimeSeconds: 60)
            #expect(try loaded.verify(created.sign(claims), now: 100) == claims)
            #expect(throws: TokenKeyError.keyFileExists(path: path)) { try TokenKeyRing.createKeyFile(at: path) }
            #expect(try TokenKeyRing.load(contentsOf: path).signingKeyID == created.signingKeyID)
            #expect(try TokenKeyRing.createKeyFile(at: directory + "/other").signingKeyID != created.signingKeyID)
        }
    }

    @Test("a key file its group or others may read or write is refused with the chmod that fixes it", arguments: [0o640, 0o604, 0o620, 0o644, 0o666])
    func permissions(mode: Int) throws {
        try Self.withDirectory { directory in
            let path = directory + "/token-keys"
            try Self.write("k1 \(Self.secret1)\n", to: path, mode: mode)
            #expect(throws: TokenKeyError.insecurePermissions(path: path, mode: UInt32(mode))) { try TokenKeyRing.load(contentsOf: path) }
            let message = String(describing: TokenKeyError.insecurePermissions(path: path, mode: UInt32(mode)))
            #expect(message.contains("chmod 600 \(path)") && message.contains(String(mode, radix: 8)))
            try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: path)
            #expect(try TokenKeyRing.load(contentsOf: path).signingKeyID == "k1")
        }
    }

    @Test("the first key line signs, every line verifies; comments, blank lines and CRLF are ignored")
    func rotationInFile() throws {
        try Self.withDirectory { directory in
            let path = directory + "/token-keys"
            try Self.write("# keys\r\n\n  k2\t\(Self.secret2)\r\n# retired next week\nk1 \(Self.secret1.uppercased())\n", to: path, mode: 0o600)
            let ring = try TokenKeyRing.load(contentsOf: path)
            #expect(ring.signingKeyID == "k2")
            #expect(ring.keys.map(\.id) == ["k2", "k1"])
            #expect(ring.keys[1].secret == Array(repeating: 0x11, count: 32))
            let old = try TokenKeyRing(keys: [ring.keys[1]], signingKeyID: "k1")
            let claims = InvitationClaims(sessionID: "s", role: .owner, issuedAt: 5, lifetimeSeconds: 60)
            #expect(try ring.verify(old.sign(claims), now: 5) == claims)
            #expect(ring.sign(claims).hasPrefix("v1.k2."))
        }
    }

    @Test("a bad key file is refused with its path and line", arguments: [
        ("k1\n", TokenKeyError.malformedKeyLine(path: "P", line: 1)),
        ("# c\nk1 \(secret1) extra\n", .malformedKeyLine(path: "P", line: 2)),
        ("k1 \(secret1.dropLast())\n", .malformedKeyLine(path: "P", line: 1)),
        ("k1 zz\(secret1.dropFirst(2))\n", .malformedKeyLine(path: "P", line: 1)),
        ("k1 \(secret1.dropLast(2))\n", .invalidKeyFile(path: "P", line: 1, reason: .secretTooShort(keyID: "k1", bytes: 31))),
        ("k1 \(secret1)\nk1 \(secret2)\n", .invalidKeyFile(path: "P", line: 2, reason: .duplicateKeyID("k1"))),
        ("k/1 \(secret1)\n", .invalidKeyFile(path: "P", line: 1, reason: .invalidKeyID("k/1"))),
        ("# nothing\n\n", .invalidKeyFile(path: "P", line: nil, reason: .noKeys)),
        ((1...5).map { "k\($0) \(secret1)\n" }.joined(), .invalidKeyFile(path: "P", line: nil, reason: .tooManyKeys(count: 5))),
    ])
    func badFiles(contents: String, expected: TokenKeyError) throws {
        #expect(throws: expected) { try TokenKeyRing.parseKeyFile(Array(contents.utf8), path: "P") }
    }

    @Test("a missing file, a directory and an oversized file are refused with a clear error")
    func unreadable() throws {
        try Self.withDirectory { directory in
            let missing = directory + "/absent"
            #expect(throws: TokenKeyError.cannotRead(path: missing, reason: "No such file or directory")) { try TokenKeyRing.load(contentsOf: missing) }
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory)
            #expect(throws: TokenKeyError.notARegularFile(path: directory)) { try TokenKeyRing.load(contentsOf: directory) }
            let large = directory + "/large"
            try Self.write(String(repeating: "#", count: TokenKeyRing.maximumKeyFileBytes + 1), to: large, mode: 0o600)
            #expect(throws: TokenKeyError.keyFileTooLarge(path: large)) { try TokenKeyRing.load(contentsOf: large) }
        }
    }
}
