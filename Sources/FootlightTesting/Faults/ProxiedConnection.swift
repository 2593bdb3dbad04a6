#if canImport(Glibc)
    import Glibc
#endif

/// One client connection through the ``FaultProxy`` and its connection to the server,
/// confined to the proxy's thread.
final class ProxiedConnection {
    /// Which way bytes flow.
    enum Direction: Int, CaseIterable {
        case clientToServer = 0
        case serverToClient = 1
    }

    let client: Int32
    let server: Int32
    /// Until the connection to the server completes, the client is not read.
    var connecting = true
    /// Bytes read from one end and not yet written to the other, by direction.
    private var pending: [[UInt8]] = [[], []]
    private var scanners = [FrameScanner(), FrameScanner()]
    /// Bytes still to forward before the cut, or nil for no cut.
    private var bytesBeforeCut: Int?
    /// Set once the cut offset is reached: the direction whose bytes still go out.
    private(set) var cutDirection: Direction?
    private(set) var isClosed = false

    init(client: Int32, server: Int32, bytesBeforeCut: Int?) {
        self.client = client
        self.server = server
        self.bytesBeforeCut = bytesBeforeCut
    }

    func source(_ direction: Direction) -> Int32 { direction == .clientToServer ? client : server }
    func destination(_ direction: Direction) -> Int32 { direction == .clientToServer ? server : client }

    /// Whether to read from the source of `direction`: only when what was read before
    /// is out, so each direction holds at most one read's worth.
    func wantsToRead(_ direction: Direction) -> Bool {
        !connecting && cutDirection == nil && pending[direction.rawValue].isEmpty
    }

    func hasPending(_ direction: Direction) -> Bool { !pending[direction.rawValue].isEmpty }

    /// What a cut reports.
    struct Cut {
        let direction: Direction
        let position: FrameScanner.Position
    }

    /// Reads once from the source of `direction` and forwards what it may. Returns the
    /// cut when this read reached the cut offset. Closes the connection when either end
    /// has closed or failed.
    func forward(_ direction: Direction, buffer: inout [UInt8], record: (Int) -> Void) -> Cut? {
        let count = buffer.withUnsafeMutableBytes { recv(source(direction), $0.baseAddress, $0.count, 0) }
        if count < 0, errno == EAGAIN || errno == EINTR { return nil }
        guard count > 0 else {
            close(reset: false)
            return nil
        }
        var forwarded = count
        var cut: Cut?
        if let left = bytesBeforeCut {
            forwarded = min(count, left)
            bytesBeforeCut = left - forwarded
        }
        buffer.withUnsafeBytes { scanners[direction.rawValue].scan(UnsafeRawBufferPointer(rebasing: $0[..<forwarded])) }
        if bytesBeforeCut == 0 {
            cutDirection = direction
            cut = Cut(direction: direction, position: scanners[direction.rawValue].position)
        }
        pending[direction.rawValue].append(contentsOf: buffer[..<forwarded])
        record(forwarded)
        flush(direction)
        return cut
    }

    /// Writes what waits for the destination of `direction`, as far as it takes it.
    func flush(_ direction: Direction) {
        guard !isClosed, !pending[direction.rawValue].isEmpty else { return }
        let written = pending[direction.rawValue].withUnsafeBytes {
            send(destination(direction), $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        if written < 0 {
            if errno != EAGAIN && errno != EINTR { close(reset: false) }
            return
        }
        pending[direction.rawValue].removeFirst(written)
    }

    /// After a cut: whether the bytes up to the cut offset are all out.
    var cutIsDue: Bool {
        guard let cutDirection else { return false }
        return pending[cutDirection.rawValue].isEmpty
    }

    /// Closes both sockets (with a reset if asked); what still waits is dropped.
    func close(reset: Bool) {
        guard !isClosed else { return }
        isClosed = true
        ProxySockets.close(client, reset: reset)
        ProxySockets.close(server, reset: reset)
        pending = [[], []]
    }
}
