import CHiredis
import Footlight

#if canImport(Glibc)
    import Glibc
#endif

/// One connection to Redis through hiredis's blocking API. Not thread-safe: each
/// connection belongs to the one thread that made it.
///
/// Commands can be pipelined (``append(_:)`` then ``flush()`` and
/// ``nextReply(waitingUpTo:)``) or sent one at a time (``command(_:)``). After any
/// ``RedisError`` of kind `.io` or `.protocolViolation` the connection is unusable:
/// make a new one.
public final class RedisConnection {
    private let context: UnsafeMutablePointer<redisContext>
    /// Where the connection goes.
    public let address: RedisAddress
    /// How long a blocking read or write may wait.
    private let timeout: Duration

    /// Connects to `address`, waiting at most `timeout` for the connection and, later,
    /// for each read or write.
    public init(to address: RedisAddress, timeout: Duration) throws(RedisError) {
        let tv = Self.timeval(timeout)
        guard let context = redisConnectWithTimeout(address.host, Int32(address.port), tv) else {
            throw RedisError(.connect, "cannot connect to Redis at \(address): out of memory")
        }
        if context.pointee.err != 0 {
            let reason = Self.errorText(context)
            redisFree(context)
            throw RedisError(.connect, "cannot connect to Redis at \(address): \(reason)")
        }
        _ = redisSetTimeout(context, tv)
        _ = redisEnableKeepAlive(context)
        self.context = context
        self.address = address
        self.timeout = timeout
    }

    deinit { redisFree(context) }

    /// The socket, to wait on with `poll`.
    public var fileDescriptor: Int32 { context.pointee.fd }

    /// Queues a command (its name and arguments, binary-safe) to be sent by ``flush()``.
    public func append(_ arguments: [[UInt8]]) throws(RedisError) {
        let status = Self.withArgv(arguments) { argc, argv, lengths in
            redisAppendCommandArgv(context, argc, argv, lengths)
        }
        guard status == REDIS_OK else { throw failure("a command could not be queued") }
    }

    /// Queues a command given as text arguments.
    public func append(_ arguments: String...) throws(RedisError) {
        try append(arguments.map { Array($0.utf8) })
    }

    /// Writes every queued command (waiting at most the timeout for each write).
    public func flush() throws(RedisError) {
        var done: Int32 = 0
        while done == 0 {
            guard redisBufferWrite(context, &done) == REDIS_OK else { throw failure("writing to Redis failed") }
        }
    }

    /// A reply already read from the socket, if one is complete; never waits.
    public func bufferedReply() throws(RedisError) -> RedisReply? {
        var raw: UnsafeMutableRawPointer?
        guard redisGetReplyFromReader(context, &raw) == REDIS_OK else {
            throw failure("Redis sent something that is not its protocol")
        }
        guard let raw else { return nil }
        defer { freeReplyObject(raw) }
        return RedisReply(raw.assumingMemoryBound(to: redisReply.self))
    }

    /// Whether bytes arrive within `wait` (or the socket closed or failed: the next
    /// read tells which).
    public func isReadable(within wait: Duration) -> Bool {
        var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(clamping: wait.clampedNanoseconds / 1_000_000)
        return poll(&descriptor, 1, milliseconds) > 0
    }

    /// Reads what the socket has (after ``isReadable(within:)``; blocks otherwise).
    public func read() throws(RedisError) {
        guard redisBufferRead(context) == REDIS_OK else { throw failure("reading from Redis failed") }
    }

    /// The next reply, reading until one is complete; the wait for each read is the
    /// connection's timeout.
    public func nextReply() throws(RedisError) -> RedisReply {
        while true {
            if let reply = try bufferedReply() { return reply }
            guard isReadable(within: timeout) else {
                throw RedisError(.io, "Redis at \(address) sent no reply within \(timeout)")
            }
            try read()
        }
    }

    /// Sends one command and waits for its reply. An error reply is returned, not thrown.
    public func command(_ arguments: [[UInt8]]) throws(RedisError) -> RedisReply {
        try append(arguments)
        try flush()
        return try nextReply()
    }

    /// Sends one command given as text arguments and waits for its reply.
    public func command(_ arguments: String...) throws(RedisError) -> RedisReply {
        try command(arguments.map { Array($0.utf8) })
    }

    // MARK: Private

    private func failure(_ what: String) -> RedisError {
        let kind: RedisError.Kind = context.pointee.err == REDIS_ERR_PROTOCOL ? .protocolViolation : .io
        return RedisError(kind, "\(what) (\(address)): \(Self.errorText(context))")
    }

    private static func errorText(_ context: UnsafeMutablePointer<redisContext>) -> String {
        withUnsafeBytes(of: context.pointee.errstr) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return bytes.isEmpty ? "connection closed" : String(decoding: bytes, as: UTF8.self)
        }
    }

    private static func timeval(_ duration: Duration) -> Glibc.timeval {
        let nanoseconds = duration.clampedNanoseconds
        return Glibc.timeval(tv_sec: nanoseconds / 1_000_000_000, tv_usec: (nanoseconds % 1_000_000_000) / 1_000)
    }

    /// Calls `body` with C views of `arguments` (argc, argv and lengths).
    private static func withArgv<R>(
        _ arguments: [[UInt8]], _ body: (Int32, UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafePointer<Int>) -> R
    ) -> R {
        // One buffer holding every argument, so the pointers stay valid during `body`.
        var storage: [UInt8] = []
        storage.reserveCapacity(arguments.reduce(1) { $0 + $1.count })
        var offsets: [Int] = []
        for argument in arguments {
            offsets.append(storage.count)
            storage.append(contentsOf: argument)
        }
        storage.append(0)
        let lengths = arguments.map(\.count)
        return storage.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            var argv: [UnsafePointer<CChar>?] = offsets.map { base + $0 }
            return argv.withUnsafeMutableBufferPointer { argvBuffer in
                lengths.withUnsafeBufferPointer { lengthBuffer in
                    body(Int32(arguments.count), argvBuffer.baseAddress!, lengthBuffer.baseAddress!)
                }
            }
        }
    }
}
