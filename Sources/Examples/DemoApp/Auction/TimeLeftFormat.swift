/// Time left until a lot closes, as the kiosk shows it: the two largest units, the
/// second zero-padded ("1 d 04 h", "2 h 05 min", "3 min 09 s"; in German "1 Tg. 04 Std.",
/// "2 Std. 05 Min."), seconds alone under a minute ("45 s"), and "Closed" once it has run out.
public enum TimeLeftFormat {
    /// `remaining` rounded up to whole seconds (so "1 s" shows until the end), or
    /// "Closed" when it is zero or less, in `language`.
    public static func string(remaining: Duration, in language: KioskLanguage = .fallback) -> String {
        let strings = language.strings
        let (d, h, min, s) = strings.timeUnits
        let (wholeSeconds, attoseconds) = remaining.components
        guard wholeSeconds > 0 || (wholeSeconds == 0 && attoseconds > 0) else { return strings.closed }
        let seconds = wholeSeconds + (attoseconds > 0 ? 1 : 0)
        let days = seconds / 86_400
        let hours = seconds % 86_400 / 3_600
        let minutes = seconds % 3_600 / 60
        let secs = seconds % 60
        if days > 0 { return "\(days) \(d) \(padded(hours)) \(h)" }
        if hours > 0 { return "\(hours) \(h) \(padded(minutes)) \(min)" }
        if minutes > 0 { return "\(minutes) \(min) \(padded(secs)) \(s)" }
        return "\(secs) \(s)"
    }

    /// The time left on `lot` at `now`: "Closed" when the service closed it, too.
    public static func string(for lot: Lot, at now: Duration, in language: KioskLanguage = .fallback) -> String {
        lot.isClosed ? language.strings.closed : string(remaining: lot.closesAt - now, in: language)
    }

    private static func padded(_ value: Int64) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
