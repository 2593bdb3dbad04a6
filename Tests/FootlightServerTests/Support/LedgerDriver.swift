import FootlightJSON
import FootlightTesting

/// Drives one session of the ledger probe stage through a connection that keeps being
/// cut: adds 1, 2, 3, … with at most `window` events unacknowledged, and resumes (with
/// the token and last applied seq, re-sending what is unacknowledged) whenever the
/// socket ends.
struct LedgerDriver {
    let client: TestClient
    /// Events sent at least.
    let events: Int
    /// Sockets to see end (cuts) at least, sending more events while fewer have.
    let cuts: Int
    let window: Int
    /// Events sent at most, however few cuts came.
    var maximumEvents: Int { events * 4 }

    /// Sends until both `events` and `cuts` are reached, then waits until everything is
    /// acknowledged and the last add shows. Returns the number of events sent.
    func run(deadline: ContinuousClock.Instant) async throws -> Int {
        var sent = 0
        while sent < maximumEvents, sent < events || client.observation.socketsEnded < cuts {
            try check(deadline)
            let now = client.observation
            if !now.isOpen {
                try await client.resume(attempts: 20)
            } else if now.mirror.unacknowledged.count >= window {
                try await client.wait("room in the window of \(window) events") {
                    $0.mirror.unacknowledged.count < window || !$0.isOpen
                }
            } else {
                sent += 1
                try await client.send("add", in: "ledger", value: .int(Int64(sent)))
            }
        }
        // Acknowledged is not yet applied by the client: a resume's `joined` acknowledges
        // events whose patches follow it. Done when the last add shows in the replica.
        let last = JSON.int(Int64(sent))
        let caughtUp: @Sendable (TestClient.Observation) -> Bool = {
            $0.mirror.unacknowledged.isEmpty && $0.mirror.documents["ledger"]?["last"] == last
        }
        while !(client.observation.isOpen && caughtUp(client.observation)) {
            try check(deadline)
            if client.observation.isOpen {
                try await client.wait("every event to be acknowledged and applied") { caughtUp($0) || !$0.isOpen }
            } else {
                try await client.resume(attempts: 20)
            }
        }
        return sent
    }

    private func check(_ deadline: ContinuousClock.Instant) throws {
        guard ContinuousClock.now < deadline else {
            throw WaitTimeout(what: "the ledger run to finish (\(client.observation.mirror.nextEvent - 1) events sent)")
        }
    }
}

/// The ledger stage's document, read.
struct LedgerFigures: Equatable {
    let count: Int64
    let distinct: Int64
    let sum: Int64
    let last: Int64
    let unordered: Int64

    init?(_ document: JSON?) {
        func number(_ key: String) -> Int64? {
            if case .int(let value)? = document?[key] { value } else { nil }
        }
        guard let count = number("count"), let distinct = number("distinct"), let sum = number("sum"),
            let last = number("last"), let unordered = number("unordered")
        else { return nil }
        (self.count, self.distinct, self.sum, self.last, self.unordered) = (count, distinct, sum, last, unordered)
    }

    /// Adds of 1…`sent` that never applied (each applied number is distinct).
    func lost(sent: Int) -> Int64 { Int64(sent) - distinct }
    /// Applications beyond the first of any number.
    var doubled: Int64 { count - distinct }
}
