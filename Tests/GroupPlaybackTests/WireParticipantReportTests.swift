import GroupWire
import Testing

@Suite("Wire: the participant report")
struct WireParticipantReportTests {
    private static func read(_ json: String) throws -> ParticipantReport {
        try ParticipantReport(wire: try WireJSONParser(limits: .standard).parse(Array(json.utf8)))
    }

    @Test("a full report reads back what was written, keys in a fixed order and absent ones left out")
    func roundTrip() throws {
        let report = ParticipantReport(
            skew: nil, roundTrip: .microseconds(2_100), groupTime: .seconds(75),
            position: .init(coordinated: .seconds(60), rate: 1, breakEvent: "ad2", breakOffset: .milliseconds(3_500)), group: .waiting,
            waitingFor: [.init(participant: "p3", cause: "ad")])
        #expect(report.wire.jsonText
            == #"{"roundTrip":2100000,"at":75000000000,"position":{"coordinated":60000000000,"rate":1.0,"break":"ad2","offset":3500000000},"group":"waiting","waitingFor":[{"participant":"p3","cause":"ad"}]}"#)
        #expect(try Self.read(report.wire.jsonText) == report)
    }

    @Test("the first version's report, skew and round trip only, still reads")
    func firstVersion() throws {
        let report = try Self.read(#"{"skew":-4000000,"roundTrip":2000000}"#)
        #expect(report == ParticipantReport(skew: .milliseconds(-4), roundTrip: .milliseconds(2)))
    }

    @Test("a report outside the protocol's bounds is refused with where it went wrong")
    func bounds() throws {
        let cases = [
            #"{"skew":1}"#: "roundTrip",
            #"{"roundTrip":-1}"#: "roundTrip",
            #"{"roundTrip":1,"position":{"coordinated":1,"rate":65}}"#: "position.rate",
            #"{"roundTrip":1,"group":"dancing"}"#: "group",
            #"{"roundTrip":1,"position":{"coordinated":1,"rate":1,"offset":-5}}"#: "position.offset",
            #"{"roundTrip":1,"waitingFor":[\#(Array(repeating: #"{"participant":"p","cause":"ad"}"#, count: 65).joined(separator: ","))]}"#: "waitingFor",
            #"{"roundTrip":1,"waitingFor":[{"participant":"","cause":"ad"}]}"#: "waitingFor[0].participant",
        ]
        for (json, path) in cases {
            #expect {
                try Self.read(json)
            } throws: { error in
                "\(error)".hasPrefix("$.\(path)")
            }
        }
    }
}
