import OrderedCollections

/// The sessions pages' first responses started (``FirstContentConfiguration``) that no
/// socket has joined yet, as a value: at most ``maximum`` at once, each for ``expiry``.
///
/// A session is *starting* while the `GET` that made it takes its first messages (its
/// capture connection is attached), and *waiting* once that connection has let go: only
/// then does a connection that attaches adopt it.
struct PendingSessions: Equatable {
    let maximum: Int
    let expiry: Duration
    private struct Entry: Equatable {
        let started: ContinuousClock.Instant
        var waiting = false
    }
    /// By session id, in the order they started.
    private var entries: OrderedDictionary<String, Entry> = [:]

    init(maximum: Int, expiry: Duration) {
        self.maximum = maximum
        self.expiry = expiry
    }

    /// Sessions pending now.
    var count: Int { entries.count }

    /// Whether session `id` is pending (starting or waiting).
    func contains(_ id: String) -> Bool { entries[id] != nil }

    /// Admits session `id`, started at `now`: false when ``maximum`` are pending.
    mutating func admit(_ id: String, now: ContinuousClock.Instant) -> Bool {
        guard entries.count < maximum, entries[id] == nil else { return false }
        entries[id] = Entry(started: now)
        return true
    }

    /// The `GET`'s capture connection let go of session `id`: it waits for its page.
    /// False when it is not pending.
    mutating func wait(_ id: String) -> Bool {
        guard entries[id] != nil else { return false }
        entries[id]?.waiting = true
        return true
    }

    /// A connection attached to session `id`: true when that adopts a waiting session
    /// (which is no longer pending); a starting one stays so.
    mutating func adopt(_ id: String) -> Bool {
        guard entries[id]?.waiting == true else { return false }
        entries.removeValue(forKey: id)
        return true
    }

    /// Forgets session `id` (it ended, or its `GET` gave up on it).
    mutating func remove(_ id: String) {
        entries.removeValue(forKey: id)
    }

    /// Removes and returns the sessions pending for ``expiry`` or longer at `now`.
    mutating func expire(now: ContinuousClock.Instant) -> [String] {
        var expired: [String] = []
        while let (id, entry) = entries.elements.first, now - entry.started >= expiry {
            entries.removeFirst()
            expired.append(id)
        }
        return expired
    }

    /// Forgets every session.
    mutating func removeAll() { entries.removeAll() }
}
