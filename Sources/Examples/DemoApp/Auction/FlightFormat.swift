import Foundation

/// How the flight card writes days, times, places and durations. Fixed English
/// forms on the Gregorian calendar, each in the time zone it is given, so the card
/// reads the same on every server whatever its locale.
public enum FlightFormat {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The day of `date` in `timeZone`: "Tue 3 Dec".
    public static func day(_ date: Date, in timeZone: TimeZone) -> String {
        let parts = components(of: date, in: timeZone)
        let weekday = parts.weekday.flatMap { weekdays[safe: $0 - 1] } ?? "?"
        let month = parts.month.flatMap { months[safe: $0 - 1] } ?? "?"
        return "\(weekday) \(parts.day ?? 0) \(month)"
    }

    /// The time of `date` in `timeZone`, on the 24-hour clock: "14:05", "09:30".
    public static func time(_ date: Date, in timeZone: TimeZone) -> String {
        let parts = components(of: date, in: timeZone)
        return "\(padded(parts.hour ?? 0)):\(padded(parts.minute ?? 0))"
    }

    /// A city and its airport: "Lisbon (LIS)".
    public static func place(city: String, airportCode: String) -> String {
        "\(city) (\(airportCode))"
    }

    /// An endpoint's time and place: "14:05 · Lisbon (LIS)".
    public static func summary(of endpoint: FlightEndpoint) -> String {
        "\(time(endpoint.time, in: endpoint.timeZone)) · \(place(city: endpoint.city, airportCode: endpoint.airportCode))"
    }

    /// A duration in hours and whole minutes (seconds are dropped), leaving out a part
    /// that is zero: "3 hours, 10 minutes", "1 hour, 1 minute", "2 hours", "45 minutes",
    /// "0 minutes".
    public static func duration(_ interval: TimeInterval) -> String {
        let minutes = interval.isFinite ? max(0, Int((interval / 60).rounded(.down))) : 0
        let hours = minutes / 60
        let rest = minutes % 60
        let hoursText = "\(hours) \(hours == 1 ? "hour" : "hours")"
        let minutesText = "\(rest) \(rest == 1 ? "minute" : "minutes")"
        switch (hours, rest) {
        case (0, _): return minutesText
        case (_, 0): return hoursText
        default: return "\(hoursText), \(minutesText)"
        }
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

extension Array {
    fileprivate subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
