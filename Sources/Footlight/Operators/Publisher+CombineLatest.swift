#if !canImport(Combine)
    // OpenCombine 0.14 has neither `combineLatest` nor `merge`, which almost every
    // Director needs. These fill the gap with Combine's spelling, so the same Director
    // source compiles against Apple's Combine (where these are not compiled) and
    // OpenCombine. They are built from OpenCombine's own FlatMap and Scan, which honour
    // demand, rather than a hand-written Subscription.

    extension Publisher {
        /// Emits the latest value of each publisher whenever either emits, once both have.
        public func combineLatest<Other: Publisher>(_ other: Other) -> AnyPublisher<(Output, Other.Output), Failure>
        where Other.Failure == Failure {
            tagged(with: other)
                .scan((Output?.none, Other.Output?.none)) { latest, next in
                    switch next {
                    case .left(let value): (value, latest.1)
                    case .right(let value): (latest.0, value)
                    }
                }
                .compactMap { left, right in
                    guard let left, let right else { return nil }
                    return (left, right)
                }
                .eraseToAnyPublisher()
        }

        /// Combines the latest values of both publishers with `transform`.
        public func combineLatest<Other: Publisher, Result>(
            _ other: Other, _ transform: @escaping (Output, Other.Output) -> Result
        ) -> AnyPublisher<Result, Failure> where Other.Failure == Failure {
            combineLatest(other).map(transform).eraseToAnyPublisher()
        }

        /// The latest values of three publishers.
        public func combineLatest<B: Publisher, C: Publisher>(
            _ b: B, _ c: C
        ) -> AnyPublisher<(Output, B.Output, C.Output), Failure> where B.Failure == Failure, C.Failure == Failure {
            combineLatest(b).combineLatest(c).map { ($0.0, $0.1, $1) }.eraseToAnyPublisher()
        }

        /// The latest values of three publishers, combined with `transform`.
        public func combineLatest<B: Publisher, C: Publisher, Result>(
            _ b: B, _ c: C, _ transform: @escaping (Output, B.Output, C.Output) -> Result
        ) -> AnyPublisher<Result, Failure> where B.Failure == Failure, C.Failure == Failure {
            combineLatest(b, c).map(transform).eraseToAnyPublisher()
        }

        /// Emits the values of both publishers as they arrive; finishes when both have.
        public func merge<Other: Publisher>(with other: Other) -> AnyPublisher<Output, Failure>
        where Other.Output == Output, Other.Failure == Failure {
            Publishers.Sequence(sequence: [eraseToAnyPublisher(), other.eraseToAnyPublisher()])
                .flatMap { $0 }
                .eraseToAnyPublisher()
        }
    }
#endif
