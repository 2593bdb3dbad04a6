import Footlight

/// One item of a visitor's list: its title is text as typed (trimmed), never markup.
public struct Todo: Equatable, Sendable, Identifiable {
    /// The item's number in the store, unique across visitors.
    public let id: Int64
    public var title: String
    public var completed: Bool

    public init(id: Int64, title: String, completed: Bool = false) {
        self.id = id
        self.title = title
        self.completed = completed
    }
}

/// A change a visitor makes to their list. Each is applied once, in the order the
/// visitor made them (a session delivers its events in order), to the stored list.
public enum TodoChange: Equatable, Sendable {
    /// A new item at the end; a title blank after trimming adds nothing.
    case add(title: String)
    case setCompleted(id: Int64, Bool)
    /// Every item completed, or every item active.
    case setAllCompleted(Bool)
    /// A new title; blank after trimming removes the item (the spec's edit rule).
    case rename(id: Int64, title: String)
    case remove(id: Int64)
    case clearCompleted
}

/// What the list shows: the spec's three filters, each at its own address.
public enum TodoFilter: String, Equatable, Sendable, CaseIterable {
    case all, active, completed

    /// The filter's address: `/`, `/active`, `/completed`.
    public var path: String { self == .all ? "/" : "/" + rawValue }

    /// The filter an address names ("/active?page=2" names `active`); an unknown one shows
    /// all (the page is still the list).
    public init(path: String) {
        self = TodoFilter(rawValue: String(Address(path).path.dropFirst())) ?? .all
    }

    /// Whether `todo` shows under this filter.
    public func shows(_ todo: Todo) -> Bool {
        switch self {
        case .all: true
        case .active: !todo.completed
        case .completed: todo.completed
        }
    }
}
