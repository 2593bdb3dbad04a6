extension Publisher where Failure == Never {
    /// Emits, for each value of this publisher, the latest value of `other`, combined
    /// by `combine`. Values that arrive before `other` has emitted are dropped; a new
    /// value of `other` alone emits nothing.
    ///
    /// ```swift
    /// let submitted = submitTaps.withLatestFrom(form) { _, form in form }
    /// ```
    public func withLatestFrom<Other: Publisher, Result>(
        _ other: Other, _ combine: @escaping (Output, Other.Output) -> Result
    ) -> AnyPublisher<Result, Never> where Other.Failure == Never {
        // Merge both, remember the latest of `other`, and emit only on this side.
        tagged(with: other)
            .scan((latest: Other.Output?.none, emit: Result?.none)) { state, next in
                switch next {
                case .left(let value): (state.latest, state.latest.map { combine(value, $0) })
                case .right(let latest): (latest, nil)
                }
            }
            .compactMap(\.emit)
            .eraseToAnyPublisher()
    }

    /// Emits the latest value of `other` for each value of this publisher.
    public func withLatestFrom<Other: Publisher>(_ other: Other) -> AnyPublisher<Other.Output, Never>
    where Other.Failure == Never {
        withLatestFrom(other) { _, latest in latest }
    }
}
