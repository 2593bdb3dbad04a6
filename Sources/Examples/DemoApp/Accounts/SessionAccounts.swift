import Footlight

/// The shared ``AccountDirectory`` seen from a session: answers arrive on the session's
/// clock after a short latency, like a network round trip, so the page shows the
/// request in progress. Given a ``BlockingWork``, the directory's password hashing runs
/// on its threads, not on the session's loop.
public struct SessionAccounts: AccountService {
    let directory: @Sendable () -> AccountDirectory
    let clock: any SessionClock
    let latency: Duration
    let work: BlockingWork?

    public init(
        directory: AccountDirectory, clock: any SessionClock, latency: Duration = .milliseconds(400),
        work: BlockingWork? = nil
    ) {
        self.directory = { directory }
        self.clock = clock
        self.latency = latency
        self.work = work
    }

    /// Accounts in a directory made by `makeDirectory` when first needed, once: a
    /// session's throwaway directory costs nothing until the user signs up or in.
    public init(
        makingDirectory makeDirectory: @escaping @Sendable () -> AccountDirectory, clock: any SessionClock,
        latency: Duration = .milliseconds(400), work: BlockingWork? = nil
    ) {
        let made = Locked<AccountDirectory?>(nil)
        directory = {
            made.withLock { directory in
                if let directory { return directory }
                let new = makeDirectory()
                directory = new
                return new
            }
        }
        self.clock = clock
        self.latency = latency
        self.work = work
    }

    public func signUp(email: String, password: String) -> AnyPublisher<Account, any Error> {
        let directory = self.directory
        return clock.answer(after: latency, offloading: work.map { ($0, AccountError.busy) }) {
            directory().signUp(email: email, password: password)
        }
    }

    public func signIn(email: String, password: String) -> AnyPublisher<Account, any Error> {
        let directory = self.directory
        return clock.answer(after: latency, offloading: work.map { ($0, AccountError.busy) }) {
            directory().signIn(email: email, password: password)
        }
    }
}
