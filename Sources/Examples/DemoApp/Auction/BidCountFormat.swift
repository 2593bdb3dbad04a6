/// A lot's number of bids as the kiosk shows it: "No bids", "1 bid", "3 bids",
/// "1,204 bids"; "Keine Gebote", "1.204 Gebote".
public enum BidCountFormat {
    /// `count` bids, in words and digits, in `language`.
    public static func string(count: Int, in language: KioskLanguage = .fallback) -> String {
        language.strings.bidCount(count, MoneyFormat.grouped(count, in: language))
    }
}
