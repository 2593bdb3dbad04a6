extension JSON {
    /// Whether the two values are the same array or object in memory: they share their
    /// copy-on-write storage, so they hold the same elements without looking at any.
    ///
    /// Values built once and handed to many documents (a row shared by every session
    /// showing it) keep their storage, so comparing and diffing them costs O(1). False
    /// for scalars and for equal containers built separately: a cheap first test, not
    /// an equality.
    ///
    /// While two values share a buffer, neither can change it (copy-on-write copies
    /// first), so the same address means the same contents.
    public func sharesStorage(with other: JSON) -> Bool {
        switch (self, other) {
        case (.array(let a), .array(let b)):
            return a.withUnsafeBufferPointer { left in
                b.withUnsafeBufferPointer { right in Self.same(left, right) }
            }
        case (.object(let a), .object(let b)):
            // An object is its keys and its values (the keys' hash table follows the keys).
            let sameValues = a.values.withUnsafeBufferPointer { left in
                b.values.withUnsafeBufferPointer { right in Self.same(left, right) }
            }
            return sameValues
                && a.keys.withContiguousStorageIfAvailable { left in
                    b.keys.withContiguousStorageIfAvailable { right in Self.same(left, right) }
                } == true
        default:
            return false
        }
    }

    private static func same<Element>(_ a: UnsafeBufferPointer<Element>, _ b: UnsafeBufferPointer<Element>) -> Bool {
        a.count == b.count && a.baseAddress == b.baseAddress
    }
}
