extension Publisher where Failure == Never {
    /// Shares one subscription to this publisher among all subscribers and replays
    /// the latest value to each new one (share-replay of one value).
    ///
    /// The upstream subscription starts with the first subscriber and ends when the
    /// last one cancels. The shared stream does not complete, even when the upstream
    /// does (it keeps replaying the last value).
    public func shareLatest() -> AnyPublisher<Output, Never> {
        let latest = CurrentValueSubject<Output?, Never>(nil)
        // The shared stream never completes: OpenCombine's multicast keeps its
        // connection (and everything upstream) alive for good once the upstream has
        // completed, as `Just` and `Empty` do at once; a Director output needs no end.
        return map(Optional.some)
            .append(Empty(completeImmediately: false))
            .multicast(subject: latest)
            .autoconnect()
            .compactMap { $0 }
            .eraseToAnyPublisher()
    }
}
