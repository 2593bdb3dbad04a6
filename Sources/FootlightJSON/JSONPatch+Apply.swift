extension JSONPatch {
    /// Returns `document` with every operation applied, or throws and changes nothing.
    ///
    /// - Throws: ``PatchError`` naming the index and path of the first failing operation.
    public func applied(to document: JSON) throws(PatchError) -> JSON {
        var result = document
        for (index, operation) in operations.enumerated() {
            do {
                try result.apply(operation)
            } catch {
                throw error.at(index, operation: operation.name)
            }
        }
        return result
    }

    /// Applies the patch in place; on failure `document` is left exactly as it was.
    public func apply(to document: inout JSON) throws(PatchError) {
        document = try applied(to: document)
    }
}

extension JSON {
    /// The value at `pointer`, or `nil` when there is none.
    public func value(at pointer: JSONPointer) -> JSON? {
        var current = self
        for token in pointer.tokens {
            switch current {
            case .object(let members):
                guard let child = members[token] else { return nil }
                current = child
            case .array(let elements):
                guard let index = JSONPointer.arrayIndex(token, count: elements.count, allowEnd: false) else {
                    return nil
                }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    mutating func apply(_ operation: PatchOperation) throws(PatchFailure) {
        switch operation {
        case .add(let path, let value):
            try add(value, at: path)
        case .remove(let path):
            _ = try remove(at: path)
        case .replace(let path, let value):
            try replace(at: path, with: value)
        case .move(let from, let path):
            guard let moved = value(at: from) else { throw PatchFailure(.pathNotFound, from, "no value at \"from\"") }
            if from == path { return }
            if path.hasPrefix(from) {
                throw PatchFailure(.invalidTarget, path, "cannot move a value into one of its own children")
            }
            _ = try remove(at: from)
            try add(moved, at: path)
        case .copy(let from, let path):
            guard let copied = value(at: from) else { throw PatchFailure(.pathNotFound, from, "no value at \"from\"") }
            try add(copied, at: path)
        case .test(let path, let expected):
            guard let actual = value(at: path) else { throw PatchFailure(.pathNotFound, path, "no value at this path") }
            guard actual == expected else {
                throw PatchFailure(.testFailed, path, "the value differs from the one the test expects")
            }
        }
    }

    private mutating func add(_ value: JSON, at path: JSONPointer) throws(PatchFailure) {
        guard let last = path.tokens.last else {
            self = value
            return
        }
        try withContainer(at: path.tokens.dropLast(), path: path) { (container) throws(PatchFailure) in
            switch container {
            case .object(var members):
                container = .null
                members[last] = value
                container = .object(members)
            case .array(var elements):
                guard let index = JSONPointer.arrayIndex(last, count: elements.count, allowEnd: true) else {
                    throw PatchFailure(
                        .invalidTarget, path, "\"\(last)\" is not an index from 0 to \(elements.count) or \"-\"")
                }
                container = .null
                elements.insert(value, at: index)
                container = .array(elements)
            default:
                throw PatchFailure(
                    .invalidTarget, path, "the parent is a \(container.kindName), not an object or array")
            }
        }
    }

    private mutating func remove(at path: JSONPointer) throws(PatchFailure) -> JSON {
        guard let last = path.tokens.last else {
            throw PatchFailure(.invalidTarget, path, "the whole document cannot be removed")
        }
        return try withContainer(at: path.tokens.dropLast(), path: path) { (container) throws(PatchFailure) -> JSON in
            switch container {
            case .object(var members):
                guard let index = members.index(forKey: last) else {
                    throw PatchFailure(.pathNotFound, path, "no member \"\(last)\" to remove")
                }
                container = .null
                let removed = members.remove(at: index).value
                container = .object(members)
                return removed
            case .array(var elements):
                guard let index = JSONPointer.arrayIndex(last, count: elements.count, allowEnd: false) else {
                    throw PatchFailure(.pathNotFound, path, "no element \"\(last)\" in an array of \(elements.count)")
                }
                container = .null
                let removed = elements.remove(at: index)
                container = .array(elements)
                return removed
            default:
                throw PatchFailure(.pathNotFound, path, "the parent is a \(container.kindName), which has no children")
            }
        }
    }

    private mutating func replace(at path: JSONPointer, with value: JSON) throws(PatchFailure) {
        guard !path.tokens.isEmpty else {
            self = value
            return
        }
        try withContainer(at: path.tokens[...], path: path) { (target) throws(PatchFailure) in
            target = value
        }
    }

    /// Calls `body` with the value at `tokens`, mutable in place. Each container on the
    /// way is taken out of its enum case first, so copy-on-write finds it unique.
    private mutating func withContainer<R>(
        at tokens: ArraySlice<String>,
        path: JSONPointer,
        _ body: (inout JSON) throws(PatchFailure) -> R
    ) throws(PatchFailure) -> R {
        guard let token = tokens.first else { return try body(&self) }
        let rest = tokens.dropFirst()
        switch self {
        case .object(var members):
            guard let index = members.index(forKey: token) else {
                throw PatchFailure(.pathNotFound, path, "no member \"\(token)\"")
            }
            self = .null
            defer { self = .object(members) }
            return try members.values[index].withContainer(at: rest, path: path, body)
        case .array(var elements):
            guard let index = JSONPointer.arrayIndex(token, count: elements.count, allowEnd: false) else {
                throw PatchFailure(
                    .pathNotFound, path, "no element \"\(token)\" in an array of \(elements.count)")
            }
            self = .null
            defer { self = .array(elements) }
            return try elements[index].withContainer(at: rest, path: path, body)
        default:
            throw PatchFailure(.pathNotFound, path, "\"\(token)\" is inside a \(kindName), which has no children")
        }
    }
}
