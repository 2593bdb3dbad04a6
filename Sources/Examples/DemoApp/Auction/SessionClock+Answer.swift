import Footlight

extension SessionClock {
    /// Publishes what `request` returns after `latency` on this clock, as a remote
    /// service would answer: the value then completion, or the failure. The request is
    /// made when the latency has passed, for each subscriber, and not at all if the
    /// subscription is cancelled first (a stage closed while its request was on its way:
    /// the sign-up it started does not happen). Subscribe on the clock's session
    /// executor, where the answer is delivered.
    ///
    /// With `offloading`, the request runs on the work's threads (slow work such as
    /// hashing a password stays off the session's loop) and the answer comes back on
    /// this clock; when the work is full, the answer is its `busy` failure.
    func answer<Value: Sendable, Failure: Error>(
        after latency: Duration, offloading: (work: BlockingWork, busy: Failure)? = nil,
        _ request: @escaping @Sendable () -> Result<Value, Failure>
    ) -> AnyPublisher<Value, any Error> {
        let clock = self
        return Deferred { () -> AnyPublisher<Value, any Error> in
            let result = PassthroughSubject<Value, any Error>()
            // The subject is used only on the session's executor, where the caller subscribed.
            nonisolated(unsafe) let subject = result
            let deliver: @Sendable (Result<Value, Failure>) -> Void = { answer in
                switch answer {
                case .success(let value):
                    subject.send(value)
                    subject.send(completion: .finished)
                case .failure(let error):
                    subject.send(completion: .failure(error))
                }
            }
            let scheduled = clock.schedule(after: latency) {
                guard let (work, busy) = offloading else { return deliver(request()) }
                let started = work.run {
                    let answer = request()
                    // Back on the session's clock, as a timer due now.
                    clock.schedule(after: .zero) { deliver(answer) }
                }
                if !started { deliver(.failure(busy)) }
            }
            return result.handleEvents(receiveCancel: { scheduled.cancel() }).eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }
}
