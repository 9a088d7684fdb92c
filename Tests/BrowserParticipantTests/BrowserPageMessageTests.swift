import BrowserParticipant
import GroupWire
import MediaTime
import Testing

@Suite("What the page sends, decoded with its bounds checked")
struct BrowserPageMessageTests {
    @Test("a hello, a probe, reports and buttons decode")
    func validMessages() throws {
        #expect(try BrowserPageMessage(text: #"{"type":"hello","protocol":1,"token":"v1.k.abc","name":"charlie"}"#)
            == .hello(.init(token: "v1.k.abc", name: "charlie")))
        #expect(try BrowserPageMessage(text: #"{"type":"hello","protocol":1,"token":"t","name":"bob","policy":"waiting"}"#)
            == .hello(.init(token: "t", name: "bob", waits: true)))
        #expect(try BrowserPageMessage(text: #"{"type":"probe","id":7,"sent":1796000000123.5}"#) == .probe(id: 7, sent: 1796000000123.5))
        #expect(try BrowserPageMessage(text: #"{"type":"report","at":1796000000.5,"state":"playing","primary":42.25}"#)
            == .report(.init(at: .seconds(1_796_000_000) + .milliseconds(500), state: .playing, position: .primary(MediaTime(seconds: 42.25)!))))
        #expect(try BrowserPageMessage(text: #"{"type":"report","at":1796000000,"state":"waiting","break":"mid-1","asset":1,"offset":0.5}"#)
            == .report(.init(at: .seconds(1_796_000_000), state: .waiting, position: .asset(breakID: "mid-1", index: 1, offset: MediaTime(seconds: 0.5)!))))
        #expect(try BrowserPageMessage(text: #"{"type":"action","action":"seek","by":-10}"#) == .action(.seek(by: MediaTime(seconds: -10))))
        #expect(try BrowserPageMessage(text: #"{"type":"action","action":"pause"}"#) == .action(.pause))
    }

    /// The error's text, as the page is sent it.
    private func refusal(_ text: String) -> String {
        do {
            _ = try BrowserPageMessage(text: text)
            return "accepted"
        } catch {
            return error.description
        }
    }

    @Test("garbage is refused with where it went wrong: the byte offset, or the field's path")
    func locatedErrors() {
        #expect(refusal(#"{"type":"report","at":1,"#).hasPrefix("malformed JSON: byte 24: expected"))
        #expect(refusal(#"{"type":"probe","id":1,"sent":1}}"#) == "malformed JSON: byte 32: expected the end of the document, found '}'")
        #expect(refusal(#"["hello"]"#) == "$: expected an object, found an array")
        #expect(refusal(#"{"type":"dance"}"#) == #"$.type: unknown type "dance""#)
        #expect(refusal(#"{"type":"hello","protocol":2,"token":"t","name":"n"}"#) == "$.protocol: protocol 2 is not spoken here (1 is)")
        #expect(refusal(#"{"type":"hello","protocol":1,"token":"t"}"#) == "$.name: missing")
        #expect(refusal(#"{"type":"hello","protocol":1,"token":"t","name":"a\nb"}"#).hasPrefix("$.name: out of range"))
        #expect(refusal(#"{"type":"hello","protocol":1,"token":"t","name":"n","policy":"never"}"#) == #"$.policy: unknown value "never""#)
        #expect(refusal(#"{"type":"report","at":1,"state":"dancing","primary":1}"#) == #"$.state: unknown value "dancing""#)
        #expect(refusal(#"{"type":"report","at":1,"state":"playing","primary":"1"}"#) == "$.primary: expected a number, found a string")
        #expect(refusal(#"{"type":"report","at":1,"state":"playing","primary":-1}"#).hasPrefix("$.primary: out of range"))
        #expect(refusal(#"{"type":"report","at":-5,"state":"playing","primary":1}"#).hasPrefix("$.at: out of range"))
        #expect(refusal(#"{"type":"report","at":1e300,"state":"playing","primary":1}"#).hasPrefix("$.at: out of range"))
        #expect(refusal(#"{"type":"report","at":1,"state":"playing","break":"b","asset":5000,"offset":1}"#).hasPrefix("$.asset: out of range"))
        #expect(refusal(#"{"type":"action","action":"seek","by":1e9}"#).hasPrefix("$.by: out of range"))
        #expect(refusal(#"{"type":"action","action":"skip"}"#) == #"$.action: unknown value "skip""#)
    }

    @Test("a message larger than the bound, or nested deeper, is refused before it is decoded")
    func bounds() {
        let long = String(repeating: "a", count: BrowserPageMessage.maximumBytes)
        #expect(refusal(#"{"type":"hello","protocol":1,"token":"\#(long)","name":"n"}"#).hasPrefix("malformed JSON"))
        #expect(refusal(#"{"type":"hello","protocol":1,"token":"t","name":"\#(String(repeating: "é", count: 40))"}"#).hasPrefix("$.name: out of range"))
        #expect(refusal(#"{"type":"probe","id":1,"sent":1,"x":[[[[[1]]]]]}"#).hasPrefix("malformed JSON"))
    }
}
