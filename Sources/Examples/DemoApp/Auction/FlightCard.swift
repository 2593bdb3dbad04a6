import Footlight
import FootlightJSON
import Foundation

/// The flight card: an inert view model (no Director) of a flight, every field a
/// display-ready string formatted by ``FlightFormat``.
public struct FlightCard: ViewValue, Equatable, Sendable {
    /// One end of the flight, display-ready.
    public struct Endpoint: ViewValue, Equatable, Sendable {
        /// "Tue 3 Dec", in the airport's time zone.
        public let day: String
        /// "14:05", in the airport's time zone.
        public let time: String
        /// "Lisbon (LIS)" ("Lissabon (LIS)" in German).
        public let place: String
        /// "14:05 · Lisbon (LIS)".
        public let summary: String

        /// The display form of `endpoint`, in its own time zone, in `language`.
        public init(_ endpoint: FlightEndpoint, language: KioskLanguage = .fallback) {
            day = FlightFormat.day(endpoint.time, in: endpoint.timeZone, language: language)
            time = FlightFormat.time(endpoint.time, in: endpoint.timeZone)
            place = FlightFormat.place(city: endpoint.city, airportCode: endpoint.airportCode, language: language)
            summary = FlightFormat.summary(of: endpoint, language: language)
        }

        public var viewJSON: JSON {
            ["day": .string(day), "time": .string(time), "place": .string(place), "summary": .string(summary)]
        }
    }

    /// "TAP Air Portugal".
    public let airline: String
    /// "TP 1276".
    public let flightNumber: String
    /// Where and when it leaves.
    public let departure: Endpoint
    /// Where and when it lands.
    public let arrival: Endpoint
    /// "3 hours, 10 minutes".
    public let duration: String

    /// The card of `flight`, in `language`.
    public init(flight: Flight, language: KioskLanguage = .fallback) {
        airline = flight.airline
        flightNumber = "\(flight.airlineCode) \(flight.number)"
        departure = Endpoint(flight.departure, language: language)
        arrival = Endpoint(flight.arrival, language: language)
        duration = FlightFormat.duration(flight.duration, language: language)
    }

    public var viewJSON: JSON {
        [
            "airline": .string(airline), "flightNumber": .string(flightNumber), "departure": departure.viewJSON,
            "arrival": arrival.viewJSON, "duration": .string(duration),
        ]
    }
}

extension Flight {
    /// The demo's "trip to the auction": Lisbon 14:05 to Vienna 18:15 (local times) on
    /// Tuesday 3 December 2030, 3 hours 10 minutes in the air. Nil only if this
    /// system lacks the time zone data.
    public static var tripToTheAuction: Flight? {
        guard let lisbon = TimeZone(identifier: "Europe/Lisbon"), let vienna = TimeZone(identifier: "Europe/Vienna")
        else { return nil }
        // 2030-12-03 14:05 and 17:15 UTC (Lisbon is on UTC, Vienna an hour ahead).
        return try? Flight(
            airline: "TAP Air Portugal", airlineCode: "TP", number: 1276,
            departure: FlightEndpoint(
                city: "Lisbon", airportCode: "LIS", time: Date(timeIntervalSince1970: 1_922_537_100),
                timeZone: lisbon),
            arrival: FlightEndpoint(
                city: "Vienna", airportCode: "VIE", time: Date(timeIntervalSince1970: 1_922_548_500),
                timeZone: vienna))
    }
}
