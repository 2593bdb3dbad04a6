/// What the kiosk shows of a lot at one time (a listing's row, a lot page's details):
/// made once and shared for as long as it reads the same.
protocol LotSnapshot {
    /// Whether the lot had closed.
    var closed: Bool { get }
    /// The time left, as shown.
    var timeLeft: String { get }
}

extension LotSnapshot {
    /// Whether this still shows `lot` at `now` in `language`, made from the same `lot`:
    /// open or closed alike, and the time left reads the same to the second.
    func stillShows(_ lot: Lot, at now: Duration, in language: KioskLanguage) -> Bool {
        closed == !lot.isOpen(at: now) && timeLeft == TimeLeftFormat.string(for: lot, at: now, in: language)
    }
}

/// The last snapshot made of each lot in each language, with the lot it was made from;
/// past `maximumCount` entries (lots come and go) it starts again.
struct LotSnapshotCache<Snapshot: LotSnapshot> {
    private struct Key: Hashable {
        let lotID: String
        let language: KioskLanguage
    }
    private var made: [Key: (lot: Lot, snapshot: Snapshot)] = [:]
    private let maximumCount: Int

    init(maximumCount: Int = 1_024) {
        self.maximumCount = maximumCount
    }

    /// The snapshots kept.
    var count: Int { made.count }

    /// Forgets the snapshots of every lot but those with `ids`.
    mutating func keepOnly(lots ids: Set<String>) {
        made = made.filter { ids.contains($0.key.lotID) }
    }

    /// The snapshot of `lot` at `now` in `language`: the one made before while it still
    /// shows the same, otherwise a new one from `make`.
    mutating func snapshot(of lot: Lot, at now: Duration, in language: KioskLanguage, make: () -> Snapshot) -> Snapshot
    {
        let key = Key(lotID: lot.id, language: language)
        if let last = made[key], last.lot == lot, last.snapshot.stillShows(lot, at: now, in: language) {
            return last.snapshot
        }
        let snapshot = make()
        if made.count >= maximumCount, made[key] == nil { made.removeAll(keepingCapacity: true) }
        made[key] = (lot, snapshot)
        return snapshot
    }
}
