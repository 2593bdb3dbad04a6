/// Room for one value of a generic type, empty or filled: what the operators keep their
/// latest values in instead of `Value?`.
///
/// The operators run as unspecialized generic code (a Director's chain reaches them
/// through type-erased publishers), where every use of `Value?` asks the runtime for
/// `Optional<Value>`'s type metadata: a hash-table lookup of about 450 instructions,
/// several per value per operator. A change to a shared service passes through them
/// once per session, and those lookups were 15 % of a fanned-out bid's work. The slot
/// needs only `Value`'s own metadata, which generic code has at hand.
///
/// Not thread-safe: its owner guards it (the operators, under their lock).
struct ValueSlot<Value>: ~Copyable {
    private let storage: UnsafeMutablePointer<Value>
    /// Whether the slot holds a value.
    private(set) var isFilled = false

    init() {
        storage = .allocate(capacity: 1)
    }

    deinit {
        if isFilled { storage.deinitialize(count: 1) }
        storage.deallocate()
    }

    /// The value held; the slot must be filled.
    var value: Value {
        precondition(isFilled, "read from an empty ValueSlot")
        return storage.pointee
    }

    /// Holds `value`, in place of the one held before.
    mutating func fill(_ value: Value) {
        if isFilled {
            storage.pointee = value
        } else {
            storage.initialize(to: value)
            isFilled = true
        }
    }
}

/// A value held by reference: `Boxed<Value>?` is a plain optional reference to generic
/// code, where `Value?` made it ask the runtime for `Optional<Value>`'s metadata (and,
/// for a generic `Value` such as `AnySubscriber<Input, Failure>`, for `Value`'s too) at
/// each use (see ``ValueSlot``). The operators hold their subscriber and a pending
/// completion in one.
final class Boxed<Value> {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
