import GroupCoordination
import GroupWire
import MediaTime
import TestSupport
import Testing

/// What a hostile or broken peer can send: each refusal is the typed error the server answers
/// with, and nothing traps.
@Suite("Wire hostile decodes") struct WireHostileDecodeTests {
    func refusal<Message: WireCodable>(_ type: Message.Type, _ text: String) -> WireDecodingError? {
        do {
            _ = try Message(jsonBytes: Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    func clientError(_ text: String) -> WireDecodingError? { refusal(SessionClientMessage.self, text) }

    func serverError(_ text: String) -> WireDecodingError? { refusal(SessionServerMessage.self, text) }

    static let state = #"{"itemIdentifier":"movie","rate":1,"anchorTime":{"value":9009,"timescale":1000},"anchorGroupTime":1300000000,"timestamp":{"counter":3,"participant":"bob","issuedAt":1000000000}}"#

    /// A command whose playback state has `field` replaced by `value` (JSON text).
    func command(replacing field: String, with value: String) -> String {
        let state = try! WireJSONParser().parse(Array(Self.state.utf8))
        guard case .object(var object) = state else { return "" }
        object[field] = try! WireJSONParser().parse(Array(value.utf8))
        return #"{"type":"command","id":"c1","message":"# + WireValue.typed("playback-state", .object(object)).jsonText + "}"
    }

    @Test("the welcome that answers a resume, whose secret is empty, is read; an empty session is not")
    func resumedWelcome() throws {
        let welcome = #"{"type":"welcome","protocol":1,"session":"s-4f2a","participant":"p-bob","role":"controller","secret":"","stream":"movie","keepAlive":2000000000,"version":12,"snapshot":[],"participants":[]}"#
        let message = try SessionServerMessage(jsonBytes: Array(welcome.utf8))
        guard case .welcome(let decoded) = message else {
            Issue.record("not a welcome: \(message)")
            return
        }
        #expect(decoded.secret.isEmpty && decoded.version == 12)
        let noSession = #"{"type":"welcome","protocol":1,"session":"","participant":"p-bob","role":"controller","secret":"","stream":"movie","keepAlive":2000000000,"version":12,"snapshot":[],"participants":[]}"#
        #expect(serverError(noSession)?.kind == .outOfRange(bound: "1…256 bytes"))
    }

    @Test("malformed JSON is bad-message, located at its byte")
    func malformed() throws {
        let error = try #require(clientError(#"{"type":"ping""#))
        #expect(error.kind == .malformedJSON(WireJSONError(offset: 14, kind: .unexpectedEnd(expected: .commaOrObjectEnd))))
        #expect(SessionError.Code(refusing: error) == .badMessage)
        #expect(clientError("[]")?.kind == .wrongType(expected: .object, found: .array))
        #expect(clientError(#"{"type":"ping"} {}"#).map { SessionError.Code(refusing: $0) } == .badMessage)
    }

    @Test("wrong types and missing fields are bad-message, at their path")
    func wrongTypesAndMissingFields() throws {
        let wrong = try #require(clientError(#"{"type":"resync","from":"9"}"#))
        #expect(wrong == WireDecodingError(path: [.key("from")], kind: .wrongType(expected: .integer, found: .string)))
        #expect(wrong.description == "$.from: expected an integer, found a string")
        #expect(SessionError.Code(refusing: wrong) == .badMessage)
        let missing = try #require(clientError(#"{"type":"command","id":"c1"}"#))
        #expect(missing == WireDecodingError(path: [.key("message")], kind: .missingField))
        let nested = try #require(clientError(command(replacing: "anchorTime", with: #"{"value":1}"#)))
        #expect(nested.pathDescription == "$.message.anchorTime.timescale")
        #expect(nested.kind == .missingField)
        #expect(clientError(#"{"id":"c1"}"#) == WireDecodingError(path: [.key("type")], kind: .missingField))
        #expect(clientError(#"{"type":"command","id":"c1","message":null}"#)?.kind == .missingField)
        #expect(clientError(command(replacing: "rate", with: "true"))?.kind == .wrongType(expected: .number, found: .bool))
        let cause = #"{"type":"command","id":"c","message":{"type":"participant-state","participant":"bob","sequence":1,"isReadyToPlay":true,"suspensionReasons":[],"waitIntervals":[{"cause":"sleepy","start":0}],"sharedBreakDurations":{}}}"#
        #expect(clientError(cause) == WireDecodingError(path: [.key("message"), .key("waitIntervals"), .index(0), .key("cause")], kind: .unknownValue("sleepy")))
        #expect(serverError(#"{"type":"event","version":1,"sender":"a","presence":{"participant":"a","name":"A","role":"admin","state":"joined"}}"#)?.kind == .unknownValue("admin"))
    }

    @Test("an unknown type is unknown-type, at any level")
    func unknownType() throws {
        let error = try #require(clientError(#"{"type":"dance","steps":3}"#))
        #expect(error == WireDecodingError(path: [.key("type")], kind: .unknownType("dance")))
        #expect(SessionError.Code(refusing: error) == .unknownType)
        #expect(clientError(#"{"type":"welcome"}"#)?.kind == .unknownType("welcome"))
        #expect(clientError(#"{"type":"command","id":"c","message":{"type":"teleport"}}"#)?.pathDescription == "$.message.type")
    }

    @Test("a hello or welcome of another protocol is protocol-version, whatever else it holds, and closes with 1002")
    func protocolVersion() throws {
        let error = try #require(clientError(#"{"type":"hello","protocol":2,"ticket":"new in 2"}"#))
        #expect(error.kind == .unsupportedProtocolVersion(2))
        let code = SessionError.Code(refusing: error)
        #expect(code == .protocolVersion && code.closeCode == 1002)
        #expect(serverError(#"{"type":"welcome","protocol":0}"#)?.kind == .unsupportedProtocolVersion(0))
        #expect(clientError(#"{"type":"hello","token":"t","name":"n"}"#) == WireDecodingError(path: [.key("protocol")], kind: .missingField))
        #expect(clientError(#"{"type":"hello","protocol":1,"token":"t","name":"n"}"#) == nil)
        #expect(SessionError.Code.forbidden.closeCode == nil && SessionError.Code.tooBig.closeCode == 1009)
    }

    @Test("numbers, strings and arrays outside their bounds are out-of-range")
    func outOfRange() throws {
        let cases: [(String, String, String)] = [
            ("anchorTime", #"{"value":1,"timescale":0}"#, "$.message.anchorTime.timescale"),
            ("anchorTime", #"{"value":1,"timescale":1000000001}"#, "$.message.anchorTime.timescale"),
            ("anchorTime", #"{"value":1,"timescale":3}"#, "$.message.anchorTime"),
            ("anchorTime", #"{"value":9007199254740992,"timescale":1000000000}"#, "$.message.anchorTime.value"),
            ("anchorTime", #"{"value":9007200,"timescale":1}"#, "$.message.anchorTime"),
            ("anchorGroupTime", "9007199254740992", "$.message.anchorGroupTime"),
            ("anchorGroupTime", "-9007199254740992", "$.message.anchorGroupTime"),
            ("rate", "64.5", "$.message.rate"),
            ("rate", "1e308", "$.message.rate"),
            ("timestamp", #"{"counter":9007199254740992,"participant":"bob","issuedAt":0}"#, "$.message.timestamp.counter"),
            ("timestamp", #"{"counter":-1,"participant":"bob","issuedAt":0}"#, "$.message.timestamp.counter"),
            ("timestamp", #"{"counter":1,"participant":"","issuedAt":0}"#, "$.message.timestamp.participant"),
            ("itemIdentifier", "\"" + String(repeating: "m", count: 2_049) + "\"", "$.message.itemIdentifier"),
        ]
        for (field, value, path) in cases {
            let error = try #require(clientError(command(replacing: field, with: value)), "\(field) = \(value) was accepted")
            #expect(error.pathDescription == path, "\(field) = \(value)")
            guard case .outOfRange = error.kind else {
                Issue.record("\(field) = \(value): \(error)")
                continue
            }
            #expect(SessionError.Code(refusing: error) == .outOfRange)
        }
        #expect(clientError(#"{"type":"command","id":""# + String(repeating: "i", count: 65) + #"","message":{"type":"hello","participant":"a"}}"#)?.pathDescription == "$.id")
        let reasons = Array(repeating: #""r""#, count: 65).joined(separator: ",")
        let update = #"{"type":"command","id":"c","message":{"type":"participant-state","participant":"bob","sequence":1,"isReadyToPlay":true,"suspensionReasons":["# + reasons + #"],"waitIntervals":[],"sharedBreakDurations":{}}}"#
        #expect(clientError(update)?.kind == .outOfRange(bound: "at most 64 elements"))
        let negativeLimit = #"{"type":"command","id":"c","message":{"type":"participant-state","participant":"bob","sequence":1,"isReadyToPlay":true,"suspensionReasons":[],"waitIntervals":[{"cause":"not-ready","start":0,"waitLimit":-1}],"sharedBreakDurations":{}}}"#
        #expect(clientError(negativeLimit)?.pathDescription == "$.message.waitIntervals[0].waitLimit")
        #expect(serverError(#"{"type":"event","version":1,"sender":"a","custom":{"messageType":"x","body":1},"presence":{}}"#)?.pathDescription == "$.presence")
    }

    @Test("huge nesting and huge documents are refused early")
    func nesting() throws {
        let deep = #"{"type":"custom","id":"c","messageType":"x","body":"# + String(repeating: "[", count: 10_000) + "}"
        // The object is the first level: the 32nd bracket (at byte 51 + 31) is one too many.
        let error = try #require(clientError(deep))
        #expect(error.kind == .malformedJSON(WireJSONError(offset: 82, kind: .nestingTooDeep(limit: 32))))
        let large = #"{"type":"ping","pad":""# + String(repeating: "x", count: 70_000) + #""}"#
        let tooBig = try #require(clientError(large))
        #expect(SessionError.Code(refusing: tooBig) == .tooBig)
    }

    @Test("random mutations of the goldens never trap: each decodes or is refused with a typed error")
    func mutations() {
        var random = SeededGenerator(seed: 2_026)
        let interesting = Array(#"{}[]",:0123456789-+.eE\u"#.utf8) + [0x00, 0x7F, 0xC3, 0xFF]
        let numbers = ["9007199254740992", "-9007199254740992", "99999999999999999999", "1e309", "-0", "0.5", "1000000000", "null", "\"\"", "[]", "{}"]
        var decoded = 0
        var refused: [String: Int] = [:]
        let registry = GroupMessageRegistry.coordination
        for sample in WireSample.all {
            for _ in 0..<300 {
                var bytes = sample.bytes
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    let index = Int.random(in: 0..<max(bytes.count, 1), using: &random)
                    switch Int.random(in: 0..<6, using: &random) {
                    case 0 where !bytes.isEmpty: bytes[index] = interesting.randomElement(using: &random)!
                    case 1 where !bytes.isEmpty: bytes.removeSubrange(index..<min(bytes.count, index + Int.random(in: 1...8, using: &random)))
                    case 2: bytes.insert(interesting.randomElement(using: &random)!, at: min(index, bytes.count))
                    case 3: bytes = Array(bytes.prefix(index))
                    case 4 where !bytes.isEmpty:
                        let end = min(bytes.count, index + Int.random(in: 1...40, using: &random))
                        bytes.insert(contentsOf: bytes[index..<end], at: end)
                    default:
                        // A number's digits replaced by an extreme value or another kind.
                        if let digit = bytes.indices.dropFirst(index).first(where: { (48...57).contains(bytes[$0]) }) {
                            var end = digit
                            while end < bytes.count, (48...57).contains(bytes[end]) { end += 1 }
                            bytes.replaceSubrange(digit..<end, with: Array(numbers.randomElement(using: &random)!.utf8))
                        }
                    }
                }
                do {
                    try sample.decode(bytes)
                    decoded += 1
                } catch {
                    refused[SessionError.Code(refusing: error).rawValue, default: 0] += 1
                }
                _ = try? SessionClientMessage(jsonBytes: bytes)
                _ = try? SessionServerMessage(jsonBytes: bytes)
                _ = try? registry.decode([UInt8(CoordinationEnvelope.messageType.utf8.count)] + Array(CoordinationEnvelope.messageType.utf8) + bytes)
            }
        }
        // Mutations both survive (a changed digit, a duplicated field) and break messages, in each
        // of the ways a server tells apart.
        #expect(decoded > 100)
        #expect(Set(refused.keys).isSuperset(of: ["bad-message", "out-of-range", "unknown-type"]), "\(refused)")
    }
}
