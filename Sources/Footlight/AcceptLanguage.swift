/// The languages a browser asks for, read from its `Accept-Language` header (RFC 9110
/// §12.5.4), and the one of an app's languages that suits it best (RFC 4647 lookup).
///
///     let language = AcceptLanguage(request.headers["accept-language"])
///         .bestMatch(among: ["en", "de"]) ?? "en"
///
/// Reading never fails: an entry that is not a language range with an optional
/// quality is skipped, and so is everything past the first ``maximumRanges`` entries
/// or ``maximumLength`` bytes (an entry cut there is dropped), so a hostile header costs
/// little.
public struct AcceptLanguage: Sendable, Equatable {
    /// One entry: a language range and its quality.
    public struct Range: Sendable, Equatable {
        /// The range in lowercase, e.g. "de-at", "en", or "*".
        public let tag: String
        /// From 0 (not acceptable) to 1.
        public let quality: Double
    }

    /// The most entries read.
    public static let maximumRanges = 32
    /// The most bytes of the header read.
    public static let maximumLength = 1_024

    /// The acceptable ranges (quality above zero), best first; equal qualities keep
    /// the header's order.
    public let ranges: [Range]
    /// The ranges the header refuses (quality zero), e.g. `*;q=0` or `fr;q=0`.
    public let refused: [String]

    /// Reads `header`; nil or empty asks for nothing.
    public init(_ header: String?) {
        var acceptable: [Range] = []
        var refused: [String] = []
        var text = header.map { String(decoding: $0.utf8.prefix(Self.maximumLength), as: UTF8.self) } ?? ""
        if let header, header.utf8.count > Self.maximumLength {
            // The last entry was cut ("en;q=0.8" to "en;q=0"): it counts for nothing.
            text = text.lastIndex(of: ",").map { String(text[..<$0]) } ?? ""
        }
        for entry in text.split(separator: ",", omittingEmptySubsequences: true).prefix(Self.maximumRanges) {
            guard let range = Self.range(entry) else { continue }
            if range.quality > 0 { acceptable.append(range) } else { refused.append(range.tag) }
        }
        // A stable sort by quality: the header's order breaks ties.
        ranges = acceptable.enumerated().sorted { a, b in
            a.element.quality != b.element.quality ? a.element.quality > b.element.quality : a.offset < b.offset
        }
        .map(\.element)
        self.refused = refused
    }

    /// The first of `supported` (tags such as "en", "de", "pt-BR") that the best range
    /// takes, trying ranges best first; nil when the header takes none of them.
    ///
    /// A range takes a tag equal to it or to a shortening of it ("de-AT" takes "de",
    /// unless the header refuses "de"), or a tag that extends it ("en" takes "en-GB");
    /// "*" takes the first tag the header does not refuse. Case is ignored.
    public func bestMatch(among supported: [String]) -> String? {
        let tags = supported.map { (tag: $0, lowered: $0.lowercased()) }
        for range in ranges {
            if range.tag == "*" {
                if let tag = tags.first(where: { tag in !refused.contains { Self.takes($0, tag.lowered) } }) {
                    return tag.tag
                }
                continue
            }
            var prefix = Substring(range.tag)
            while !prefix.isEmpty {
                // A shortening the header refuses ("de-CH, de;q=0") is not taken.
                if let tag = tags.first(where: { $0.lowered == prefix }), !refused.contains(String(prefix)) {
                    return tag.tag
                }
                guard let dash = prefix.lastIndex(of: "-") else { break }
                prefix = prefix[..<dash]
            }
            if let tag = tags.first(where: { $0.lowered.hasPrefix(range.tag + "-") }) { return tag.tag }
        }
        return nil
    }

    /// Whether `range` (lowercase) names `tag` (lowercase) or a language it extends.
    private static func takes(_ range: String, _ tag: String) -> Bool {
        range == "*" || tag == range || tag.hasPrefix(range + "-")
    }

    /// One entry, "de-AT" or "en;q=0.5", or nil when it is not one.
    private static func range(_ entry: Substring) -> Range? {
        let parts = entry.split(separator: ";", omittingEmptySubsequences: false)
        let tag = parts[0].trimmingHeaderSpaces().lowercased()
        guard isRange(tag) else { return nil }
        var quality = 1.0
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2, pair[0].trimmingHeaderSpaces().lowercased() == "q",
                let value = qualityValue(String(pair[1].trimmingHeaderSpaces()))
            else { return nil }
            quality = value
        }
        return Range(tag: tag, quality: quality)
    }

    /// "*", or subtags of 1–8 letters and digits joined by dashes, the first letters only.
    private static func isRange(_ tag: String) -> Bool {
        if tag == "*" { return true }
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
        return subtags.enumerated().allSatisfy { index, subtag in
            (1...8).contains(subtag.utf8.count)
                && subtag.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || (index > 0 && $0 >= 48 && $0 <= 57) }
        }
    }

    /// "1", "0.8", "0.125", "1.000": RFC 9110's qvalue.
    private static func qualityValue(_ text: String) -> Double? {
        guard !text.isEmpty, text.utf8.count <= 5, let value = Double(text), (0...1).contains(value),
            text.first == "0" || text.first == "1"
        else { return nil }
        return value
    }
}

extension SessionRequest {
    /// The browser's `Accept-Language` header, read.
    public var acceptLanguage: AcceptLanguage {
        AcceptLanguage(headers["accept-language"])
    }
}
