/// An answer a route handler gives by throwing: its ``status`` and a ``message`` that
/// goes to the client as plain text (so say nothing secret in it).
///
/// ```swift
/// guard let lot = auction.lot(id) else { throw HTTPError.notFound("no lot \"\(id)\"") }
/// ```
///
/// Any other error a handler throws answers 500 with no details, and is logged.
public struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status (400 to 599).
    public let status: Int
    /// What the client is told.
    public let message: String

    /// An answer of `status` (clamped to 400…599) telling `message`.
    public init(_ status: Int, _ message: String) {
        self.status = min(max(status, 400), 599)
        self.message = message
    }

    /// 400: the request is malformed (a parameter that is not a number, say).
    public static func badRequest(_ message: String) -> HTTPError { HTTPError(400, message) }
    /// 401: the request names nobody the route serves (no visitor, no credentials).
    public static func unauthorized(_ message: String) -> HTTPError { HTTPError(401, message) }
    /// 403: the requester may not have this.
    public static func forbidden(_ message: String) -> HTTPError { HTTPError(403, message) }
    /// 404: nothing is at this address (an unknown id).
    public static func notFound(_ message: String) -> HTTPError { HTTPError(404, message) }

    public var description: String { "\(status): \(message)" }
}
