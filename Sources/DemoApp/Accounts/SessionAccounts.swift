import Footlight

/// The shared ``AccountDirectory`` seen from a session: answers arrive on the session's
/// clock after a short latency, like a network round trip, so the page shows the
/// request in progress.
public struct SessionAccounts: AccountService {
    let directory: AccountDirectory
    let clock: any SessionClock
    let latency: Duration

    public init(directory: AccountDirectory, clock: any SessionClock, latency: Duration = .milliseconds(400)) {
        self.directory = directory
        self.clock = clock
        self.latency = latency
    }

    public func signUp(email: String, password: String) -> AnyPublisher<Account, any Error> {
        answer { $0.signUp(email: email, password: password) }
    }

    public func signIn(email: String, password: String) -> AnyPublisher<Account, any Error> {
        answer { $0.signIn(email: email, password: password) }
    }

    private func answer(
        _ request: @escaping @Sendable (AccountDirectory) -> Result<Account, AccountError>
    ) -> AnyPublisher<Account, any Error> {
        let result = PassthroughSubject<Account, any Error>()
        // The subject is used only on the session's queue, where the caller subscribed.
        nonisolated(unsafe) let subject = result
        let directory = self.directory
        clock.schedule(after: latency) {
            switch request(directory) {
            case .success(let account):
                subject.send(account)
                subject.send(completion: .finished)
            case .failure(let error):
                subject.send(completion: .failure(error))
            }
        }
        return result.eraseToAnyPublisher()
    }
}
