import Footlight
import Logging

/// Every visitor's list, in the store and live in each of their sessions: a change made
/// in one tab reaches every tab of the visitor, on each session's executor.
public final class TodoLists: Sendable {
    private let store: TodoStore
    private let shared: SharedState<VisitorID, [Todo]>
    private let logger: Logger

    /// The lists of `store`, at most `maximumVisitors` held in memory at once (the rest
    /// are read from the store again when needed).
    public init(store: TodoStore, maximumVisitors: Int = 10_000, logger: Logger = Logger(label: "todomvc")) {
        self.store = store
        self.logger = logger
        shared = SharedState(maximumKeys: maximumVisitors) { visitor in
            do {
                return try store.list(for: visitor.rawValue)
            } catch {
                logger.error("the list of a visitor could not be read: \(error)")
                return []
            }
        }
    }

    /// The visitor's list now and after each change, delivered on `executor`.
    public func list(of visitor: VisitorID, on executor: any SessionExecutor) -> AnyPublisher<[Todo], Never> {
        shared.publisher(for: visitor, on: executor)
    }

    /// Applies `change` to the visitor's list, in the store and then in every session of
    /// theirs. A change the store refuses (a full list, a title too long) or cannot write
    /// changes nothing, and is logged.
    public func apply(_ change: TodoChange, for visitor: VisitorID) {
        do {
            try shared.update(visitor) { list in list = try store.apply(change, for: visitor.rawValue) }
        } catch {
            logger.warning("a change to a visitor's list was not applied: \(error)")
        }
    }
}
