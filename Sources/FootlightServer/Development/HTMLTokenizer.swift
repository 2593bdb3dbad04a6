/// The tags of an HTML page, in order: enough of HTML to read a Footlight page's
/// templates and their attributes (the project's own static pages), not a browser's
/// parser. Comments, the doctype and the text of `script`, `style`, `textarea` and
/// `title` are skipped; attribute values may be double-quoted, single-quoted or bare,
/// and the common character references in them (`&amp;`, `&quot;`, `&#39;`…) are
/// decoded. Input that runs out inside a tag, a quoted value or a comment is an error.
struct HTMLTokenizer {
    /// One tag.
    struct Tag {
        /// Lower-cased.
        let name: String
        /// Whether it is an end tag (`</li>`).
        let isEnd: Bool
        /// Attributes in order, names lower-cased; the first of two with one name wins
        /// (``attribute(_:)``).
        let attributes: [(name: String, value: String)]
        /// Whether it ends with `/>`.
        let selfClosing: Bool
        /// The 1-based line of its `<`.
        let line: Int

        /// The value of the attribute `name` (lower-case), nil when absent.
        func attribute(_ name: String) -> String? {
            attributes.first { $0.name == name }?.value
        }
    }

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1

    init(_ html: String) {
        bytes = Array(html.utf8)
    }

    /// Every tag of the page.
    static func tags(of html: String) throws(PageError) -> [Tag] {
        var tokenizer = HTMLTokenizer(html)
        var tags: [Tag] = []
        while let tag = try tokenizer.next() { tags.append(tag) }
        return tags
    }

    /// The next tag, nil at the end.
    mutating func next() throws(PageError) -> Tag? {
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                advance()
                continue
            }
            let start = line
            if starts(with: "<!--") {
                guard skip(past: "-->", from: index + 4) else {
                    throw PageError(.unterminated, line: start, "a comment (<!--) is not closed")
                }
                continue
            }
            if starts(with: "<!") || starts(with: "<?") {
                guard skip(past: ">", from: index + 2) else {
                    throw PageError(.unterminated, line: start, "a declaration (<!…) is not closed")
                }
                continue
            }
            let isEnd = peek(1) == UInt8(ascii: "/")
            let nameStart = index + (isEnd ? 2 : 1)
            guard nameStart < bytes.count, isLetter(bytes[nameStart]) else {
                advance()  // a "<" that opens no tag is text
                continue
            }
            while index < nameStart { advance() }
            let name = readName()
            let tag = try readTag(name: name, isEnd: isEnd, line: start)
            if !isEnd, !tag.selfClosing, ["script", "style", "textarea", "title"].contains(name) {
                guard skipRawText(until: name) else {
                    throw PageError(.unterminated, line: start, "<\(name)> is not closed")
                }
            }
            return tag
        }
        return nil
    }

    // MARK: Tags

    private mutating func readTag(name: String, isEnd: Bool, line start: Int) throws(PageError) -> Tag {
        var attributes: [(name: String, value: String)] = []
        var selfClosing = false
        while true {
            skipSpaces()
            guard index < bytes.count else {
                throw PageError(
                    .unterminated, line: start, "the tag <\(isEnd ? "/" : "")\(name) is not closed (no \">\")")
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: ">") {
                advance()
                return Tag(name: name, isEnd: isEnd, attributes: attributes, selfClosing: selfClosing, line: start)
            }
            if byte == UInt8(ascii: "/") {
                advance()
                selfClosing = true
                continue
            }
            selfClosing = false
            let attribute = readAttributeName()
            skipSpaces()
            var value = ""
            if peek(0) == UInt8(ascii: "=") {
                advance()
                skipSpaces()
                value = try readAttributeValue(of: attribute, in: name)
            }
            if !attribute.isEmpty { attributes.append((attribute, value)) }
        }
    }

    private mutating func readName() -> String {
        let start = index
        while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">"),
            bytes[index] != UInt8(ascii: "/")
        {
            advance()
        }
        return String(decoding: bytes[start..<index], as: UTF8.self).lowercased()
    }

    private mutating func readAttributeName() -> String {
        let start = index
        // The first character may be anything but a space or ">" (so "=" alone is a name).
        advance()
        while index < bytes.count, !isSpace(bytes[index]),
            ![UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: "=")].contains(bytes[index])
        {
            advance()
        }
        return String(decoding: bytes[start..<index], as: UTF8.self).lowercased()
    }

    private mutating func readAttributeValue(of attribute: String, in tag: String) throws(PageError) -> String {
        guard index < bytes.count else { return "" }
        let quote = bytes[index]
        let start: Int
        if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            let opened = line
            advance()
            start = index
            while index < bytes.count, bytes[index] != quote { advance() }
            guard index < bytes.count else {
                throw PageError(
                    .unterminated, line: opened,
                    "the value of \(attribute) in <\(tag)> opens a quote that is not closed")
            }
            defer { advance() }
            return Self.decodeReferences(String(decoding: bytes[start..<index], as: UTF8.self))
        }
        start = index
        while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">") { advance() }
        return Self.decodeReferences(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    /// The value with the character references a page writes in attributes decoded; any
    /// other `&` is left as it is.
    static func decodeReferences(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            rest = rest[ampersand...]
            if let semicolon = rest.prefix(12).firstIndex(of: ";"),
                let decoded = reference(rest[rest.index(after: ampersand)..<semicolon])
            {
                result.append(decoded)
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result.append("&")
                rest = rest.dropFirst()
            }
        }
        return result + rest
    }

    private static func reference(_ name: Substring) -> Character? {
        switch name {
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        case "lt": return "<"
        case "gt": return ">"
        case "nbsp": return "\u{A0}"
        default:
            guard name.first == "#" else { return nil }
            let digits = name.dropFirst()
            let value =
                digits.first == "x" || digits.first == "X"
                ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            return value.flatMap(Unicode.Scalar.init).map(Character.init)
        }
    }

    // MARK: Bytes

    private func peek(_ offset: Int) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    private func starts(with text: String) -> Bool {
        let pattern = Array(text.utf8)
        return index + pattern.count <= bytes.count && Array(bytes[index..<index + pattern.count]) == pattern
    }

    private mutating func advance() {
        if bytes[index] == UInt8(ascii: "\n") { line += 1 }
        index += 1
    }

    /// Moves past the first `end` at or after `from`; false (at the end) when there is none.
    private mutating func skip(past end: String, from: Int) -> Bool {
        while index < from { advance() }
        while index < bytes.count {
            if starts(with: end) {
                for _ in 0..<end.utf8.count { advance() }
                return true
            }
            advance()
        }
        return false
    }

    /// Moves to the `</name` that ends a raw text element, case-insensitively.
    private mutating func skipRawText(until name: String) -> Bool {
        let end = Array("</\(name)".utf8)
        while index < bytes.count {
            if index + end.count <= bytes.count,
                zip(bytes[index..<index + end.count], end).allSatisfy({ lowercase($0) == $1 })
            {
                return true
            }
            advance()
        }
        return false
    }

    private mutating func skipSpaces() {
        while index < bytes.count, isSpace(bytes[index]) { advance() }
    }

    private func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    private func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(lowercase(byte))
    }

    private func lowercase(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
