import DemoApp
import Footlight
import Testing

/// The sign-in form's Director with plain subjects and a fake account service.
@Suite struct SigninDirectorTests {
    /// Answers when the test says so.
    final class FakeAccounts: AccountService {
        var requests: [String] = []
        var pending: PassthroughSubject<Account, any Error>?

        func signUp(email: String, password: String) -> AnyPublisher<Account, any Error> {
            Fail(error: AccountError.unavailable).eraseToAnyPublisher()
        }

        func signIn(email: String, password: String) -> AnyPublisher<Account, any Error> {
            requests.append("\(email) \(password)")
            let subject = PassthroughSubject<Account, any Error>()
            pending = subject
            return subject.eraseToAnyPublisher()
        }
    }

    final class Harness {
        let email = PassthroughSubject<String, Never>()
        let password = PassthroughSubject<String, Never>()
        let submit = PassthroughSubject<Void, Never>()
        let accounts = FakeAccounts()
        let director: SigninDirector
        var canSubmit: [Bool] = []
        var submitting: [Bool] = []
        var message: [String?] = []
        var signedIn: [Account] = []
        var subscriptions: [AnyCancellable] = []

        init() {
            director = SigninDirector(
                email: email.eraseToAnyPublisher(), password: password.eraseToAnyPublisher(),
                submit: submit.eraseToAnyPublisher(), accounts: accounts)
            subscriptions = [
                director.canSubmit.sink { [unowned self] in canSubmit.append($0) },
                director.submitting.sink { [unowned self] in submitting.append($0) },
                director.message.sink { [unowned self] in message.append($0) },
                director.signedIn.sink { [unowned self] in signedIn.append($0) },
            ]
        }
    }

    static let ada = Account(email: "ada@example.com", name: "Ada", website: "https://example.com/")

    @Test("Submit is enabled once both fields are filled in, and sends them trimmed")
    func enabling() {
        let harness = Harness()
        #expect(harness.canSubmit == [false])
        harness.submit.send()
        #expect(harness.accounts.requests.isEmpty, "an empty form is not sent")
        harness.email.send("  ada@example.com ")
        #expect(harness.canSubmit == [false])
        harness.password.send("pw")
        #expect(harness.canSubmit == [false, true])
        harness.email.send("   ")
        #expect(harness.canSubmit == [false, true, false])
        harness.email.send(" ada@example.com ")
        harness.submit.send()
        #expect(harness.accounts.requests == ["ada@example.com pw"])
    }

    @Test("One sign-in at a time; success is the scene output")
    func success() {
        let harness = Harness()
        harness.email.send("ada@example.com")
        harness.password.send("lovelace1843")
        harness.submit.send()
        harness.submit.send()
        #expect(harness.accounts.requests.count == 1)
        #expect(harness.submitting == [false, true])
        #expect(harness.canSubmit == [false, true, false])
        harness.accounts.pending?.send(Self.ada)
        harness.accounts.pending?.send(completion: .finished)
        #expect(harness.signedIn == [Self.ada])
        #expect(harness.submitting == [false, true, false])
        #expect(harness.message == [nil])
    }

    @Test("A refusal is a message, cleared when the user edits a field")
    func refusal() {
        let harness = Harness()
        harness.email.send("ada@example.com")
        harness.password.send("wrong")
        harness.submit.send()
        harness.accounts.pending?.send(completion: .failure(AccountError.wrongCredentials))
        #expect(harness.message == [nil, "Sign-in failed: the email or the password is not right."])
        #expect(harness.signedIn.isEmpty)
        #expect(harness.canSubmit.last == true)
        harness.password.send("wrong again")
        #expect(harness.message == [nil, "Sign-in failed: the email or the password is not right.", nil])
    }
}
