/// An RFC 6902 JSON Patch: operations applied in order, all or nothing.
///
/// ```swift
/// let patch = JSONPatch.diff(from: old, to: new)      // keyed rows become `move`s
/// let wire = try patch.json.serialized()              // [{"op":"replace",...}]
/// let result = try JSONPatch(json: JSON.parse(wire)).applied(to: old)
/// assert(result == new)
/// ```
public struct JSONPatch: Sendable, Hashable {
    /// The operations, applied first to last.
    public var operations: [PatchOperation]

    public init(_ operations: [PatchOperation] = []) {
        self.operations = operations
    }

    /// True when the patch changes nothing.
    public var isEmpty: Bool { operations.isEmpty }
}

/// One RFC 6902 operation.
public enum PatchOperation: Sendable, Hashable {
    /// Adds a member, inserts an array element (`-` appends), or replaces the root.
    case add(path: JSONPointer, value: JSON)
    /// Removes the value at `path`, which must exist.
    case remove(path: JSONPointer)
    /// Replaces the value at `path`, which must exist.
    case replace(path: JSONPointer, value: JSON)
    /// Removes the value at `from` and adds it at `path`.
    case move(from: JSONPointer, path: JSONPointer)
    /// Adds a copy of the value at `from` at `path`.
    case copy(from: JSONPointer, path: JSONPointer)
    /// Fails the whole patch unless the value at `path` equals `value`.
    case test(path: JSONPointer, value: JSON)

    /// The operation's name on the wire ("add", "remove", …).
    public var name: String {
        switch self {
        case .add: "add"
        case .remove: "remove"
        case .replace: "replace"
        case .move: "move"
        case .copy: "copy"
        case .test: "test"
        }
    }

    /// The location the operation writes or checks.
    public var path: JSONPointer {
        switch self {
        case .add(let path, _), .remove(let path), .replace(let path, _), .test(let path, _),
            .move(_, let path), .copy(_, let path):
            path
        }
    }
}
