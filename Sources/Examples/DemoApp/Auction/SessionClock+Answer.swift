import Footlight

extension SessionClock {
    /// Publishes what `request` returns after `latency` on this clock, as a remote
    /// service would answer: the value then completion, or the failure. The request is
    /// made when the latency has passed, for each subscriber, and not at all if the
    /// subscription is cancelled first (a stage closed while its request was on its way:
    /// the sign-up it started does not happen). Subscribe on the clock's session
    /// executor, where the answer is delivered.
    ///
    /// With `work`, the request runs on its threads (slow work such as hashing a
    /// password stays off the session's loop) and the answer comes back on this clock;
    /// when `work` is full, the answer is `busy`.
    func answer<Value: Sendable, Failure: Error>(
        after latency: Duration, on work: BlockingWork? = nil, busy: Failure? = nil,
        _ request: @escaping @Sendable () -> Result<Value, Failure>
    ) -> AnyPublisher<Value, any Error> {
        let clock = self
        return Deferred { () -> AnyPublisher<Value, any Error> in
            let result = PassthroughSubject<Value, any Error>()
            // The subject is used only on the session's executor, where the caller subscribed.
            nonisolated(unsafe) let subject = result
            let deliver: @Sendable (Result<Value, any Error>) -> Void = { answer in
                switch answer {
                case .success(let value):
                    subject.send(value)
                    subject.send(completion: .finished)
                case .failure(let error):
                    subject.send(completion: .failure(error))
                }
            }
            let scheduled = clock.schedule(after: latency) {
                guard let work else { return deliver(request().mapError { $0 }) }
                let answer = Locked<Result<Value, any Error>?>(nil)
                let started = work.run {
                    answer.withLock { $0 = request().mapError { $0 } }
                    // Back on the session's clock, as a timer due now.
                    clock.schedule(after: .zero) { answer.withLock { $0 }.map(deliver) }
                }
                if !started { deliver(.failure(busy ?? BlockingWorkFull())) }
            }
            return result.handleEvents(receiveCancel: { scheduled.cancel() }).eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }
}

/// ``BlockingWork`` refused a request: as much as it allows is running and waiting.
struct BlockingWorkFull: Error, CustomStringConvertible {
    var description: String { "too much work is waiting; try again" }
}
