import Footlight
import Logging

/// A log handler that keeps every message, so a test can check what reached the log.
final class LogCapture: Sendable {
    private let lines = Locked<[String]>([])

    /// A logger writing into this capture, at `.trace` and up.
    var logger: Logger {
        var logger = Logger(label: "footlight-test") { _ in Handler(capture: self) }
        logger.logLevel = .trace
        return logger
    }

    var messages: [String] { lines.withLock { $0 } }

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
