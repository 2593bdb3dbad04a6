/// An HTTP request method, as a route names it: ``get``, ``post`` and the others, or any
/// other token (`HTTPMethod(rawValue: "REPORT")`).
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method's name, in capitals ("GET").
    public let rawValue: String

    /// The method named `rawValue`, in any case ("get" is ``get``).
    public init(rawValue: String) {
        self.rawValue = rawValue.uppercased()
    }

    public static let get = HTTPMethod(rawValue: "GET")
    public static let head = HTTPMethod(rawValue: "HEAD")
    public static let post = HTTPMethod(rawValue: "POST")
    public static let put = HTTPMethod(rawValue: "PUT")
    public static let patch = HTTPMethod(rawValue: "PATCH")
    public static let delete = HTTPMethod(rawValue: "DELETE")
    public static let options = HTTPMethod(rawValue: "OPTIONS")

    /// Whether the method may change what the server holds: anything but GET, HEAD and
    /// OPTIONS. A request with such a method from another origin is refused unless its
    /// route allows it (``RouteOptions/allowsCrossOrigin``).
    public var changesState: Bool { self != .get && self != .head && self != .options }

    public var description: String { rawValue }
}
