import Footlight

/// Makes the listings' rows (``LotRow``) and remembers the last ones, so that the
/// Directors sharing a formatter share the rows: one change to the auction reaching
/// every session's listings is formatted once per order, and every session's view
/// document holds the same row values (their JSON storage too), so each session's
/// listings find the rows that changed (``ListingsDirector/rowChanges``) without
/// looking inside the others.
///
/// It makes the lot pages' details the same way (``details(of:at:account:in:)``): once
/// per lot, time left and language for every page showing the lot.
///
/// A row is made again only when its lot changed or its time left reads differently,
/// so rows survive across snapshots and ticks. Thread-safe: sessions on different
/// loops may share one (``KioskServices/rowFormatter``). A ``ListingsDirector`` given
/// none makes its own.
public final class LotRowFormatter: Sendable {
    /// The rows last made in one order, and what they were made from.
    private struct Listing {
        let lots: [Lot]
        let now: Duration
        let rows: [LotRow]
    }

    /// A listing's order and language.
    private struct ListingKey: Hashable {
        let order: ListingOrder
        let language: KioskLanguage
    }

    private struct State {
        /// The last listing made in each order and language.
        var listings: [ListingKey: Listing] = [:]
        /// The last row made for each lot and language (those of lots gone are forgotten
        /// as listings are made).
        var rows = LotSnapshotCache<LotRow>(maximumCount: .max)
        /// The last details made for each lot and language (for no account).
        var details = LotSnapshotCache<LotDetails>()

        mutating func row(for lot: Lot, at now: Duration, in language: KioskLanguage) -> LotRow {
            rows.snapshot(of: lot, at: now, in: language) { LotRow(lot: lot, now: now, language: language) }
        }
    }

    private let state = Locked(State())

    /// The details of `lot` at `now` in `language`, for the signed-in account `account`:
    /// what every visitor sees alike (money, counts and dates formatted) is made once per
    /// lot, time left and language and shared by every lot page; only the account's
    /// standing is made per call.
    public func details(of lot: Lot, at now: Duration, account: String?, in language: KioskLanguage) -> LotDetails {
        let shared = state.withLock { state in
            state.details.snapshot(of: lot, at: now, in: language) {
                LotDetails(lot: lot, now: now, account: nil, language: language)
            }
        }
        return shared.seen(by: account, on: lot, in: language)
    }

    public init() {}

    /// `lots` in `order`, as rows at `now` on the auction clock, in `language`. The same
    /// snapshot at the same time gives the very same array; a lot that has not changed
    /// keeps its row.
    public func rows(
        of lots: [Lot], at now: Duration, in order: ListingOrder, language: KioskLanguage = .fallback
    ) -> [LotRow] {
        state.withLock { state in
            let key = ListingKey(order: order, language: language)
            // `==` on arrays answers at once for the same snapshot (shared storage).
            if let listing = state.listings[key], listing.now == now, listing.lots == lots {
                return listing.rows
            }
            let rows = order.sorted(lots).map { state.row(for: $0, at: now, in: language) }
            state.listings[key] = Listing(lots: lots, now: now, rows: rows)
            if state.rows.count > lots.count * KioskLanguage.allCases.count {
                // Forget the rows of lots that are gone.
                state.rows.keepOnly(lots: Set(lots.map(\.id)))
            }
            return rows
        }
    }
}
