import Foundation

/// A flight (a model value): who flies it and its two endpoints. The display form is
/// ``FlightCard``.
public struct Flight: Equatable, Sendable {
    /// The airline's name, e.g. "TAP Air Portugal".
    public let airline: String
    /// The airline's designator, e.g. "TP".
    public let airlineCode: String
    /// The flight's number, e.g. 1276.
    public let number: Int
    /// Where and when it leaves.
    public let departure: FlightEndpoint
    /// Where and when it lands.
    public let arrival: FlightEndpoint

    /// A flight; throws ``FlightError`` when it would arrive before it departs or its
    /// number is not positive.
    public init(
        airline: String, airlineCode: String, number: Int, departure: FlightEndpoint, arrival: FlightEndpoint
    ) throws(FlightError) {
        guard number > 0 else { throw .invalidNumber(number) }
        guard arrival.time >= departure.time else {
            throw .arrivesBeforeDeparture(departure: departure.airportCode, arrival: arrival.airportCode)
        }
        self.airline = airline
        self.airlineCode = airlineCode
        self.number = number
        self.departure = departure
        self.arrival = arrival
    }

    /// Time in the air.
    public var duration: TimeInterval { arrival.time.timeIntervalSince(departure.time) }
}

/// One end of a flight: where, and when in that place's time zone.
public struct FlightEndpoint: Equatable, Sendable {
    /// The city, e.g. "Lisbon".
    public let city: String
    /// The IATA airport code, e.g. "LIS".
    public let airportCode: String
    /// The moment of departure or arrival.
    public let time: Date
    /// The airport's time zone: times and days are shown in it.
    public let timeZone: TimeZone

    /// An endpoint at `time`, shown in `timeZone`.
    public init(city: String, airportCode: String, time: Date, timeZone: TimeZone) {
        self.city = city
        self.airportCode = airportCode
        self.time = time
        self.timeZone = timeZone
    }
}

/// A flight that cannot be.
public enum FlightError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The arrival is earlier than the departure.
    case arrivesBeforeDeparture(departure: String, arrival: String)
    /// The flight number is zero or negative.
    case invalidNumber(Int)

    public var description: String {
        switch self {
        case .arrivesBeforeDeparture(let departure, let arrival):
            "the flight from \(departure) would arrive at \(arrival) before it departs"
        case .invalidNumber(let number): "a flight number must be positive, not \(number)"
        }
    }
}
