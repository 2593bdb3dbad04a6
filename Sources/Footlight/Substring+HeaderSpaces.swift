extension Substring {
    /// The text without the spaces and tabs around it: HTTP's optional whitespace
    /// (RFC 9110, 5.6.3) around a header field's list elements and parameters.
    package func trimmingHeaderSpaces() -> Substring {
        let isText: (Character) -> Bool = { $0 != " " && $0 != "\t" }
        guard let first = firstIndex(where: isText), let last = lastIndex(where: isText) else { return "" }
        return self[first...last]
    }
}
