#if !canImport(Combine)
    // OpenCombine 0.14 has no `Publishers.MergeMany` and no `merge(with:_:)` of three or
    // more, which a Director that gathers its inputs into one stream of changes meets
    // first as a compile error. These add them with Combine's spelling (where Combine
    // exists, its own are used), built like `merge(with:)` from OpenCombine's FlatMap.

    extension Publishers {
        /// Emits the values of all its publishers as they arrive, and finishes when all
        /// have (or fails with the first failure), as Combine's `Publishers.MergeMany`.
        ///
        /// ```swift
        /// let changes = Publishers.MergeMany(adds, toggles, removals)
        /// let anyClick = Publishers.MergeMany(buttons.map(\.clicks))
        /// ```
        public struct MergeMany<Upstream: Publisher>: Publisher {
            public typealias Output = Upstream.Output
            public typealias Failure = Upstream.Failure

            /// The merged publishers, in the order given.
            public let publishers: [Upstream]

            /// Merges `upstream`.
            public init(_ upstream: Upstream...) { publishers = upstream }

            /// Merges every publisher of `upstream`.
            public init<S: Swift.Sequence>(_ upstream: S) where S.Element == Upstream { publishers = Array(upstream) }

            public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
                Publishers.Sequence<[Upstream], Failure>(sequence: publishers).flatMap { $0 }.receive(
                    subscriber: subscriber)
            }

            /// These publishers and `other`.
            public func merge(with other: Upstream) -> MergeMany { MergeMany(publishers + [other]) }
        }
    }

    extension Publisher {
        /// Emits the values of the three publishers as they arrive; finishes when all have.
        public func merge<B: Publisher, C: Publisher>(with b: B, _ c: C) -> AnyPublisher<Output, Failure>
        where B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure {
            Publishers.MergeMany(eraseToAnyPublisher(), b.eraseToAnyPublisher(), c.eraseToAnyPublisher())
                .eraseToAnyPublisher()
        }

        /// Emits the values of the four publishers as they arrive; finishes when all have.
        public func merge<B: Publisher, C: Publisher, D: Publisher>(with b: B, _ c: C, _ d: D) -> AnyPublisher<
            Output, Failure
        >
        where
            B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure,
            D.Output == Output, D.Failure == Failure
        {
            Publishers.MergeMany(
                eraseToAnyPublisher(), b.eraseToAnyPublisher(), c.eraseToAnyPublisher(), d.eraseToAnyPublisher()
            )
            .eraseToAnyPublisher()
        }
    }
#endif
