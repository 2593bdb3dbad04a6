/// Why a patch could not be read or applied. The document is left unchanged.
///
/// The message names the failing operation's index and path, for example
/// `patch operation 2 (remove at "/items/7"): no value at this path`.
public struct PatchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of failure.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Value: Sendable, Hashable {
            case malformed, invalidPointer, pathNotFound, invalidTarget, testFailed
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The operation is not a well-formed RFC 6902 operation (missing or wrong member).
        public static let malformed = Kind(.malformed)
        /// A `path` or `from` is not a valid JSON Pointer.
        public static let invalidPointer = Kind(.invalidPointer)
        /// A location the operation needs does not exist.
        public static let pathNotFound = Kind(.pathNotFound)
        /// The location exists but cannot take the operation (a scalar parent, an array
        /// index out of range, a move into its own child).
        public static let invalidTarget = Kind(.invalidTarget)
        /// A `test` operation found a different value.
        public static let testFailed = Kind(.testFailed)

        public var description: String {
            switch value {
            case .malformed: "malformed"
            case .invalidPointer: "invalidPointer"
            case .pathNotFound: "pathNotFound"
            case .invalidTarget: "invalidTarget"
            case .testFailed: "testFailed"
            }
        }
    }

    /// The class of failure.
    public let kind: Kind
    /// The 0-based index of the failing operation in the patch.
    public let operationIndex: Int
    /// The failing operation's name, when it could be read.
    public let operation: String?
    /// The path (or `from`) the failure concerns, as written.
    public let path: String?
    /// A readable explanation.
    public let reason: String

    public var description: String {
        var text = "patch operation \(operationIndex)"
        switch (operation, path) {
        case (let name?, let path?): text += " (\(name) at \"\(path)\")"
        case (let name?, nil): text += " (\(name))"
        case (nil, let path?): text += " (at \"\(path)\")"
        case (nil, nil): break
        }
        return text + ": " + reason
    }
}

/// A failure inside one operation, before the operation index is known.
struct PatchFailure: Error {
    let kind: PatchError.Kind
    let path: String?
    let reason: String

    init(_ kind: PatchError.Kind, _ path: JSONPointer?, _ reason: String) {
        self.kind = kind
        self.path = path?.description
        self.reason = reason
    }

    func at(_ index: Int, operation: String?) -> PatchError {
        PatchError(kind: kind, operationIndex: index, operation: operation, path: path, reason: reason)
    }
}
