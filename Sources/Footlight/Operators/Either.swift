/// One value from either of two publishers: what the combining operators merge
/// before folding with `scan`.
enum Either<Left, Right> {
    case left(Left)
    case right(Right)
}

extension Publisher {
    /// This publisher's and `other`'s values, tagged with their side, in arrival order.
    func tagged<Other: Publisher>(with other: Other) -> AnyPublisher<Either<Output, Other.Output>, Failure>
    where Other.Failure == Failure {
        let sides: [AnyPublisher<Either<Output, Other.Output>, Failure>] = [
            map { .left($0) }.eraseToAnyPublisher(), other.map { .right($0) }.eraseToAnyPublisher(),
        ]
        return Publishers.Sequence(sequence: sides).flatMap { $0 }.eraseToAnyPublisher()
    }
}
