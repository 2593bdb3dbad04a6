/// The middle of `values` (the upper one of an even count), nil for none: how every
/// benchmark here reports a p50 over runs or rounds.
public func median<T: Comparable>(_ values: [T]) -> T? {
    values.isEmpty ? nil : values.sorted()[values.count / 2]
}
