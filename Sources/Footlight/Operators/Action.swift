/// Runs one asynchronous job at a time and exposes its progress as non-failing
/// outputs: the in-progress flag, the values and the errors.
///
/// A trigger that arrives while a job runs is ignored (a form submitted twice is sent
/// once). When the work completes on another thread, deliver its results on the
/// session's executor (`environment.executor.execute`, or a timer of `environment.clock`).
///
/// ```swift
/// let signIn = Action(trigger: submitted) { credentials in
///     accounts.signIn(credentials).receive(on: scheduler).eraseToAnyPublisher()
/// }
/// let busy = signIn.isExecuting            // AnyPublisher<Bool, Never>
/// let failure = signIn.errors.map(describe) // AnyPublisher<String, Never>
/// ```
public final class Action<Input, Output> {
    private let work: (Input) -> AnyPublisher<Output, any Error>
    private let executing = CurrentValueSubject<Bool, Never>(false)
    private let valuesSubject = PassthroughSubject<Output, Never>()
    private let errorsSubject = PassthroughSubject<any Error, Never>()
    private var job: AnyCancellable?
    private var triggerSubscription: AnyCancellable?

    /// An action running `work` for each input, one at a time.
    public init(_ work: @escaping (Input) -> AnyPublisher<Output, any Error>) {
        self.work = work
    }

    /// An action running `work` for each value of `trigger`, one at a time.
    public convenience init<Trigger: Publisher>(
        trigger: Trigger, _ work: @escaping (Input) -> AnyPublisher<Output, any Error>
    ) where Trigger.Output == Input, Trigger.Failure == Never {
        self.init(work)
        triggerSubscription = trigger.sink { [weak self] input in self?.execute(input) }
    }

    /// Starts a job for `input`, unless one is running. Returns whether it started.
    @discardableResult
    public func execute(_ input: Input) -> Bool {
        guard !executing.value else { return false }
        executing.send(true)
        var finished = false
        let subscription = work(input).sink(
            receiveCompletion: { [weak self] completion in
                finished = true
                guard let self else { return }
                if case .failure(let error) = completion { self.errorsSubject.send(error) }
                self.job = nil
                self.executing.send(false)
            },
            receiveValue: { [weak self] value in self?.valuesSubject.send(value) })
        // A job that completed synchronously has already reset the state.
        if !finished { job = subscription }
        return true
    }

    // Each output keeps the action alive while it is observed, so an action made inside
    // a Director keeps running after the Director itself is released (a stage holds the
    // subscriptions to its outputs, not the Director).

    /// Whether a job is running; starts with `false`.
    public var isExecuting: AnyPublisher<Bool, Never> { retaining(executing.removeDuplicates()) }
    /// The values the jobs produce.
    public var values: AnyPublisher<Output, Never> { retaining(valuesSubject) }
    /// The errors that ended jobs.
    public var errors: AnyPublisher<any Error, Never> { retaining(errorsSubject) }

    private func retaining<Upstream: Publisher>(_ upstream: Upstream) -> AnyPublisher<Upstream.Output, Never>
    where Upstream.Failure == Never {
        upstream.map { [self] value in withExtendedLifetime(self) { value } }.eraseToAnyPublisher()
    }
}
