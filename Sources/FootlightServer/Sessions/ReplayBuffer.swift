import DequeModule

/// Sequenced messages sent but not yet acknowledged, kept to replay after a resume.
/// Bounded by count and bytes; when the oldest is dropped, a client that missed it
/// gets a snapshot instead.
struct ReplayBuffer: Equatable {
    private struct Entry: Equatable {
        let seq: Int64
        let message: WireMessage
    }
    private var entries = Deque<Entry>()
    private(set) var bytes = 0
    let maximumCount: Int
    let maximumBytes: Int
    /// Messages at or below this sequence number are not held: acknowledged by the
    /// client, or dropped to keep the bounds.
    private(set) var floor: Int64 = 0

    init(maximumCount: Int, maximumBytes: Int) {
        self.maximumCount = max(1, maximumCount)
        self.maximumBytes = maximumBytes
    }

    var count: Int { entries.count }

    mutating func append(seq: Int64, message: WireMessage) {
        entries.append(Entry(seq: seq, message: message))
        bytes += message.count
        while entries.count > maximumCount || (bytes > maximumBytes && entries.count > 1) {
            let dropped = entries.removeFirst()
            bytes -= dropped.message.count
            floor = dropped.seq
        }
    }

    /// Forgets everything the client has applied.
    mutating func acknowledge(through seq: Int64) {
        while let first = entries.first, first.seq <= seq {
            bytes -= first.message.count
            entries.removeFirst()
        }
        floor = max(floor, seq)
    }

    /// The messages after `seq`, or nil when some of them are no longer held (or the
    /// client claims less than it acknowledged before).
    func messages(after seq: Int64) -> [WireMessage]? {
        guard seq >= floor else { return nil }
        return entries.filter { $0.seq > seq }.map(\.message)
    }

    /// Forgets everything (a snapshot replaces the history).
    mutating func reset(floor seq: Int64) {
        entries.removeAll()
        bytes = 0
        floor = seq
    }
}
