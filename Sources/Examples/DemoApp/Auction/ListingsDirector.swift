import Footlight

/// The listings' logic: the live lots in the order the user picks, display-ready, and
/// which lot the user opened. Knows nothing of HTML or sockets.
public final class ListingsDirector {
    /// The order control's segments, in order, with the selected one marked.
    public let segments: AnyPublisher<[SegmentItem], Never>
    /// The selected order's id, e.g. "grid" or "most-bids".
    public let selectedSegment: AnyPublisher<String, Never>
    /// "grid" for the Grid order, "table" for the others.
    public let layout: AnyPublisher<String, Never>
    /// The lots in the selected order (repeats removed: a tick that changes no text
    /// emits nothing).
    public let rows: AnyPublisher<[LotRow], Never>
    /// The same rows as changes for a keyed slot (``RowChange``): a bid or a tick is an
    /// update of the rows it changed, a new order the fewest moves.
    public let rowChanges: AnyPublisher<[RowChange<LotRow>], Never>
    /// Scene output: the id of the lot the user opened (only ids of listed lots).
    public let selectedLot: AnyPublisher<String, Never>

    /// - Parameters:
    ///   - lots: the auction's lots, e.g. ``AuctionService/lotsPublisher(on:)``.
    ///   - now: the auction clock's time, ticking (``ClockTicks``), for the time left.
    ///   - segment: the segment the user picks, by id or label (others are ignored).
    ///   - open: the id of the lot the user taps.
    ///   - language: the session's language, for the labels and the rows' text.
    ///   - initialOrder: the order shown first.
    ///   - formatter: makes the rows; Directors that share one share their rows (a
    ///     server shares one between all sessions, ``KioskServices/rowFormatter``).
    public init(
        lots: AnyPublisher<[Lot], Never>, now: AnyPublisher<Duration, Never>, segment: AnyPublisher<String, Never>,
        open: AnyPublisher<String, Never>,
        language: AnyPublisher<KioskLanguage, Never> = Just(.fallback).eraseToAnyPublisher(),
        initialOrder: ListingOrder = .grid, formatter: LotRowFormatter = LotRowFormatter()
    ) {
        let order = segment.compactMap(ListingOrder.init(name:))
            .prepend(initialOrder)
            .removeDuplicates()
            .shareLatest()
        let lots = lots.shareLatest()
        let view = order.combineLatest(language.removeDuplicates()).shareLatest()
        segments = view.map { selected, language in
            ListingOrder.allCases.map { SegmentItem(order: $0, selected: $0 == selected, language: language) }
        }
        .eraseToAnyPublisher()
        selectedSegment = order.map(\.rawValue).eraseToAnyPublisher()
        layout = order.map(\.layout).removeDuplicates().eraseToAnyPublisher()
        rows = lots.combineLatest(now, view) { lots, now, view in
            formatter.rows(of: lots, at: now, in: view.0, language: view.1)
        }
        .removeDuplicates()
        .eraseToAnyPublisher()
        rowChanges = rows.rowChanges()
        selectedLot = open.withLatestFrom(lots) { id, lots in lots.contains { $0.id == id } ? id : nil }
            .compactMap { $0 }
            .eraseToAnyPublisher()
    }
}
