/// Limits that keep hostile or accidental input from exhausting the stack.
public enum JSONLimits {
    /// The deepest nesting of arrays and objects accepted when parsing and encoding.
    ///
    /// View documents are shallow (a handful of levels); 512 leaves room for any
    /// honest document while keeping every recursive walk (parse, encode, diff,
    /// apply) far from the stack limit. jansson's own parser stops at 2048.
    public static let maximumDepth = 512
}
