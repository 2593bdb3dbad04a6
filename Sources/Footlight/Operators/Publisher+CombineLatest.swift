#if !canImport(Combine)
    // OpenCombine 0.14 has neither `combineLatest` nor `merge`, which almost every
    // Director needs. These fill the gap with Combine's spelling, so the same Director
    // source compiles against Apple's Combine (where these are not compiled) and
    // OpenCombine. `merge` is built from OpenCombine's own FlatMap; `combineLatest` is a
    // subscription of its own (``Paired``), one hop where the same built from
    // FlatMap and Scan took five.

    extension Publisher {
        /// Emits the latest value of each publisher whenever either emits, once both have.
        public func combineLatest<Other: Publisher>(_ other: Other) -> AnyPublisher<(Output, Other.Output), Failure>
        where Other.Failure == Failure {
            Paired(left: self, right: other, mode: .combineLatest).eraseToAnyPublisher()
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
            combineLatest(b, c) { ($0, $1, $2) }
        }

        /// The latest values of three publishers, combined with `transform`.
        public func combineLatest<B: Publisher, C: Publisher, Result>(
            _ b: B, _ c: C, _ transform: @escaping (Output, B.Output, C.Output) -> Result
        ) -> AnyPublisher<Result, Failure> where B.Failure == Failure, C.Failure == Failure {
            Paired(left: Paired(left: self, right: b, mode: .combineLatest), right: c, mode: .combineLatest)
                .map { transform($0.0.0, $0.0.1, $0.1) }
                .eraseToAnyPublisher()
        }

        /// The latest values of four publishers.
        public func combineLatest<B: Publisher, C: Publisher, D: Publisher>(
            _ b: B, _ c: C, _ d: D
        ) -> AnyPublisher<(Output, B.Output, C.Output, D.Output), Failure>
        where B.Failure == Failure, C.Failure == Failure, D.Failure == Failure {
            combineLatest(b, c, d) { ($0, $1, $2, $3) }
        }

        /// The latest values of four publishers, combined with `transform`.
        public func combineLatest<B: Publisher, C: Publisher, D: Publisher, Result>(
            _ b: B, _ c: C, _ d: D, _ transform: @escaping (Output, B.Output, C.Output, D.Output) -> Result
        ) -> AnyPublisher<Result, Failure> where B.Failure == Failure, C.Failure == Failure, D.Failure == Failure {
            Paired(
                left: Paired(left: self, right: b, mode: .combineLatest),
                right: Paired(left: c, right: d, mode: .combineLatest), mode: .combineLatest
            )
            .map { transform($0.0.0, $0.0.1, $0.1.0, $0.1.1) }
            .eraseToAnyPublisher()
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
