import Footlight
import FootlightJSON

/// One segment of the listings' order control: `{"id", "title", "selected", "pressed"}`.
public struct SegmentItem: ViewValue, Equatable, Sendable {
    /// The order's id, e.g. "most-bids" (what a click on it sends back).
    public let id: String
    /// The label, e.g. "Most bids".
    public let title: String
    /// Whether this is the order shown.
    public let selected: Bool

    /// The segment of `order`, labelled in `language`.
    public init(order: ListingOrder, selected: Bool, language: KioskLanguage = .fallback) {
        id = order.rawValue
        title = order.title(in: language)
        self.selected = selected
    }

    /// Adds `"pressed": "true"` or `"false"`, the `aria-pressed` state as the attribute spells it.
    public var viewJSON: JSON {
        ["id": .string(id), "title": .string(title), "selected": .bool(selected), "pressed": .string(String(selected))]
    }
}
