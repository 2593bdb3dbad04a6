import Footlight
import Logging

#if canImport(Glibc)
    import Glibc
#endif

extension RedisPubSub {
    /// The subscription thread's view of one connection.
    private struct Subscriptions {
        let connection: RedisConnection
        /// The topics subscribed to (or asked for) on this connection.
        var topics: Set<String> = []
        /// Subscribe confirmations still to come before the subscriptions are live.
        var unconfirmed = 0
        /// When the last bytes came from Redis, and whether a PING is unanswered.
        var lastHeard = ContinuousClock.now
        var pinged = false
    }

    /// The subscription thread: keeps one channel per local topic subscribed, hands
    /// what arrives to the local subscribers, checks an idle connection with PING and
    /// reconnects with backoff.
    func subscribeLoop() {
        var backoff = configuration.initialBackoff
        var away = AwayLog(what: "subscriptions", address: configuration.address, logger: logger)
        var filter = SequenceFilter()
        while !isStopped {
            do throws(RedisError) {
                let connection = try RedisConnection(to: configuration.address, timeout: configuration.timeout)
                var subscriptions = Subscriptions(connection: connection)
                // The first PONG shows this is a Redis that answers.
                try connection.append("PING")
                try connection.flush()
                subscriptions.pinged = true
                try serve(&subscriptions, filter: &filter) {
                    away.back()
                    backoff = configuration.initialBackoff
                }
                return  // stopped
            } catch {
                subscriptionsLive.withLock { $0 = false }
                away.away(error, retryingIn: backoff)
                pause(backoff)
                wake.drain()
                backoff = grown(backoff)
            }
        }
    }

    /// Serves one connection until the pub/sub stops (returns) or the connection fails
    /// (throws). Calls `answered` after the first reply.
    private func serve(
        _ subscriptions: inout Subscriptions, filter: inout SequenceFilter, answered: () -> Void
    ) throws(RedisError) {
        let connection = subscriptions.connection
        var hasAnswered = false
        while !isStopped {
            try updateTopics(&subscriptions)
            while let reply = try connection.bufferedReply() {
                try handle(reply, in: &subscriptions, filter: &filter)
                if !hasAnswered {
                    hasAnswered = true
                    answered()
                    // With no topic to wait for, an answering Redis is all it takes.
                    if subscriptions.unconfirmed == 0 { subscriptionsLive.withLock { $0 = true } }
                }
            }
            var descriptors = [
                pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 2, Int32(clamping: configuration.heartbeat.clampedNanoseconds / 1_000_000))
            if descriptors[1].revents != 0 { wake.drain() }
            if ready > 0 && descriptors[0].revents != 0 {
                try connection.read()
                subscriptions.lastHeard = .now
                subscriptions.pinged = false
            } else if ContinuousClock.now - subscriptions.lastHeard >= configuration.heartbeat {
                guard !subscriptions.pinged else {
                    throw RedisError(
                        .io, "Redis at \(configuration.address) did not answer a PING within \(configuration.heartbeat)"
                    )
                }
                try connection.append("PING")
                try connection.flush()
                subscriptions.pinged = true
                subscriptions.lastHeard = .now
            }
        }
    }

    /// Subscribes to topics that got subscribers here and unsubscribes from those that
    /// lost them.
    private func updateTopics(_ subscriptions: inout Subscriptions) throws(RedisError) {
        let wanted = local.topics
        guard wanted != subscriptions.topics else { return }
        let added = wanted.subtracting(subscriptions.topics)
        let removed = subscriptions.topics.subtracting(wanted)
        let prefix = configuration.channelPrefix
        if !added.isEmpty {
            subscriptionsLive.withLock { $0 = false }
            try subscriptions.connection.append([Array("SUBSCRIBE".utf8)] + added.map { Array((prefix + $0).utf8) })
            subscriptions.unconfirmed += added.count
        }
        if !removed.isEmpty {
            try subscriptions.connection.append(
                [Array("UNSUBSCRIBE".utf8)] + removed.map { Array((prefix + $0).utf8) })
        }
        try subscriptions.connection.flush()
        subscriptions.topics = wanted
        if subscriptions.unconfirmed == 0 { subscriptionsLive.withLock { $0 = true } }
    }

    private func handle(
        _ reply: RedisReply, in subscriptions: inout Subscriptions, filter: inout SequenceFilter
    ) throws(RedisError) {
        guard case .array(let parts) = reply, let kind = parts.first?.text else {
            switch reply {
            case .status, .string: return  // PONG outside subscribe mode
            case .error(let text):
                throw RedisError(.reply, "Redis at \(configuration.address) refused a subscription command: \(text)")
            default:
                throw RedisError(.protocolViolation, "Redis at \(configuration.address) sent \(reply) to a subscriber")
            }
        }
        switch kind {
        case "message" where parts.count == 3:
            guard case .string(let payload) = parts[2], let channel = parts[1].text,
                channel.hasPrefix(configuration.channelPrefix)
            else {
                logger.warning("a message from Redis at \(configuration.address) has no channel or payload; dropped")
                return
            }
            receive(payload, on: String(channel.dropFirst(configuration.channelPrefix.count)), filter: &filter)
        case "subscribe":
            subscriptions.unconfirmed = max(0, subscriptions.unconfirmed - 1)
            if subscriptions.unconfirmed == 0 { subscriptionsLive.withLock { $0 = true } }
            // From now on nothing published to the topic is lost; before, it may have been.
            if let channel = parts.dropFirst().first?.text, channel.hasPrefix(configuration.channelPrefix) {
                local.deliver(.missed, to: String(channel.dropFirst(configuration.channelPrefix.count)))
            }
        case "unsubscribe", "pong":
            return
        default:
            logger.warning("Redis at \(configuration.address) sent a \(kind) push to a subscriber; ignored")
        }
    }

    /// Hands a message that arrived on `topic` to the subscribers here, unless it is
    /// this instance's own (delivered when published), one seen already, too large or
    /// not an envelope.
    private func receive(_ payload: [UInt8], on topic: String, filter: inout SequenceFilter) {
        guard payload.count <= configuration.limits.maximumMessageBytes + 256 else {
            logger.warning("a \(payload.count)-byte message on \(topic) from Redis is over the limit; dropped")
            return
        }
        let envelope: PubSubEnvelope
        do {
            envelope = try PubSubEnvelope.decode(payload)
        } catch {
            logger.warning("a message on \(topic) from Redis is not a Footlight message (\(error.reason)); dropped")
            return
        }
        guard envelope.origin != origin, filter.admits(envelope.sequence, from: envelope.origin) else { return }
        local.deliver(.message(envelope.message), to: topic)
    }
}
