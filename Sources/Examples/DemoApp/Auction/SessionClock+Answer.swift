import Footlight

extension SessionClock {
    /// Publishes what `request` returns after `latency` on this clock, as a remote
    /// service would answer: the value then completion, or the failure. The request is
    /// made when the latency has passed, for each subscriber, and not at all if the
    /// subscription is cancelled first (a stage closed while its request was on its way:
    /// the sign-up it started does not happen). Subscribe on the clock's session
    /// executor, where the answer is delivered.
    func answer<Value, Failure: Error>(
        after latency: Duration, _ request: @escaping @Sendable () -> Result<Value, Failure>
    ) -> AnyPublisher<Value, any Error> {
        let clock = self
        return Deferred { () -> AnyPublisher<Value, any Error> in
            let result = PassthroughSubject<Value, any Error>()
            // The subject is used only on the session's executor, where the caller subscribed.
            nonisolated(unsafe) let subject = result
            let scheduled = clock.schedule(after: latency) {
                switch request() {
                case .success(let value):
                    subject.send(value)
                    subject.send(completion: .finished)
                case .failure(let error):
                    subject.send(completion: .failure(error))
                }
            }
            return result.handleEvents(receiveCancel: { scheduled.cancel() }).eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }
}
