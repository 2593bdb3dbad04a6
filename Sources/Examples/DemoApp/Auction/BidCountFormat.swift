/// A lot's number of bids as the kiosk shows it: "No bids", "1 bid", "3 bids",
/// "1,204 bids".
public enum BidCountFormat {
    /// `count` bids, in words and digits.
    public static func string(count: Int) -> String {
        switch count {
        case ..<1: "No bids"
        case 1: "1 bid"
        default: "\(MoneyFormat.grouped(count.magnitude)) bids"
        }
    }
}
