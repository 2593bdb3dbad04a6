extension Publisher where Failure == Never {
    /// Emits, for each value of this publisher, the latest value of `other`, combined
    /// by `combine`. Values that arrive before `other` has emitted are dropped; a new
    /// value of `other` alone emits nothing. Finishes when this publisher finishes (or
    /// `other` finishes without ever emitting).
    ///
    /// ```swift
    /// let submitted = submitTaps.withLatestFrom(form) { _, form in form }
    /// ```
    public func withLatestFrom<Other: Publisher, Result>(
        _ other: Other, _ combine: @escaping (Output, Other.Output) -> Result
    ) -> AnyPublisher<Result, Never> where Other.Failure == Never {
        Paired(left: self, right: other, mode: .withLatestFrom)
            .map { combine($0.0, $0.1) }
            .eraseToAnyPublisher()
    }

    /// Emits the latest value of `other` for each value of this publisher.
    public func withLatestFrom<Other: Publisher>(_ other: Other) -> AnyPublisher<Other.Output, Never>
    where Other.Failure == Never {
        withLatestFrom(other) { _, latest in latest }
    }
}
