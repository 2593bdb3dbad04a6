extension JSONPatch {
    /// Reads a patch from its JSON form: an array of operation objects.
    ///
    /// Members other than `op`, `path`, `from` and `value` are ignored, as RFC 6902
    /// §4 requires. - Throws: ``PatchError`` of kind `.malformed` or `.invalidPointer`.
    public init(json: JSON) throws(PatchError) {
        guard case .array(let elements) = json else {
            throw PatchFailure(.malformed, nil, "a patch must be an array, not \(json.kindName)")
                .at(0, operation: nil)
        }
        var operations: [PatchOperation] = []
        operations.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            do {
                operations.append(try PatchOperation(json: element))
            } catch {
                throw error.at(index, operation: element["op"]?.stringValue)
            }
        }
        self.operations = operations
    }

    /// The JSON form: an array of operation objects with members in the order
    /// `op`, `from`, `path`, `value`.
    public var json: JSON {
        .array(operations.map(\.json))
    }
}

extension PatchOperation {
    init(json: JSON) throws(PatchFailure) {
        guard case .object(let members) = json else {
            throw PatchFailure(.malformed, nil, "an operation must be an object, not \(json.kindName)")
        }
        guard let opValue = members["op"] else { throw PatchFailure(.malformed, nil, "missing \"op\"") }
        guard case .string(let op) = opValue else {
            throw PatchFailure(.malformed, nil, "\"op\" must be a string, not \(opValue.kindName)")
        }
        let path = try Self.pointer(members, "path")
        func value() throws(PatchFailure) -> JSON {
            guard let value = members["value"] else { throw PatchFailure(.malformed, path, "missing \"value\"") }
            return value
        }
        switch op {
        case "add": self = .add(path: path, value: try value())
        case "remove": self = .remove(path: path)
        case "replace": self = .replace(path: path, value: try value())
        case "move": self = .move(from: try Self.pointer(members, "from"), path: path)
        case "copy": self = .copy(from: try Self.pointer(members, "from"), path: path)
        case "test": self = .test(path: path, value: try value())
        default: throw PatchFailure(.malformed, path, "unknown operation \"\(op)\"")
        }
    }

    private static func pointer(_ members: JSONObject, _ name: String) throws(PatchFailure) -> JSONPointer {
        guard let member = members[name] else { throw PatchFailure(.malformed, nil, "missing \"\(name)\"") }
        guard case .string(let text) = member else {
            throw PatchFailure(.malformed, nil, "\"\(name)\" must be a string, not \(member.kindName)")
        }
        do {
            return try JSONPointer(text)
        } catch {
            throw PatchFailure(.invalidPointer, nil, error.description)
        }
    }

    /// The operation as a JSON object.
    public var json: JSON {
        var members: JSONObject = ["op": .string(name)]
        switch self {
        case .add(let path, let value), .replace(let path, let value), .test(let path, let value):
            members["path"] = .string(path.description)
            members["value"] = value
        case .remove(let path):
            members["path"] = .string(path.description)
        case .move(let from, let path), .copy(let from, let path):
            members["from"] = .string(from.description)
            members["path"] = .string(path.description)
        }
        return .object(members)
    }
}
