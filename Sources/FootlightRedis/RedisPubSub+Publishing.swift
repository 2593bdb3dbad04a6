import Dispatch
import Footlight
import Logging

extension RedisPubSub {
    /// The most messages sent in one pipelined batch.
    static let batchSize = 256

    /// The publishing thread: sends waiting messages in batches, keeping each in the
    /// queue until Redis acknowledged it; reconnects with backoff while Redis is away.
    func publishLoop() {
        var connection: RedisConnection?
        var backoff = configuration.initialBackoff
        var away = AwayLog(what: "publishing", address: configuration.address, logger: logger)
        while true {
            let (batch, stopped, refused) = outbox.withLock { outbox in
                defer { outbox.refusedSinceLog = 0 }
                return (Array(outbox.waiting.prefix(Self.batchSize)), outbox.isStopped, outbox.refusedSinceLog)
            }
            if refused > 0 {
                logger.warning(
                    "\(refused) messages were refused: \(configuration.maximumWaiting) were already waiting for Redis at \(configuration.address)"
                )
            }
            if stopped { return }
            guard !batch.isEmpty else {
                _ = outboxSignal.wait(timeout: .now() + .seconds(1))
                continue
            }
            do throws(RedisError) {
                let live: RedisConnection
                if let connection {
                    live = connection
                } else {
                    live = try RedisConnection(to: configuration.address, timeout: configuration.timeout)
                }
                connection = live
                for message in batch {
                    try live.append([Array("PUBLISH".utf8), message.channel, message.envelope])
                }
                try live.flush()
                for _ in batch {
                    // PUBLISH answers with the number of receivers; an error reply means
                    // this Redis refuses it (an ACL, a script running too long): the
                    // message is dropped with a log line rather than block the queue.
                    if case .error(let text) = try live.nextReply() {
                        logger.error("Redis at \(configuration.address) refused a publish: \(text)")
                    }
                }
                outbox.withLock { outbox in outbox.waiting.removeFirst(min(batch.count, outbox.waiting.count)) }
                away.back()
                backoff = configuration.initialBackoff
            } catch {
                connection = nil
                away.away(error, retryingIn: backoff)
                pause(backoff)
                backoff = grown(backoff)
            }
        }
    }
}

/// One log line when Redis goes away and one when it is back, instead of a line for
/// each failed try.
struct AwayLog {
    let what: String
    let address: RedisAddress
    let logger: Logger
    private var since: ContinuousClock.Instant?

    init(what: String, address: RedisAddress, logger: Logger) {
        self.what = what
        self.address = address
        self.logger = logger
    }

    mutating func away(_ error: RedisError, retryingIn backoff: Duration) {
        if since == nil {
            since = .now
            logger.warning("Redis at \(address) is away (\(what)): \(error); trying again with a backoff")
        } else {
            logger.debug("Redis at \(address) is still away (\(what)): \(error); next try in \(backoff)")
        }
    }

    mutating func back() {
        guard let since else { return }
        logger.notice("Redis at \(address) is back (\(what)) after \(ContinuousClock.now - since)")
        self.since = nil
    }
}
