/// A route's path pattern, parsed: literal segments and `{name}` parameters, each a
/// whole segment. Paths are compared segment by segment, so `/api/lots` and
/// `/api/lots/` are one path, and a parameter never takes a `/`.
struct RoutePattern: Sendable, Equatable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    let segments: [Segment]

    init(_ text: String) throws(ServerError) {
        guard text.hasPrefix("/") else {
            throw .configuration("a route's pattern starts with \"/\"; \"\(text)\" does not")
        }
        var names: Set<String> = []
        segments = try text.split(separator: "/").map { part throws(ServerError) -> Segment in
            guard part.hasPrefix("{"), part.hasSuffix("}") else {
                guard !part.contains("{"), !part.contains("}") else {
                    throw .configuration("in route \"\(text)\", a parameter is a whole segment: \"{name}\"")
                }
                return .literal(String(part))
            }
            let name = String(part.dropFirst().dropLast())
            guard !name.isEmpty, names.insert(name).inserted else {
                throw .configuration("in route \"\(text)\", parameter names are unique and not empty")
            }
            return .parameter(name)
        }
        guard !segments.isEmpty else {
            throw .configuration("a route at \"/\" would hide the page; give it a path of its own")
        }
    }

    /// The segments of a request's path.
    static func split(_ path: String) -> [Substring] {
        path.split(separator: "/")
    }

    /// The parameters if `path` (split) matches, else nil.
    func match(_ path: [Substring]) -> [String: String]? {
        guard path.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, path) {
            switch segment {
            case .literal(let literal): guard literal == part else { return nil }
            case .parameter(let name): parameters[name] = String(part)
            }
        }
        return parameters
    }

    /// Whether some path this pattern matches is `path` or lies under the folder
    /// `path` (with `underneath`): what the server keeps for itself.
    func overlaps(_ path: String, underneath: Bool) -> Bool {
        let reserved = path.split(separator: "/")
        guard underneath ? segments.count > reserved.count : segments.count == reserved.count else { return false }
        return zip(segments, reserved).allSatisfy { segment, part in
            if case .literal(let literal) = segment { return literal == part }
            return true
        }
    }
}
