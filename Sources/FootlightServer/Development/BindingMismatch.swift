/// A name the page and the Swift side do not agree on, with both spellings where there
/// are two: the one on one side, and the nearest on the other ("did you mean").
public struct BindingMismatch: Sendable, Equatable, CustomStringConvertible {
    /// Which way the names disagree.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case unboundSlot, unusedSlot, unknownMember, unknownEvent, unusedEvent, unknownComponent, unusedComponent
            case unknownHook, missingTemplate, missingInclude, malformed
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The template names a slot no binding of its stage feeds.
        public static let unboundSlot = Kind(.unboundSlot)
        /// The stage feeds a slot its template never names.
        public static let unusedSlot = Kind(.unusedSlot)
        /// The template names a member the slot's value (or a list's rows) does not have.
        public static let unknownMember = Kind(.unknownMember)
        /// The template sends an event its stage does not accept.
        public static let unknownEvent = Kind(.unknownEvent)
        /// The stage accepts an event its template never sends.
        public static let unusedEvent = Kind(.unusedEvent)
        /// The stage places a component at a host its template does not have.
        public static let unknownComponent = Kind(.unknownComponent)
        /// The template has a component host its stage places nothing at.
        public static let unusedComponent = Kind(.unusedComponent)
        /// The stage pushes to a hook no element of its template names.
        public static let unknownHook = Kind(.unknownHook)
        /// The stage's template is not in the page.
        public static let missingTemplate = Kind(.missingTemplate)
        /// The template includes a template the page does not have.
        public static let missingInclude = Kind(.missingInclude)
        /// The template has a binding attribute the runtime cannot read.
        public static let malformed = Kind(.malformed)

        public var description: String { value.rawValue }
    }

    /// Which way the names disagree.
    public let kind: Kind
    /// The template (the stage's name).
    public let template: String
    /// The name as the side that has it spells it: the page's for a name the page uses,
    /// Swift's for one a stage binds.
    public let name: String
    /// The page's attribute that holds the name (`data-text="titel"`), for a name the
    /// page uses.
    public let attribute: String?
    /// The line of that attribute's element in the page.
    public let line: Int?
    /// The nearest name on the other side, when one is near enough: Swift's spelling
    /// for a name of the page, the page's for a name of Swift.
    public let suggestion: String?
    /// What else to say (why a binding is malformed, which member is missing).
    public let detail: String?

    public init(
        _ kind: Kind, template: String, name: String, attribute: String? = nil, line: Int? = nil,
        suggestion: String? = nil, detail: String? = nil
    ) {
        self.kind = kind
        self.template = template
        self.name = name
        self.attribute = attribute
        self.line = line
        self.suggestion = suggestion
        self.detail = detail
    }

    public var description: String {
        let place = attribute.map { " \($0)" + (line.map { " (line \($0))" } ?? "") } ?? ""
        let what: String
        switch kind {
        case .unboundSlot: what = "names slot \"\(name)\", which the stage never binds in Swift"
        case .unusedSlot: what = "the stage binds slot \"\(name)\" in Swift, which the template never names"
        case .unknownMember: what = "reads \"\(name)\", which its value does not have"
        case .unknownEvent: what = "sends event \"\(name)\", which the stage does not accept in Swift"
        case .unusedEvent: what = "the stage accepts event \"\(name)\" in Swift, which the template never sends"
        case .unknownComponent:
            what =
                "the stage places a component at \"\(name)\" in Swift, and the template has no data-component=\"\(name)\""
        case .unusedComponent: what = "has component host \"\(name)\", where the stage places nothing in Swift"
        case .unknownHook:
            what = "the stage pushes to hook \"\(name)\" in Swift, and no element names data-hook=\"\(name)\""
        case .missingTemplate: what = "a stage shows template \"\(name)\", which the page does not have"
        case .missingInclude: what = "includes template \"\(name)\", which the page does not have"
        default: what = "cannot be read"
        }
        var text = "template \"\(template)\"\(place): \(what)"
        if let detail { text += " (\(detail))" }
        if let suggestion {
            let side = attribute == nil && kind != .missingTemplate ? "in the template" : "in Swift"
            text +=
                kind == .missingTemplate
                ? "; did you mean \"\(suggestion)\" (in the page)?" : "; did you mean \"\(suggestion)\" (\(side))?"
        }
        return text
    }
}

/// The name nearest to `name` among `candidates` by edit distance (letters compared
/// without case, two swapped neighbours one edit), when it is near enough to be a typo: at most a third of the longer
/// name's characters apart, and at least one.
func nearest(to name: String, among candidates: some Sequence<String>) -> String? {
    let target = Array(name.lowercased())
    var best: (name: String, distance: Int)?
    for candidate in candidates where candidate != name {
        let other = Array(candidate.lowercased())
        let limit = max(1, max(target.count, other.count) / 3)
        guard abs(target.count - other.count) <= limit else { continue }
        let distance = editDistance(target, other)
        if distance <= limit,
            distance < best?.distance ?? .max || (distance == best?.distance && candidate < best!.name)
        {
            best = (candidate, distance)
        }
    }
    return best?.name
}

/// The optimal string alignment distance: insertions, deletions, substitutions, and
/// transpositions of two neighbours ("titel" is one from "title").
func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var rows = [Array(0...b.count)]
    for i in 1...a.count {
        var row = [i] + [Int](repeating: 0, count: b.count)
        for j in 1...b.count {
            row[j] = min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { row[j] = min(row[j], rows[i - 2][j - 2] + 1) }
        }
        rows.append(row)
    }
    return rows[a.count][b.count]
}
