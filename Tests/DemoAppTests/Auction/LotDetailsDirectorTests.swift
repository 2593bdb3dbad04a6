import DemoApp
import Footlight
import FootlightJSON
import Testing

extension AuctionTests {
    /// The lot details Director with plain subjects and a fake bidding service.
    @Suite struct LotDetailsDirectorTests {
        struct Offline: Error {}

        final class Harness {
            let lot: CurrentValueSubject<Lot?, Never>
            let now = CurrentValueSubject<Duration, Never>(.zero)
            let account: CurrentValueSubject<String?, Never>
            let amount = PassthroughSubject<String, Never>()
            let submit = PassthroughSubject<Void, Never>()
            let bidding = FakeBidding()
            let director: LotDetailsDirector
            let details: Recording<LotDetails?>
            let amountText: Recording<String>
            let amountError: Recording<String?>
            let canSubmit: Recording<Bool>
            let submitting: Recording<Bool>
            let submitTitle: Recording<String>
            let message: Recording<BidMessage?>
            let needsSignIn: Recording<Void>

            init(lot: Lot? = LotDetailsDirectorTests.lot, account: String? = "ada") {
                self.lot = CurrentValueSubject(lot)
                self.account = CurrentValueSubject(account)
                director = LotDetailsDirector(
                    lot: self.lot.eraseToAnyPublisher(), now: now.eraseToAnyPublisher(),
                    account: self.account.eraseToAnyPublisher(), amount: amount.eraseToAnyPublisher(),
                    submit: submit.eraseToAnyPublisher(), bidding: bidding)
                details = Recording(director.details)
                amountText = Recording(director.amount)
                amountError = Recording(director.amountError)
                canSubmit = Recording(director.canSubmit)
                submitting = Recording(director.submitting)
                submitTitle = Recording(director.submitTitle)
                message = Recording(director.message)
                needsSignIn = Recording(director.needsSignIn)
            }
        }

        /// $450.00 to start, closing in an hour.
        static let lot = AuctionFixtures.lot(1, title: "Harbour at Dusk", artist: "Inès Moreau", startingCents: 45_000)

        @Test("The details are display-ready and follow the live lot, with where the signed-in user stands")
        func details() throws {
            let harness = Harness()
            let first = try #require(harness.details.last ?? nil)
            #expect(first.number == "Lot 1")
            #expect(first.title == "Harbour at Dusk")
            #expect(first.artist == "Inès Moreau")
            #expect(first.medium == "Oil on canvas, 1951")
            #expect(first.currentBid == "$450.00")
            #expect(first.bidLabel == "Starting bid")
            #expect(first.bidCount == "No bids")
            #expect(first.timeLeft == "1 h 00 min")
            #expect(first.minimumBid == "$450.00")
            #expect(first.standing == nil)
            #expect(!first.closed)
            harness.lot.send(Self.lot.recording(bidOf: 50_000, by: "ada"))
            harness.lot.send(Self.lot.recording(bidOf: 50_000, by: "ada").recording(bidOf: 52_500, by: "bo"))
            harness.now.send(.seconds(3_600))
            #expect(harness.details.values.map { $0?.currentBid } == ["$450.00", "$500.00", "$525.00", "$525.00"])
            #expect(harness.details.values.map { $0?.bidCount } == ["No bids", "1 bid", "2 bids", "2 bids"])
            #expect(harness.details.values.map { $0?.minimumBid } == ["$450.00", "$525.00", "$550.00", "$550.00"])
            #expect(
                harness.details.values.map { $0?.standing } == [
                    nil, "You have the highest bid.", nil, "Sold for $525.00.",
                ])
            #expect(
                harness.details.values.map { $0?.timeLeft } == ["1 h 00 min", "1 h 00 min", "1 h 00 min", "Closed"])
            harness.account.send("bo")
            #expect(harness.details.last??.standing == "You won this lot.")
            harness.lot.send(Self.lot.closed())
            #expect(harness.details.last??.standing == "Closed without bids.")
            #expect(harness.details.last??.closed == true)
            let json = LotDetails(lot: Self.lot, now: .zero, account: nil).viewJSON
            #expect(json["standing"] == .null)
            #expect(json["minimumBid"] == "$450.00")
            #expect(json["image"]?["alt"] == "Harbour at Dusk by Inès Moreau (landscape)")
        }

        @Test("The amount is checked as the user types, against the lot's minimum, with formatted messages")
        func validation() {
            let harness = Harness()
            harness.amount.send("abc")
            harness.amount.send("4")
            harness.amount.send("450")
            harness.amount.send("450.001")
            harness.amount.send("99,999,999")
            harness.amount.send("$1,000")
            harness.lot.send(Self.lot.recording(bidOf: 100_000, by: "bo"))  // another session bids $1,000
            harness.amount.send("")
            #expect(
                harness.amountError.values == [
                    nil, "Enter an amount in dollars, like 1,250 or 1,250.00.", "Bid at least $450.00.", nil,
                    "Use at most two decimal places (cents).", "Enter at most $10,000,000.00.", nil,
                    "Bid at least $1,100.00.", nil,
                ])
            #expect(harness.canSubmit.values == [false, true, false, true, false])
            #expect(harness.amountText.values == ["", "abc", "4", "450", "450.001", "99,999,999", "$1,000", ""])
            #expect(harness.message.values == [nil])
            #expect(harness.bidding.requests.isEmpty)
        }

        @Test("Submit places one bid at a time, shows it in progress, then empties the field and reports success")
        func successfulBid() {
            let harness = Harness()
            harness.amount.send("500")
            harness.submit.send(())
            harness.submit.send(())  // ignored while the first runs
            #expect(harness.bidding.requests == [BidRequest(lotID: "lot-1", amountCents: 50_000, bidder: "ada")])
            #expect(harness.submitting.values == [false, true])
            #expect(harness.submitTitle.values == ["Place bid", "Placing bid…"])
            #expect(harness.canSubmit.values == [false, true, false])
            harness.bidding.accept()
            #expect(harness.submitting.values == [false, true, false])
            #expect(harness.submitTitle.values == ["Place bid", "Placing bid…", "Place bid"])
            #expect(harness.amountText.values == ["", "500", ""])
            #expect(harness.canSubmit.values == [false, true, false])
            #expect(
                harness.message.values == [
                    nil, BidMessage(text: "Your bid of $500.00 is the highest bid.", isError: false),
                ])
            harness.amount.send("6")
            #expect(harness.message.last == .some(nil))
            #expect(harness.needsSignIn.values.isEmpty)
        }

        @Test("An accepted bid's message follows the lot: outbid once another bid passes it")
        func outbid() throws {
            let harness = Harness()
            harness.amount.send("500")
            harness.submit.send(())
            harness.bidding.accept()
            let accepted = BidMessage(text: "Your bid of $500.00 is the highest bid.", isError: false)
            #expect(harness.message.last == .some(accepted))
            // The service records our bid: still ours.
            let ours = try #require(harness.lot.value).recording(bidOf: 50_000, by: "ada")
            harness.lot.send(ours)
            #expect(harness.message.last == .some(accepted))
            // Someone else bids more: the message says so, without the user touching the field.
            harness.lot.send(ours.recording(bidOf: 55_000, by: "grace"))
            #expect(
                harness.message.last
                    == .some(
                        BidMessage(
                            text: "You were outbid: the highest bid is now $550.00 (yours was $500.00).",
                            isError: true)))
            harness.amount.send("6")
            #expect(harness.message.last == .some(nil))
        }

        @Test("A refused bid keeps the amount and says why, with the money formatted")
        func refusedBid() {
            let harness = Harness()
            harness.amount.send("500")
            harness.submit.send(())
            harness.bidding.refuse(BidError.tooLow(minimumCents: 52_500))
            harness.submit.send(())
            harness.bidding.refuse(BidError.lotClosed(id: "lot-1"))
            harness.submit.send(())
            harness.bidding.refuse(Offline())
            #expect(harness.bidding.requests.count == 3)
            #expect(harness.amountText.values == ["", "500"])
            #expect(harness.submitting.values == [false, true, false, true, false, true, false])
            #expect(harness.canSubmit.values == [false, true, false, true, false, true, false, true])
            #expect(
                harness.message.values.map { $0?.text } == [
                    nil, "Bid not placed: someone bid first. The least you can bid now is $525.00.",
                    "Bid not placed: bidding on this lot has closed.", "Bid not placed: please try again.",
                ])
            #expect(harness.message.values.dropFirst().allSatisfy { $0?.isError == true })
            #expect(
                BidMessage.refused(BidError.unknownLot(id: "x")).text == "Bid not placed: this lot is no longer listed."
            )
            #expect(BidMessage(text: "Hi", isError: true).viewJSON == ["text": "Hi", "error": true])
        }

        @Test("Signed out, submit asks to sign in and places nothing; once signed in, it bids")
        func signedOut() {
            let harness = Harness(account: nil)
            #expect(harness.submitTitle.values == ["Sign in to bid"])
            #expect(harness.canSubmit.values == [true])
            harness.submit.send(())
            harness.amount.send("abc")
            harness.submit.send(())
            #expect(harness.needsSignIn.values.count == 2)
            #expect(harness.bidding.requests.isEmpty)
            harness.account.send("ada")
            harness.amount.send("450")
            harness.submit.send(())
            #expect(harness.submitTitle.values == ["Sign in to bid", "Place bid", "Placing bid…"])
            #expect(harness.canSubmit.values == [true, false, true, false])
            #expect(harness.bidding.requests == [BidRequest(lotID: "lot-1", amountCents: 45_000, bidder: "ada")])
            #expect(harness.needsSignIn.values.count == 2)
        }

        @Test("A closed lot takes no bid and asks nothing: no error, no submit, no sign-in")
        func closedLot() {
            let harness = Harness(account: nil)
            harness.now.send(.seconds(3_600))
            harness.amount.send("abc")
            harness.submit.send(())
            harness.account.send("ada")
            harness.amount.send("5000")
            harness.submit.send(())
            #expect(harness.canSubmit.values == [true, false])
            #expect(harness.amountError.values == [nil])
            #expect(harness.needsSignIn.values.isEmpty)
            #expect(harness.bidding.requests.isEmpty)
            #expect(harness.details.last??.timeLeft == "Closed")
        }

        @Test("An unknown lot has no details and no form")
        func unknownLot() {
            let harness = Harness(lot: nil)
            harness.amount.send("500")
            harness.submit.send(())
            #expect(harness.details.values == [nil])
            #expect(harness.canSubmit.values == [false])
            #expect(harness.bidding.requests.isEmpty)
        }
    }
}
