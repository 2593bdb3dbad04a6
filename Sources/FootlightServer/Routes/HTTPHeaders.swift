/// The header fields of a request or a response, in order, names in lowercase.
///
/// Reading by name ignores case and gives the first field of that name:
///
/// ```swift
/// let type = request.headers["Content-Type"]          // "application/json", or nil
/// var headers: HTTPHeaders = ["content-type": "text/csv; charset=utf-8"]
/// headers.add("cache-control", "no-store")
/// ```
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field.
    public struct Field: Sendable, Equatable {
        /// The name, in lowercase ("content-type").
        public let name: String
        public let value: String
    }

    /// The fields, in the order they were added.
    public private(set) var fields: [Field] = []

    /// No fields.
    public init() {}

    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { add(name, value) }
    }

    /// Adds a field, after those there are (a second `set-cookie`, say).
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name.lowercased(), value: value))
    }

    /// The value of the first field named `name` (in any case); setting replaces every
    /// field of that name (nil removes them).
    public subscript(name: String) -> String? {
        get {
            let name = name.lowercased()
            return fields.first { $0.name == name }?.value
        }
        set {
            let name = name.lowercased()
            fields.removeAll { $0.name == name }
            if let newValue { fields.append(Field(name: name, value: newValue)) }
        }
    }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }
}
