import NetworkIO
import Testing

@Suite("HTTPRequest's foreign origin")
struct HTTPRequestOriginTests {
    private static func request(origin: String?, host: String? = "127.0.0.1:7400") -> HTTPRequest {
        var headers = HTTPHeaders()
        if let origin { headers["Origin"] = origin }
        if let host { headers["Host"] = host }
        return HTTPRequest(method: .get, path: "/group", headers: headers)
    }

    @Test("no Origin (a native client), the server's own over http or https, or an allowed one is not foreign; anything else is, by name")
    func foreign() {
        let allowed: Set = ["https://watch.example"]
        #expect(Self.request(origin: nil).foreignOrigin(allowing: allowed) == nil)
        #expect(Self.request(origin: "http://127.0.0.1:7400").foreignOrigin(allowing: allowed) == nil)
        #expect(Self.request(origin: "https://127.0.0.1:7400").foreignOrigin(allowing: allowed) == nil)
        #expect(Self.request(origin: "https://watch.example").foreignOrigin(allowing: allowed) == nil)
        #expect(Self.request(origin: "http://127.0.0.1:7401").foreignOrigin(allowing: allowed) == "http://127.0.0.1:7401")
        #expect(Self.request(origin: "http://127.0.0.1:7400", host: nil).foreignOrigin(allowing: allowed) == "http://127.0.0.1:7400")
        #expect(Self.request(origin: "null").foreignOrigin(allowing: allowed) == "null")
    }
}
