import Footlight

/// A bid the user asks to place.
public struct BidRequest: Equatable, Sendable {
    /// The lot to bid on.
    public let lotID: String
    /// The amount, in cents.
    public let amountCents: Int
    /// The bidder's account id.
    public let bidder: String

    /// A request to bid `amountCents` on a lot for `bidder`.
    public init(lotID: String, amountCents: Int, bidder: String) {
        self.lotID = lotID
        self.amountCents = amountCents
        self.bidder = bidder
    }
}

/// Places bids for a Director: ``SessionBidding`` on the live service, a fake in tests.
public protocol BidPlacing {
    /// Publishes the accepted bid, or fails (with a ``BidError`` when the auction
    /// refused it). Delivers on the caller's session executor.
    func placeBid(_ request: BidRequest) -> AnyPublisher<Bid, any Error>
}

/// Bids on the shared ``AuctionService`` from a session: the answer arrives on the
/// session's clock after a short latency, like a network round trip, so the page shows
/// the bid in progress.
public struct SessionBidding: BidPlacing {
    let service: AuctionService
    let clock: any SessionClock
    let latency: Duration

    /// Bidding on `service`, answering after `latency` on the session's `clock`.
    public init(service: AuctionService, clock: any SessionClock, latency: Duration = .milliseconds(300)) {
        self.service = service
        self.clock = clock
        self.latency = latency
    }

    public func placeBid(_ request: BidRequest) -> AnyPublisher<Bid, any Error> {
        let service = self.service
        return clock.answer(after: latency) {
            service.placeBid(lotID: request.lotID, amountCents: request.amountCents, bidder: request.bidder)
        }
    }
}
