import Foundation

/// How the flight card writes days, times, places and durations in the visitor's
/// language, on the Gregorian calendar, each in the time zone it is given, so the card
/// reads the same on every server whatever its own locale.
public enum FlightFormat {
    /// The day of `date` in `timeZone`, as `language` abbreviates it (Foundation's date
    /// format): "Tue 3 Dec", "Di. 3. Dez.".
    public static func day(_ date: Date, in timeZone: TimeZone, language: KioskLanguage = .fallback) -> String {
        date.formatted(
            Date.FormatStyle(
                locale: language.dateLocale, calendar: Calendar(identifier: .gregorian), timeZone: timeZone
            )
            .weekday(.abbreviated).day().month(.abbreviated))
    }

    /// The time of `date` in `timeZone`, on the 24-hour clock: "14:05", "09:30".
    public static func time(_ date: Date, in timeZone: TimeZone) -> String {
        let parts = components(of: date, in: timeZone)
        return "\(padded(parts.hour ?? 0)):\(padded(parts.minute ?? 0))"
    }

    /// A city (by its English name) and its airport, in `language`: "Lisbon (LIS)",
    /// "Lissabon (LIS)".
    public static func place(city: String, airportCode: String, language: KioskLanguage = .fallback) -> String {
        "\(language.strings.cityName(city)) (\(airportCode))"
    }

    /// An endpoint's time and place, in `language`: "14:05 · Lisbon (LIS)".
    public static func summary(of endpoint: FlightEndpoint, language: KioskLanguage = .fallback) -> String {
        let place = place(city: endpoint.city, airportCode: endpoint.airportCode, language: language)
        return "\(time(endpoint.time, in: endpoint.timeZone)) · \(place)"
    }

    /// A duration in hours and whole minutes (seconds are dropped), leaving out a part
    /// that is zero, in `language`: "3 hours, 10 minutes", "1 hour, 1 minute", "2 hours",
    /// "45 minutes", "0 minutes".
    public static func duration(_ interval: TimeInterval, language: KioskLanguage = .fallback) -> String {
        let minutes = interval.isFinite ? max(0, Int((interval / 60).rounded(.down))) : 0
        return language.strings.flightDuration(minutes / 60, minutes % 60)
    }

    private static func components(of date: Date, in timeZone: TimeZone) -> DateComponents {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.dateComponents([.weekday, .day, .month, .hour, .minute], from: date)
    }

    private static func padded(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
