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
        guard let identity = storageIdentity else { return false }
        return identity == other.storageIdentity
    }

    /// Where an array's or an object's storage is, or nil for a scalar: two values with
    /// the same identity share their storage (``sharesStorage(with:)``). An identity
    /// means something only while a value that has it is alive; afterwards its buffers'
    /// addresses may be taken by others.
    var storageIdentity: StorageIdentity? {
        switch self {
        case .array(let elements):
            return elements.withUnsafeBufferPointer {
                StorageIdentity(isObject: false, values: $0.baseAddress, keys: nil, count: $0.count)
            }
        case .object(let members):
            // An object is its keys and its values (the keys' hash table follows the keys).
            let keys = members.keys.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) }
            guard let keys else { return nil }
            return members.values.withUnsafeBufferPointer {
                StorageIdentity(isObject: true, values: $0.baseAddress, keys: keys, count: $0.count)
            }
        default:
            return nil
        }
    }
}

/// The storage of an array or object (``JSON/storageIdentity``): its kind, its
/// buffers' addresses and its count.
struct StorageIdentity: Hashable {
    /// An empty object's buffers may be an empty array's.
    let isObject: Bool
    let values: UnsafeRawPointer?
    let keys: UnsafeRawPointer?
    let count: Int

    init(isObject: Bool, values: UnsafePointer<JSON>?, keys: UnsafeRawPointer?, count: Int) {
        self.isObject = isObject
        self.values = UnsafeRawPointer(values)
        self.keys = keys
        self.count = count
    }
}
