import Foundation
import GroupWire
import TestSupport
import Testing

@Suite("Wire JSON parser") struct WireJSONParserTests {
    func parse(_ text: String, limits: WireJSONLimits = .standard) throws(WireJSONError) -> WireValue {
        try WireJSONParser(limits: limits).parse(Array(text.utf8))
    }

    func error(_ text: String, limits: WireJSONLimits = .standard) -> WireJSONError? {
        do {
            _ = try parse(text, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test("values of every kind parse, integers apart from doubles, keys in their order")
    func kinds() throws {
        let value = try parse(#" {"b": [1, -0, 2.5, -1e-3, true, false, null], "a": "x\"\\\/\n\u00e9\ud83c\udf7f"} "#)
        let object: WireObject = [
            "b": .array([.integer(1), .integer(0), .double(2.5), .double(-0.001), .bool(true), .bool(false), .null]),
            "a": .string("x\"\\/\né\u{1F37F}"),
        ]
        #expect(value == .object(object))
        guard case .object(let parsed) = value else { return }
        #expect(parsed.keys == ["b", "a"])
    }

    @Test("integers that do not fit Int64 are refused, not rounded")
    func integerRange() throws {
        #expect(try parse("9223372036854775807") == .integer(.max))
        #expect(try parse("-9223372036854775808") == .integer(.min))
        #expect(error("[9223372036854775808]") == WireJSONError(offset: 1, kind: .integerOutOfRange))
        #expect(error("-9223372036854775809") == WireJSONError(offset: 0, kind: .integerOutOfRange))
        #expect(error("1e999") == WireJSONError(offset: 0, kind: .numberOutOfRange))
    }

    @Test("errors name the byte offset and what was expected")
    func locatedErrors() {
        #expect(error(#"{"a" 1}"#) == WireJSONError(offset: 5, kind: .unexpectedByte(UInt8(ascii: "1"), expected: .colon)))
        #expect(error("[1,2") == WireJSONError(offset: 4, kind: .unexpectedEnd(expected: .commaOrArrayEnd)))
        #expect(error("{} x") == WireJSONError(offset: 3, kind: .unexpectedByte(UInt8(ascii: "x"), expected: .end)))
        #expect(error("[tru]") == WireJSONError(offset: 1, kind: .unexpectedByte(UInt8(ascii: "t"), expected: .value)))
        #expect(error("01") == WireJSONError(offset: 1, kind: .unexpectedByte(UInt8(ascii: "1"), expected: .end)))
        #expect(error("1.") == WireJSONError(offset: 2, kind: .unexpectedEnd(expected: .digit)))
        #expect(error("{1:2}") == WireJSONError(offset: 1, kind: .unexpectedByte(UInt8(ascii: "1"), expected: .string)))
        #expect(error("") == WireJSONError(offset: 0, kind: .unexpectedEnd(expected: .value)))
        #expect(error(#"{"a":1,"a":2}"#) == WireJSONError(offset: 7, kind: .duplicateKey("a")))
        #expect(error(#"{"a":1,"a":2}"#)?.description == #"byte 7: the key "a" appears twice"#)
    }

    @Test("strings refuse raw control characters, bad escapes, lone surrogates and invalid UTF-8")
    func strings() {
        #expect(error("\"a\tb\"") == WireJSONError(offset: 2, kind: .controlCharacterInString))
        #expect(error(#""\x""#) == WireJSONError(offset: 1, kind: .invalidEscape))
        #expect(error(#""\ud83c""#) == WireJSONError(offset: 1, kind: .invalidEscape))
        #expect(error(#""\udf7f""#) == WireJSONError(offset: 1, kind: .invalidEscape))
        #expect(error(#""\u12g4""#) == WireJSONError(offset: 5, kind: .unexpectedByte(UInt8(ascii: "g"), expected: .hexDigit)))
        #expect(error(#""abc"#) == WireJSONError(offset: 4, kind: .unexpectedEnd(expected: .stringEnd)))
        #expect((try? WireJSONParser().parse([0x22, 0xC3, 0x28, 0x22])) == nil)
        #expect(throws: WireJSONError(offset: 0, kind: .invalidUTF8)) { try WireJSONParser().parse([0x22, 0xED, 0xA0, 0x80, 0x22]) }
    }

    @Test("limits: document size, nesting, string length and element counts")
    func limits() {
        let small = WireJSONLimits(maximumBytes: 64, maximumDepth: 3, maximumStringBytes: 4, maximumElements: 2)
        #expect(error(String(repeating: " ", count: 65) + "1", limits: small) == WireJSONError(offset: 64, kind: .documentTooLarge(limit: 64)))
        #expect(error("[[[1]]]", limits: small) == nil)
        #expect(error("[[[[1]]]]", limits: small) == WireJSONError(offset: 3, kind: .nestingTooDeep(limit: 3)))
        #expect(error(#""abcd""#, limits: small) == nil)
        #expect(error(#""abcde""#, limits: small) == WireJSONError(offset: 0, kind: .stringTooLong(limit: 4)))
        #expect(error(#""\u00e9\u00e9\u00e9""#, limits: small) == WireJSONError(offset: 0, kind: .stringTooLong(limit: 4)))
        #expect(error("[1,2,3]", limits: small) == WireJSONError(offset: 5, kind: .tooManyElements(limit: 2)))
        #expect(error(#"{"a":1,"b":2,"c":3}"#, limits: small) == WireJSONError(offset: 13, kind: .tooManyElements(limit: 2)))
        // A megabyte of brackets stops at the nesting limit, without using the stack for it.
        let deep = WireJSONLimits(maximumBytes: 1 << 20)
        #expect(error(String(repeating: "[", count: 1 << 20), limits: deep) == WireJSONError(offset: 32, kind: .nestingTooDeep(limit: 32)))
    }

    @Test("the serializer writes compact JSON that parses back to the same value, for random values")
    func roundTrip() throws {
        var random = SeededGenerator(seed: 7)
        func value(depth: Int) -> WireValue {
            switch Int.random(in: 0..<(depth > 3 ? 5 : 7), using: &random) {
            case 0: return .null
            case 1: return .bool(Bool.random(using: &random))
            case 2: return .integer(Int64.random(in: .min ... .max, using: &random))
            case 3: return .double(Double.random(in: -1e300...1e300, using: &random) / pow(10, Double.random(in: 0...300, using: &random)))
            case 4:
                let scalars = (0..<Int.random(in: 0..<8, using: &random)).compactMap { _ in
                    Unicode.Scalar(UInt32.random(in: 0...0x1F700, using: &random))
                }
                return .string(String(String.UnicodeScalarView(scalars)))
            case 5: return .array((0..<Int.random(in: 0..<4, using: &random)).map { _ in value(depth: depth + 1) })
            default:
                var object = WireObject()
                for index in 0..<Int.random(in: 0..<4, using: &random) { object["k\(index)\u{0}\""] = value(depth: depth + 1) }
                return .object(object)
            }
        }
        for _ in 0..<500 {
            let original = value(depth: 0)
            #expect(try WireJSONParser(limits: WireJSONLimits(maximumBytes: 1 << 20)).parse(original.jsonBytes) == original)
        }
        #expect(WireValue.object(["s": .string("a\u{1}\n\"")]).jsonText == #"{"s":"a\u0001\n\""}"#)
        #expect(WireValue.double(.infinity).jsonText == "null")
    }
}
