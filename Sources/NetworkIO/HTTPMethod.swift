/// An HTTP request method (RFC 9110 §9), compared case-sensitively as the RFC requires.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token, for example `GET`.
    public var rawValue: String

    /// A method from its token.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `GET`: transfer a current representation of the target resource.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`: the same as `GET` without the body.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `POST`: process the enclosed representation.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`: replace the target resource.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`: apply partial modifications (RFC 5789).
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`: remove the target resource.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `OPTIONS`: describe the communication options; browsers send it as the CORS preflight.
    public static let options = HTTPMethod(rawValue: "OPTIONS")

    /// The token.
    public var description: String { rawValue }
}
