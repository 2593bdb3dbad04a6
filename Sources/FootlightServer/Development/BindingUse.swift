/// One name a template's attribute uses, as the runtime reads it (Bindings.md): a slot
/// or a list row's member (`data-text="seller.name"`, `data-class="on:filter=='all'"`,
/// the slot of `data-hook="chart:history"`), an event (`data-on-click`, `data-upload`),
/// a component host, an included template, a hook; or an attribute the runtime
/// would refuse.
public struct BindingUse: Sendable, Equatable {
    /// What the name names.
    public enum Kind: String, Sendable, Equatable {
        /// A slot of the stage's document, or a member of a list's row (``lists``).
        case slot
        /// An event the page sends.
        case event
        /// A `data-component` host.
        case component
        /// A `data-include`d template.
        case include
        /// A `data-hook`'s name.
        case hook
        /// A binding the runtime would report as malformed; ``name`` says why.
        case malformed
    }

    /// What the name names.
    public let kind: Kind
    /// The attribute, as written in the page (`data-text`, `data-on-click`).
    public let attribute: String
    /// The attribute's whole value.
    public let text: String
    /// The name itself: a dotted path for a slot (`seller.name`), an event's name, a
    /// host's, a template's; for ``Kind/malformed``, what is wrong.
    public let name: String
    /// For a slot: the list rows it reads, outermost first (the path of each
    /// `data-list` whose row template holds it); empty for the stage's document.
    public let lists: [String]
    /// The 1-based line of the element in the page.
    public let line: Int

    /// The path's members (`["seller", "name"]`).
    public var path: [String] { name.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }

    /// The attribute as the page spells it: `data-text="seller.name"`.
    public var spelling: String { "\(attribute)=\"\(text)\"" }
}

/// Reading binding attributes as the runtime's `bindings.js` does (`parseSlot`,
/// `parseBinding`): the names they use.
enum BindingSyntax {
    /// The output binding attributes (the runtime's `K.BIND`).
    static let outputs = ["data-text", "data-attr", "data-class", "data-show", "data-hide", "data-value", "data-list"]
    /// The DOM events `data-on-*` binds (the runtime's `K.ON`).
    static let events = ["click", "dblclick", "input", "change", "submit", "keydown", "keyup", "focus", "blur"]

    /// The slot path that `text` reads, or why it is not one: "count", "seller.name",
    /// "!canSubmit", "!!error", "filter=='active'", "count!=0".
    static func slot(_ text: String, allowsOperators: Bool = true) -> Result<String, SyntaxError> {
        var rest = Substring(text).trimmingSpaces
        var negations = 0
        while rest.first == "!", negations < 2 {
            rest = rest.dropFirst()
            negations += 1
        }
        rest = rest.trimmingSpaces
        let forbidden: Set<Character> = ["!", ":", ",", "=", "'", "\""]
        let path = rest.prefix { !$0.isWhitespace && !forbidden.contains($0) }
        rest = rest.dropFirst(path.count).trimmingSpaces
        let problem = SyntaxError("\"\(text)\" is not a slot name, a dotted path or \"slot==literal\"")
        guard !path.isEmpty, !path.split(separator: ".", omittingEmptySubsequences: false).contains("") else {
            return .failure(problem)
        }
        guard !rest.isEmpty else {
            if negations > 0, !allowsOperators {
                return .failure(SyntaxError("\"!\" or a comparison cannot bind a value or a list"))
            }
            return .success(String(path))
        }
        // A comparison: == or != and a literal.
        return comparison(rest, path: path, negated: negations > 0, allowsOperators: allowsOperators, problem: problem)
    }

    private static func comparison(
        _ rest: Substring, path: Substring, negated: Bool, allowsOperators: Bool, problem: SyntaxError
    ) -> Result<String, SyntaxError> {
        guard rest.hasPrefix("==") || rest.hasPrefix("!="), !negated else { return .failure(problem) }
        let literal = rest.dropFirst(2).trimmingSpaces
        guard isLiteral(literal) else { return .failure(problem) }
        guard allowsOperators else {
            return .failure(SyntaxError("\"!\" or a comparison cannot bind a value or a list"))
        }
        return .success(String(path))
    }

    /// 'text', "text" (no escapes), a number, true, false or null.
    private static func isLiteral(_ text: Substring) -> Bool {
        if let quote = text.first, quote == "'" || quote == "\"" {
            return text.count >= 2 && text.last == quote && !text.dropFirst().dropLast().contains(quote)
        }
        if ["true", "false", "null"].contains(text) { return true }
        var digits = text.first == "-" ? text.dropFirst() : text
        let whole = digits.prefix { $0.isASCII && $0.isNumber }
        guard !whole.isEmpty else { return false }
        digits = digits.dropFirst(whole.count)
        if digits.isEmpty { return true }
        guard digits.first == "." else { return false }
        let fraction = digits.dropFirst()
        return !fraction.isEmpty && fraction.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// The `name:slot` pairs of a `data-attr` or `data-class` value: split at each comma
    /// outside quotes.
    static func pairs(_ text: String) -> Result<[(name: String, slot: String)], SyntaxError> {
        var parts: [String] = []
        var current = ""
        var quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "," {
                parts.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        parts.append(current)
        var pairs: [(String, String)] = []
        for part in parts {
            guard let colon = part.firstIndex(of: ":") else {
                return .failure(SyntaxError("\"\(part.trimmingSpaces)\" is not \"name:slot\""))
            }
            let name = part[..<colon].trimmingSpaces
            guard !name.isEmpty, !name.contains(where: { $0.isWhitespace || $0 == ":" || $0 == "," }) else {
                return .failure(SyntaxError("\"\(part.trimmingSpaces)\" is not \"name:slot\""))
            }
            switch slot(String(part[part.index(after: colon)...])) {
            case .success(let path): pairs.append((String(name), path))
            case .failure(let error): return .failure(error)
            }
        }
        return .success(pairs)
    }

    /// Why a binding attribute cannot be read.
    struct SyntaxError: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }
}

extension StringProtocol {
    /// Without the white space at either end.
    var trimmingSpaces: SubSequence {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
        return self[start..<end]
    }
}
