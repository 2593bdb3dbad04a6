import DemoApp
import Footlight
import FootlightJSON
import Foundation
import Testing

extension AuctionTests {
    @Suite struct FlightCardTests {
        /// `date` at a local wall-clock time in `zone`.
        func date(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, in zone: TimeZone) throws -> Date {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            return try #require(
                calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute)))
        }

        func zone(_ identifier: String) throws -> TimeZone {
            try #require(TimeZone(identifier: identifier))
        }

        @Test("The trip to the auction: Lisbon to Vienna on Tuesday 3 December, 3 hours 10 minutes")
        func tripToTheAuction() throws {
            let card = FlightCard(flight: try #require(Flight.tripToTheAuction))
            #expect(card.airline == "TAP Air Portugal")
            #expect(card.flightNumber == "TP 1276")
            #expect(card.departure.day == "Tue 3 Dec")
            #expect(card.departure.time == "14:05")
            #expect(card.departure.place == "Lisbon (LIS)")
            #expect(card.departure.summary == "14:05 · Lisbon (LIS)")
            #expect(card.arrival.day == "Tue 3 Dec")
            #expect(card.arrival.time == "18:15")
            #expect(card.arrival.summary == "18:15 · Vienna (VIE)")
            #expect(card.duration == "3 hours, 10 minutes")
            #expect(
                card.viewJSON == [
                    "airline": "TAP Air Portugal", "flightNumber": "TP 1276",
                    "departure": [
                        "day": "Tue 3 Dec", "time": "14:05", "place": "Lisbon (LIS)", "summary": "14:05 · Lisbon (LIS)",
                    ],
                    "arrival": [
                        "day": "Tue 3 Dec", "time": "18:15", "place": "Vienna (VIE)", "summary": "18:15 · Vienna (VIE)",
                    ],
                    "duration": "3 hours, 10 minutes",
                ])
        }

        @Test("The trip in German: its cities' German names, days and duration")
        func tripInGerman() throws {
            let card = FlightCard(flight: try #require(Flight.tripToTheAuction), language: .german)
            #expect(card.departure.place == "Lissabon (LIS)")
            #expect(card.departure.summary == "14:05 · Lissabon (LIS)")
            #expect(card.arrival.place == "Wien (VIE)")
            #expect(card.arrival.summary == "18:15 · Wien (VIE)")
            #expect(card.departure.day == "Di. 3. Dez.")
            #expect(!card.duration.contains("hour"))
            // A city the table does not name keeps its own.
            #expect(FlightFormat.place(city: "Oslo", airportCode: "OSL", language: .german) == "Oslo (OSL)")
        }

        @Test("Each endpoint is shown in its own time zone, across the date line of midnight")
        func timeZones() throws {
            let newYork = try zone("America/New_York")
            let london = try zone("Europe/London")
            let flight = try Flight(
                airline: "Transatlantic", airlineCode: "TA", number: 7,
                departure: FlightEndpoint(
                    city: "New York", airportCode: "JFK", time: try date(2030, 12, 2, 21, 5, in: newYork),
                    timeZone: newYork),
                arrival: FlightEndpoint(
                    city: "London", airportCode: "LHR", time: try date(2030, 12, 3, 9, 5, in: london), timeZone: london)
            )
            let card = FlightCard(flight: flight)
            #expect(card.flightNumber == "TA 7")
            #expect(card.departure.day == "Mon 2 Dec")
            #expect(card.departure.summary == "21:05 · New York (JFK)")
            #expect(card.arrival.day == "Tue 3 Dec")
            #expect(card.arrival.summary == "09:05 · London (LHR)")
            #expect(card.duration == "7 hours")
            // The same instant reads differently in each zone.
            let instant = try date(2030, 1, 1, 0, 30, in: try zone("UTC"))
            #expect(FlightFormat.day(instant, in: try zone("Asia/Tokyo")) == "Tue 1 Jan")
            #expect(FlightFormat.time(instant, in: try zone("Asia/Tokyo")) == "09:30")
            #expect(FlightFormat.day(instant, in: newYork) == "Mon 31 Dec")
            #expect(FlightFormat.time(instant, in: newYork) == "19:30")
            #expect(FlightFormat.time(instant, in: try zone("Asia/Kolkata")) == "06:00")
        }

        /// Seconds and the text shown.
        static let durationCases: [(Double, String)] = [
            (11_400, "3 hours, 10 minutes"), (3_600, "1 hour"), (3_660, "1 hour, 1 minute"), (7_200, "2 hours"),
            (7_260, "2 hours, 1 minute"), (3_720, "1 hour, 2 minutes"), (60, "1 minute"), (2_700, "45 minutes"),
            (0, "0 minutes"), (59, "0 minutes"), (11_459, "3 hours, 10 minutes"), (93_900, "26 hours, 5 minutes"),
            (-60, "0 minutes"), (.infinity, "0 minutes"),
        ]

        @Test("Durations in hours and minutes, singular and plural, leaving out a zero part", arguments: durationCases)
        func durations(seconds: Double, text: String) {
            #expect(FlightFormat.duration(seconds) == text)
        }

        @Test("A flight cannot arrive before it departs, nor have a number below 1")
        func invalidFlights() throws {
            let utc = try zone("UTC")
            let early = FlightEndpoint(
                city: "Porto", airportCode: "OPO", time: Date(timeIntervalSince1970: 0), timeZone: utc)
            let late = FlightEndpoint(
                city: "Faro", airportCode: "FAO", time: Date(timeIntervalSince1970: 60), timeZone: utc)
            #expect(throws: FlightError.arrivesBeforeDeparture(departure: "FAO", arrival: "OPO")) {
                try Flight(airline: "A", airlineCode: "AA", number: 1, departure: late, arrival: early)
            }
            #expect(throws: FlightError.invalidNumber(0)) {
                try Flight(airline: "A", airlineCode: "AA", number: 0, departure: early, arrival: late)
            }
            #expect(
                FlightError.arrivesBeforeDeparture(departure: "FAO", arrival: "OPO").description
                    == "the flight from FAO would arrive at OPO before it departs")
            let card = FlightCard(
                flight: try Flight(airline: "A", airlineCode: "AA", number: 1, departure: early, arrival: late))
            #expect(card.duration == "1 minute")
            #expect(card.departure.summary == "00:00 · Porto (OPO)")
        }
    }
}
