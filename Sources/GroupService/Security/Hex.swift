/// Hexadecimal digits: key file secrets and JSON's `\uXXXX` escapes.
package enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Lower-case, two digits a byte.
    package static func encode(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }, as: UTF8.self)
    }

    /// The bytes of an even number of digits in either case, or `nil`.
    package static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        guard text.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 2)
        var high: UInt8?
        for symbol in text {
            guard let value = value(of: symbol) else { return nil }
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        return bytes
    }

    /// The value of one digit in either case, or `nil`.
    package static func value(of symbol: UInt8) -> UInt8? {
        switch symbol {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): symbol - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): symbol - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): symbol - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
