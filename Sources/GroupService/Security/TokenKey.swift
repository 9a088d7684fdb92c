/// One HMAC-SHA256 signing key and the id tokens name it by.
public struct TokenKey: Sendable, CustomStringConvertible {
    /// 1 to 32 characters from the base64url alphabet (`A-Z a-z 0-9 - _`).
    public var id: String
    /// At least ``minimumSecretBytes`` bytes, ideally random.
    public var secret: [UInt8]

    /// The shortest secret accepted: 256 bits, HMAC-SHA256's output size (RFC 2104 §3).
    public static let minimumSecretBytes = 32
    public static let maximumIDCharacters = 32

    public init(id: String, secret: [UInt8]) {
        self.id = id
        self.secret = secret
    }

    /// A key with a random 48-bit id and a random 256-bit secret, from `RAND_bytes`.
    public static func random() -> TokenKey {
        TokenKey(id: Base64URL.encode(LibCrypto.randomBytes(6)), secret: LibCrypto.randomBytes(minimumSecretBytes))
    }

    /// The id and the secret's length, never the secret.
    public var description: String { "TokenKey(id: \(id), secret: \(secret.count) bytes)" }

    /// Whether `id` is a key id tokens may carry.
    static func isValidID(_ id: some Collection<UInt8>) -> Bool {
        (1...maximumIDCharacters).contains(id.count) && id.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
            default: false
            }
        }
    }
}
