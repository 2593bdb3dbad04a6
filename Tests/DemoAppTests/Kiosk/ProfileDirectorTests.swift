import DemoApp
import Footlight
import Testing

@Suite struct ProfileDirectorTests {
    @Test("Name, address and a short website label; tapping the website opens its URL")
    func profile() {
        let account = CurrentValueSubject<Account?, Never>(
            Account(email: "ada@example.com", name: "Ada Lovelace", website: "https://example.com/ada/"))
        let openWebsite = PassthroughSubject<Void, Never>()
        let trip = PassthroughSubject<Void, Never>()
        let signOut = PassthroughSubject<Void, Never>()
        let director = ProfileDirector(
            account: account.eraseToAnyPublisher(), openWebsite: openWebsite.eraseToAnyPublisher(),
            trip: trip.eraseToAnyPublisher(), signOut: signOut.eraseToAnyPublisher())
        var names: [String] = []
        var emails: [String?] = []
        var websites: [String?] = []
        var opened: [String] = []
        var trips = 0
        var signedOut = 0
        let subscriptions = [
            director.name.sink { names.append($0) }, director.email.sink { emails.append($0) },
            director.website.sink { websites.append($0) }, director.openURL.sink { opened.append($0) },
            director.showTrip.sink { trips += 1 }, director.signedOut.sink { signedOut += 1 },
        ]
        #expect(names == ["Ada Lovelace"])
        #expect(emails == ["ada@example.com"])
        #expect(websites == ["example.com/ada"])
        openWebsite.send()
        #expect(opened == ["https://example.com/ada/"])
        trip.send()
        #expect(trips == 1)
        signOut.send()
        #expect(signedOut == 1)

        // Signed out: nothing to open, no trip to show.
        account.send(nil)
        #expect(names == ["Ada Lovelace", "Signed out"])
        #expect(websites == ["example.com/ada", nil])
        openWebsite.send()
        trip.send()
        #expect(opened.count == 1)
        #expect(trips == 1)
        for subscription in subscriptions { subscription.cancel() }
    }
}
