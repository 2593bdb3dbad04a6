extension Publisher where Failure == Never {
    /// Shares one subscription to this publisher among all subscribers and replays
    /// the latest value to each new one (share-replay of one value).
    ///
    /// The upstream subscription starts with the first subscriber and is kept while
    /// the returned publisher is alive.
    public func shareLatest() -> AnyPublisher<Output, Never> {
        let latest = CurrentValueSubject<Output?, Never>(nil)
        return map(Optional.some)
            .multicast(subject: latest)
            .autoconnect()
            .compactMap { $0 }
            .eraseToAnyPublisher()
    }
}
