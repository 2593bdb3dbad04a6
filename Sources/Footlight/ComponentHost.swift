/// Where a component sits in its parent stage's template: the element that names
/// it with `data-component`, and for a component per row of a keyed list, the row.
public struct ComponentHost: Hashable, Sendable, CustomStringConvertible {
    /// The `data-component` name of the element that holds the component.
    public let name: String
    /// For a component per row (``Stage/bind(_:to:component:make:)``): the row's id.
    public let row: String?

    public init(name: String, row: String? = nil) {
        self.name = name
        self.row = row
    }

    public var description: String {
        row.map { "\"\(name)\" of row \"\($0)\"" } ?? "\"\(name)\""
    }
}
