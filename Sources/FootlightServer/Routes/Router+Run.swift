import Dispatch
import Logging
import Synchronization

extension Router {
    /// Runs `job`'s handler with its `body` on the worker threads, within the time
    /// limit, and hands its answer to `delivery`: the response, a streamed body's pieces
    /// and end, or 504 when the limit passes first (the handler's task is then
    /// cancelled), or 500 when it throws something other than an ``HTTPError``. The
    /// job's place is given back when the handler (and its stream) has returned.
    func start(_ job: RouteJob, body: [UInt8], delivery: RouteDelivery) -> Task<Void, Never> {
        let request = RouteRequest(
            method: job.request.method, path: job.request.path, parameters: job.request.parameters,
            query: job.request.query, headers: job.request.headers, body: body, visitor: job.request.visitor,
            cookies: job.request.cookies, address: job.request.address)
        let answered = Atomic<Bool>(false)
        let claim = { @Sendable in !answered.exchange(true, ordering: .acquiringAndReleasing) }
        let logger = self.logger
        let label = "\(request.method) \(job.route.pattern)"
        let task = Task(executorPreference: workers) {
            defer { job.place.release() }
            let response: RouteResponse
            do {
                response = Self.checked(try await job.route.handler(request), logger: logger, label: label)
            } catch let error as HTTPError {
                response = Self.plain(error.status, error.message)
            } catch {
                if Task.isCancelled { return }
                logger.error("route \(label) failed: \(error)", metadata: ["path": "\(request.path)"])
                response = Self.plain(500, "the server could not answer")
            }
            guard claim() else { return }
            delivery.respond(response)
            guard case .stream(let write) = response.body, !job.isHead else { return }
            do {
                try await write(RouteBodyWriter(delivery.write))
                delivery.finish(nil)
            } catch {
                if !(error is CancellationError) {
                    logger.error("route \(label) stopped its body: \(error)", metadata: ["path": "\(request.path)"])
                }
                delivery.finish(error)
            }
        }
        let limit = limits.timeLimit
        let nanoseconds = Int(min(limit / .nanoseconds(1), Double(Int.max / 2)))
        Self.timeLimits.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
            guard claim() else { return }
            logger.warning("route \(label) took longer than \(limit): 504", metadata: ["path": "\(request.path)"])
            delivery.respond(Self.plain(504, "the server took too long to answer"))
            task.cancel()
        }
        return task
    }

    /// Where time limits fire: a serial queue of its own, which Dispatch gives a thread even
    /// when its global queues' few threads are all busy (blocked app code elsewhere would
    /// otherwise hold a 504 back for seconds: seen under the test suite's load).
    private static let timeLimits = DispatchQueue(label: "footlight-route-time-limits")

    /// `response`, or a 500 when a header of it could not be sent (a name that is not a
    /// token, a line break in a value); the headers the server sets itself are dropped.
    static func checked(_ response: RouteResponse, logger: Logger, label: String) -> RouteResponse {
        guard (100...599).contains(response.status) else {
            logger.error("route \(label) answered status \(response.status), which is not an HTTP status")
            return plain(500, "the server could not answer")
        }
        var checked = response
        checked.headers = HTTPHeaders()
        if response.status == 204 || response.status == 304 { checked.body = .bytes([]) }
        for field in response.headers {
            guard !field.name.isEmpty, field.name.utf8.allSatisfy(isTokenByte),
                !field.value.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 })
            else {
                logger.error("route \(label) answered a header that cannot be sent: \"\(field.name)\"")
                return plain(500, "the server could not answer")
            }
            if reservedHeaders.contains(field.name) { continue }
            checked.headers.add(field.name, field.value)
        }
        return checked
    }

    /// Headers the transport writes itself.
    private static let reservedHeaders: Set<String> = [
        "content-length", "transfer-encoding", "connection", "x-content-type-options",
    ]

    /// RFC 9110's `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
