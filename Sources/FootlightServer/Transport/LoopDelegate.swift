import CLibWebSockets

/// What a loop's libwebsockets callbacks report to. Every method runs on the loop's
/// thread and must not block it.
protocol LoopDelegate: AnyObject, Sendable {
    /// An HTTP request asks to upgrade to a WebSocket: accept, or refuse with a status.
    func confirmUpgrade(_ request: UpgradeRequest) -> UpgradeDecision
    /// How to answer a plain HTTP request. A page's first content waits here for its
    /// session's first turn, at most ``FirstContentConfiguration/timeLimit``.
    func answerHTTP(_ request: HTTPRequest) -> HTTPAnswer
    /// A WebSocket connection is open.
    func opened(_ connection: Connection)
    /// A whole message arrived (fragments already joined, size already checked).
    func received(_ message: UnsafeRawBufferPointer, binary: Bool, on connection: Connection)
    /// The connection is closed; its frames are gone.
    func closed(_ connection: Connection)
    /// The largest inbound message accepted; larger ones close the socket with 1009.
    var maximumMessageBytes: Int { get }
    /// The app's HTTP routes, answered before static files; nil for none.
    var router: Router? { get }
}

extension LoopDelegate {
    var router: Router? { nil }
}

/// The parts of an upgrade request a server decides on.
struct UpgradeRequest {
    let path: String
    let origin: String?
    let host: String?
    let subprotocols: String?
    /// `Sec-WebSocket-Key` and `Sec-WebSocket-Version`, as sent.
    var key: String? = nil
    var version: String? = nil
}

/// The parts of a plain HTTP request a server answers by.
struct HTTPRequest: Equatable {
    /// The path, already URL-decoded by libwebsockets.
    var path: String
    /// Whether the browser accepts gzip (`Accept-Encoding`).
    var acceptsGzip = false
    /// The `Cookie` header, as sent.
    var cookie: String?
    /// Whether the method is GET or HEAD: the only ones a folder of files answers.
    var readsOnly = true
    /// Whether the method is PUT (an upload's bytes).
    var isPut = false
    /// The `Content-Length` header, when sent and a number.
    var contentLength: Int?
    /// Whether the method is HEAD.
    var isHead = false
    /// The query (after `?`), URL-decoded by libwebsockets, when there is one.
    var query: String?
    /// The cookies, the headers an app may read and the peer's address, as a session
    /// started by this request sees them (a page's first content).
    var connection = ConnectionRequest()
}

/// Takes the body of a request as libwebsockets reads it (an upload's bytes), on the
/// loop's thread.
protocol RequestBodySink: AnyObject {
    /// More of the body; a refusal ends the request with its status.
    func write(_ bytes: UnsafeRawBufferPointer) -> HTTPRefusal?
    /// The body is complete: nil answers 204, a refusal its status.
    func finish() -> HTTPRefusal?
    /// The connection closed before the body was complete.
    func interrupt()
}

/// Why a request is refused: the HTTP status, and a reason for the log and the page.
struct HTTPRefusal: Error, Equatable {
    let status: UInt32
    let reason: String
    init(status: UInt32, _ reason: String) {
        self.status = status
        self.reason = reason
    }
}

/// What a WebSocket's upgrade request said beyond what the handshake checks.
struct ConnectionRequest: Equatable {
    /// The `Cookie` header, as sent.
    var cookie: String?
    /// Headers the app may read, by lowercase name (those sent).
    var headers: [String: String] = [:]
    /// The peer's address.
    var address: String?
}

/// The answer to a plain HTTP request, which the transport sends.
enum HTTPAnswer {
    /// A status with no body but libwebsockets' own page (`message` in it, if any).
    case status(UInt32, message: String?)
    /// A file, with its type, caching and encoding (`gzip`, or nil for none); the
    /// answer also says `nosniff`, and `Vary: Accept-Encoding` where it depends on it.
    /// `setCookie`, when given, is sent as a `Set-Cookie` header.
    case file(
        path: String, contentType: String, cacheControl: String, contentEncoding: String?, varies: Bool,
        setCookie: String? = nil)
    /// 405, with `Allow: GET, HEAD` and no body: a method other than those.
    case methodNotAllowed
    /// The refusal's status, with the reason in libwebsockets' page; the body is not
    /// read, and the connection closes.
    case refuse(HTTPRefusal)
    /// Read the request's body into `sink`, then answer as it says.
    case receive(any RequestBodySink)
}

/// Whether a WebSocket upgrade may go ahead.
enum UpgradeDecision: Equatable {
    case accept
    /// Answer with this HTTP status and log the reason.
    case refuse(status: UInt32, reason: String)
}

/// Reads a request header, or nil when it is absent or longer than `limit`.
func requestHeader(_ wsi: OpaquePointer, _ token: lws_token_indexes, limit: Int = 4096) -> String? {
    let length = Int(lws_hdr_total_length(wsi, token))
    guard length > 0, length <= limit else { return nil }
    var buffer = [CChar](repeating: 0, count: length + 1)
    let copied = lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token)
    guard copied >= 0 else { return nil }
    return String(decoding: buffer.prefix(Int(copied)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
