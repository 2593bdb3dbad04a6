import DemoApp
import Dispatch
import Footlight
import FootlightTesting
import Testing

@Suite struct AccountTests {
    @Test("A new account's name comes from the address, its website from the domain")
    func naming() {
        let account = Account(signingUpWith: "grace.hopper@Navy.example")
        #expect(account.name == "Grace Hopper")
        #expect(account.website == "https://navy.example/")
        #expect(account.email == "grace.hopper@Navy.example")
        #expect(Account(signingUpWith: "x_y+bids@example.com").name == "X Y")
        #expect(Account(signingUpWith: "grace.1984@example.com").name == "Grace")
        #expect(Account(signingUpWith: "42@example.com").name == "42", "nothing but digits: kept as typed")
    }

    @Test("The directory refuses a taken address (whatever its case) and a wrong password")
    func directory() throws {
        let directory = AccountDirectory(seeded: [], cost: .minimal)
        let grace = try directory.signUp(email: "grace@example.com", password: "secret-1").get()
        #expect(directory.signUp(email: "GRACE@example.com", password: "other") == .failure(.taken))
        #expect(directory.signIn(email: "Grace@Example.com", password: "secret-1") == .success(grace))
        #expect(directory.signIn(email: "grace@example.com", password: "secret-2") == .failure(.wrongCredentials))
        #expect(directory.signIn(email: "nobody@example.com", password: "secret-1") == .failure(.wrongCredentials))
    }

    @Test("Sign-up and sign-in read an address alike: white space around it trimmed, the domain's case ignored")
    func normalizedAddresses() throws {
        #expect(EmailAddress.normalized("\u{00A0} Grace@Example.COM\u{00A0}\u{2003}") == "Grace@example.com")
        #expect(EmailAddress.normalized("no-at-sign ") == "no-at-sign")
        let directory = AccountDirectory(seeded: [], cost: .minimal)
        // Copied from a web page: a trailing no-break space.
        let grace = try directory.signUp(email: "grace@example.com\u{00A0}", password: "secret-1").get()
        #expect(grace.email == "grace@example.com")
        #expect(directory.signIn(email: "grace@example.com", password: "secret-1") == .success(grace))
        #expect(directory.signIn(email: " grace@EXAMPLE.com\u{00A0}", password: "secret-1") == .success(grace))
        #expect(directory.signUp(email: "\tgrace@example.com", password: "other") == .failure(.taken))
        #expect(SignupDirector.emailProblem("grace@example.com\u{00A0}") == nil)
    }

    @Test("Addresses and passwords past their limits are refused by the form and by the directory")
    func lengthLimits() {
        let long = String(repeating: "a", count: 990) + "@example.com"
        #expect(SignupDirector.emailProblem(long) == "Use at most 254 characters (1002 so far).")
        #expect(
            SignupDirector.passwordProblem(String(repeating: "p", count: 129))
                == "Use at most 128 characters (129 so far).")
        let directory = AccountDirectory(seeded: [], cost: .minimal)
        #expect(directory.signUp(email: long, password: "secret-1") == .failure(AccountError(.addressTooLong)))
        #expect(
            directory.signUp(email: "ok@example.com", password: String(repeating: "p", count: 129))
                == .failure(AccountError(.passwordTooLong)))
        let fits = String(repeating: "a", count: EmailAddress.maximumLength - 12) + "@example.com"
        #expect((try? directory.signUp(email: fits, password: "secret-1").get()) != nil)
    }

    @Test("The demo accounts are there; the directory holds at most its capacity")
    func seededAndBounded() {
        let directory = AccountDirectory(capacity: 3, cost: .minimal)
        #expect(
            (try? directory.signIn(email: "ada@example.com", password: "lovelace1843").get())?.name == "Ada Lovelace")
        #expect(directory.signUp(email: "taken@example.com", password: "x") == .failure(.taken))
        #expect((try? directory.signUp(email: "one@example.com", password: "x").get()) != nil)
        #expect(
            directory.signUp(email: "two@example.com", password: "x")
                == .failure(AccountError.full))
    }

    @Test("Session accounts answer after their latency on the session's clock")
    func sessionLatency() {
        let clock = ManualAuctionClock()
        let accounts = SessionAccounts(
            directory: AccountDirectory(cost: .minimal), clock: clock, latency: .milliseconds(400))
        var outcomes: [String] = []
        let subscription = accounts.signIn(email: "ada@example.com", password: "wrong").sink(
            receiveCompletion: { completion in
                if case .failure(let error) = completion { outcomes.append("\(error)") }
            }, receiveValue: { outcomes.append($0.name) })
        clock.advance(by: .milliseconds(399))
        #expect(outcomes.isEmpty)
        clock.advance(by: .milliseconds(1))
        #expect(outcomes == ["the email or the password is not right"])
        subscription.cancel()
    }

    @Test(
        "Given a BlockingWork, the hashing runs off the session's queue and the answer comes back on it; a full one answers busy"
    )
    func accountsOffTheSessionQueue() async throws {
        let session = DispatchQueue(label: "session")
        let work = BlockingWork(concurrency: 1, waitingLimit: 0)
        // Used only on `session` once made.
        nonisolated(unsafe) let accounts = SessionAccounts(
            directory: AccountDirectory(cost: .minimal), clock: ExecutorSessionClock(executor: session), latency: .zero,
            work: work)
        let outcomes = Locked<[String]>([])
        // Touched only on `session`.
        nonisolated(unsafe) var subscriptions: [AnyCancellable] = []
        func signIn(_ password: String) {
            session.async {
                let subscription = accounts.signIn(email: "ada@example.com", password: password).sink(
                    receiveCompletion: { completion in
                        dispatchPrecondition(condition: .onQueue(session))
                        if case .failure(let error) = completion { outcomes.withLock { $0.append("\(error)") } }
                    },
                    receiveValue: { account in
                        dispatchPrecondition(condition: .onQueue(session))
                        outcomes.withLock { $0.append(account.name) }
                    })
                subscriptions.append(subscription)
            }
        }
        signIn("lovelace1843")
        for _ in 0..<500 where outcomes.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(outcomes.withLock { $0 } == ["Ada Lovelace"])
        // The only thread is taken: the next sign-in is refused at once, not queued. (The
        // first sign-in's piece of work counts until it returns, a moment after its answer
        // was handed to the session: wait for that.)
        let release = DispatchSemaphore(value: 0)
        var taken = false
        for _ in 0..<500 where !taken {
            taken = work.run { release.wait() }
            if !taken { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(taken)
        signIn("lovelace1843")
        for _ in 0..<500 where outcomes.withLock({ $0.count < 2 }) { try await Task.sleep(for: .milliseconds(10)) }
        release.signal()
        #expect(outcomes.withLock { $0 } == ["Ada Lovelace", AccountError.busy.message])
    }
}
