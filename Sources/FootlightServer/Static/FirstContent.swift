import DequeModule
import Footlight
import Foundation
import Logging

/// Answers a page's `GET` with its first content (``FirstContentConfiguration``): starts
/// the page's session as a join would, takes what its first flush sends, and writes the
/// page with those messages (``FirstContentPage``) to a file of its own, which the
/// transport sends like any file. The session then waits for its page's socket
/// (``SessionRegistry/createPending(on:request:)``).
final class FirstContent: Sendable {
    let configuration: FirstContentConfiguration
    private let registry: SessionRegistry
    /// The private folder the pages are written to (the prepared files', removed with the server).
    private let folder: String
    private let logger: Logger
    /// Pages written, with when: each is removed once sent (libwebsockets opens the file
    /// when it starts sending), at the first `GET` a second after it was written.
    private let written = Locked(Deque<(path: String, at: ContinuousClock.Instant)>())

    init(configuration: FirstContentConfiguration, registry: SessionRegistry, folder: String, logger: Logger) {
        self.configuration = configuration
        self.registry = registry
        self.folder = folder
        self.logger = logger
    }

    /// The page file (`page`: the page as it is sent without first content) with the
    /// first content of a new session at `path` opened by `request`, gzip-compressed
    /// when `gzip`: the file and its encoding; nil when first content is off, the
    /// pending sessions are at their maximum, or the first turn took too long (the plain
    /// page is then sent).
    func page(_ page: String, path: String, request: SessionRequest, gzip: Bool) -> (
        file: String, encoding: String?
    )? {
        guard configuration.isEnabled else { return nil }
        removeSentPages(now: .now)
        let loop = QueueLoop()
        guard let session = registry.createPending(on: loop, request: request) else {
            logger.debug("\(path): sent without first content: \(configuration.maximumPending) pages wait for a join")
            return nil
        }
        let capture = FirstContentConnection(home: loop)
        session.attach(capture, resumeAfter: nil, path: path)
        guard let messages = capture.firstMessages(within: configuration.timeLimit) else {
            logger.notice(
                "\(path): sent without first content: the session's first turn took more than \(configuration.timeLimit)"
            )
            registry.abandon(session)
            return nil
        }
        session.detach(capture)
        guard let plain = FileManager.default.contents(atPath: page) else {
            logger.error("\(path): sent without first content: cannot read \(page)")
            registry.abandon(session)
            return nil
        }
        var bytes = FirstContentPage.embed(messages, in: Array(plain))
        var encoding: String?
        if gzip, bytes.count >= StaticAssets.smallestCompressed, let compressed = try? Gzip.compress(bytes) {
            bytes = compressed
            encoding = "gzip"
        }
        let file = folder + "/first-\(session.id)" + (encoding == nil ? ".html" : ".html.gz")
        guard FileManager.default.createFile(atPath: file, contents: Data(bytes)) else {
            logger.error("\(path): sent without first content: cannot write \(file)")
            registry.abandon(session)
            return nil
        }
        written.withLock { $0.append((file, .now)) }
        return (file, encoding)
    }

    /// Removes the pages written a second or more before `now`: they have been sent.
    private func removeSentPages(now: ContinuousClock.Instant) {
        let sent = written.withLock { written -> [String] in
            var sent: [String] = []
            while let first = written.first, now - first.at >= .seconds(1) { sent.append(written.removeFirst().path) }
            return sent
        }
        for path in sent { try? FileManager.default.removeItem(atPath: path) }
    }
}
