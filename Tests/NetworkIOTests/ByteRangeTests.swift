import NetworkIO
import Testing

@Suite("ByteRange")
struct ByteRangeTests {
    @Test("single ranges resolve against the length", arguments: [
        ("bytes=0-9", ByteRange.partial(0...9)),
        ("bytes=10-", .partial(10...99)),
        ("bytes=-10", .partial(90...99)),
        ("bytes=-500", .partial(0...99)),
        ("bytes=90-1000", .partial(90...99)),
        ("bytes= 5-6", .partial(5...6)),
    ])
    func partial(header: String, expected: ByteRange) {
        #expect(ByteRange.resolve(header, length: 100) == expected)
    }

    @Test("ranges past the end or empty suffixes are unsatisfiable", arguments: ["bytes=100-", "bytes=200-300", "bytes=-0"])
    func unsatisfiable(header: String) {
        #expect(ByteRange.resolve(header, length: 100) == .unsatisfiable)
    }

    @Test("absent, malformed, reversed or multiple ranges get the whole representation", arguments: [
        nil, "items=0-1", "bytes=a-b", "bytes=5-2", "bytes=0-1,5-6", "bytes=+1-2", "bytes=",
    ] as [String?])
    func whole(header: String?) {
        #expect(ByteRange.resolve(header, length: 100) == .whole)
    }

    @Test("an empty representation cannot satisfy any range")
    func empty() {
        #expect(ByteRange.resolve("bytes=0-", length: 0) == .unsatisfiable)
        #expect(ByteRange.resolve("bytes=-5", length: 0) == .unsatisfiable)
    }
}
