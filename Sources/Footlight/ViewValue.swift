import FootlightJSON

/// A display-ready value that can sit in a slot of a view document.
///
/// Strings (already formatted), numbers, booleans, optionals (absent → `null`) and
/// arrays of these conform. Records conform by building their JSON object.
public protocol ViewValue {
    /// The value as it appears in the view document.
    var viewJSON: JSON { get }
}

extension String: ViewValue {
    public var viewJSON: JSON { .string(self) }
}

extension Bool: ViewValue {
    public var viewJSON: JSON { .bool(self) }
}

extension Int: ViewValue {
    public var viewJSON: JSON { .int(Int64(self)) }
}

extension Int64: ViewValue {
    public var viewJSON: JSON { .int(self) }
}

extension Double: ViewValue {
    /// Finite values only; NaN and infinity become `null`, as JSON cannot hold them.
    public var viewJSON: JSON { isFinite ? .double(self) : .null }
}

extension Optional: ViewValue where Wrapped: ViewValue {
    public var viewJSON: JSON { self?.viewJSON ?? .null }
}

extension Array: ViewValue where Element: ViewValue {
    public var viewJSON: JSON { .array(map { $0.viewJSON }) }  // a closure: a key path is resolved at run time
}

extension JSON: ViewValue {
    public var viewJSON: JSON { self }
}
