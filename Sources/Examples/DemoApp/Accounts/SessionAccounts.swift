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
        let directory = self.directory
        return clock.answer(after: latency) { directory.signUp(email: email, password: password) }
    }

    public func signIn(email: String, password: String) -> AnyPublisher<Account, any Error> {
        let directory = self.directory
        return clock.answer(after: latency) { directory.signIn(email: email, password: password) }
    }
}
