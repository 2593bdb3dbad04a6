/// Runs `body` for every index in `0..<count`, at most `width` at once, and returns
/// the results in index order. `body` reports its own failures in its result.
func concurrentMap<T: Sendable>(
    _ count: Int, width: Int, _ body: @escaping @Sendable (Int) async -> T
) async -> [T] {
    await withTaskGroup(of: (Int, T).self) { group in
        var results = [T?](repeating: nil, count: count)
        var next = 0
        func startNext() {
            let index = next
            group.addTask { (index, await body(index)) }
            next += 1
        }
        while next < min(width, count) { startNext() }
        while let (index, result) = await group.next() {
            results[index] = result
            if next < count { startNext() }
        }
        return results.map { $0! }
    }
}

/// `body`'s value, or the error it threw, as a value a task group can return.
func capture<T: Sendable>(_ body: () async throws -> T) async -> Result<T, any Error> {
    do {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}
