import CLibWebSockets
import Logging
import Synchronization

/// Sends libwebsockets' own log lines (errors and warnings only) to swift-log.
enum LibWebSocketsLog {
    private static let installed = Atomic<Bool>(false)
    static let logger = Logger(label: "footlight.libwebsockets")

    /// Installs the log hook once per process (lws logging is process-global).
    static func install() {
        guard !installed.exchange(true, ordering: .relaxed) else { return }
        lws_set_log_level(LLL_ERR | LLL_WARN, emit)
    }

    private static let emit: @convention(c) (Int32, UnsafePointer<CChar>?) -> Void = { level, line in
        guard let line else { return }
        let text = String(cString: line).trimmingTrailingNewlines()
        if level & LLL_ERR != 0 {
            LibWebSocketsLog.logger.error("\(text)")
        } else {
            LibWebSocketsLog.logger.warning("\(text)")
        }
    }
}

extension String {
    fileprivate func trimmingTrailingNewlines() -> String {
        var text = self[...]
        while text.last == "\n" || text.last == "\r" { text = text.dropLast() }
        return String(text)
    }
}
