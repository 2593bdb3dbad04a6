import Footlight
import Logging

/// A log handler that keeps every message, so a test can check what reached the log.
///
/// ```swift
/// let logs = LogCapture()
/// let pubSub = try RedisPubSub(configuration, logger: logs.logger)
/// #expect(logs.contains("is away"))
/// ```
public final class LogCapture: Sendable {
    private let lines = Locked<[String]>([])

    public init() {}

    /// A logger writing into this capture, at `.trace` and up.
    public var logger: Logger {
        var logger = Logger(label: "footlight-test") { _ in Handler(capture: self) }
        logger.logLevel = .trace
        return logger
    }

    /// Every message so far, oldest first.
    public var messages: [String] { lines.withLock { $0 } }

    /// Whether a message so far contains `text`.
    public func contains(_ text: String) -> Bool { messages.contains { $0.contains(text) } }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            capture.lines.withLock { $0.append("\(event.message)") }
        }
    }
}
