import Footlight
import FootlightJSON

/// TodoMVC's logic: the visitor's list (shared by their tabs) in, what one tab shows out,
/// and the changes the visitor makes, which the scene applies to the store. Which item is
/// being edited and which filter shows are this tab's own.
public final class TodoDirector {
    /// One item as the list shows it.
    public struct Row: ViewValue, Identifiable, Equatable, Sendable {
        public let id: String
        public let title: String
        public let completed: Bool
        public let editing: Bool

        /// The edit field's text: the title while editing, else empty, so that each edit
        /// starts from the title (what Escape left in the field is gone).
        public var editText: String { editing ? title : "" }

        public var viewJSON: JSON {
            [
                "id": .string(id), "title": .string(title), "completed": .bool(completed), "editing": .bool(editing),
                "editText": .string(editText),
            ]
        }
    }

    /// What the visitor asked of the list, each once, in their order.
    public let changes: AnyPublisher<TodoChange, Never>
    /// The items the filter shows, oldest first.
    public let rows: AnyPublisher<[Row], Never>
    /// How many items are not completed, and the word after it ("item", "items").
    public let itemsLeft: AnyPublisher<Int, Never>
    public let itemsLeftWord: AnyPublisher<String, Never>
    /// Whether the list has any item (the main section and the footer show only then).
    public let hasItems: AnyPublisher<Bool, Never>
    /// Whether any item is completed ("Clear completed" shows only then).
    public let hasCompleted: AnyPublisher<Bool, Never>
    /// Whether every item is completed (the toggle-all box is checked).
    public let allCompleted: AnyPublisher<Bool, Never>
    /// The filter shown, by name (`all`, `active`, `completed`).
    public let filter: AnyPublisher<String, Never>
    /// The id of an item whose editing just began (the scene moves focus to its field).
    public let editingBegan: AnyPublisher<String, Never>

    /// - Parameters:
    ///   - list: the visitor's list, its current value first, then each change.
    ///   - address: the filter the tab's address names, first and on each Back, Forward or link.
    public init(
        list: AnyPublisher<[Todo], Never>, address: AnyPublisher<TodoFilter, Never>,
        add: AnyPublisher<String, Never>, toggle: AnyPublisher<(id: String, completed: Bool), Never>,
        toggleAll: AnyPublisher<Bool, Never>, remove: AnyPublisher<String, Never>,
        beginEdit: AnyPublisher<String, Never>, commitEdit: AnyPublisher<(id: String, title: String), Never>,
        cancelEdit: AnyPublisher<String, Never>, clearCompleted: AnyPublisher<Void, Never>
    ) {
        let list = list.shareLatest()
        // The item being edited: set by a double click, ended by Enter, blur or Escape. An
        // end for an item no longer being edited (the blur after Enter or Escape hid its
        // field) is no edit.
        enum Editing {
            case begin(String)
            case commit(String, String)
            case cancel(String)
        }
        let editingSteps = beginEdit.map(Editing.begin)
            .merge(with: commitEdit.map { Editing.commit($0.id, $0.title) })
            .merge(with: cancelEdit.map(Editing.cancel))
            .scan((editing: String?.none, commit: TodoChange?.none, began: String?.none)) { state, step in
                switch step {
                case .begin(let id): return (id, nil, id)
                case .commit(let id, let title):
                    guard state.editing == id, let number = Int64(id) else { return (state.editing, nil, nil) }
                    return (nil, .rename(id: number, title: title), nil)
                case .cancel(let id):
                    return (state.editing == id ? nil : state.editing, nil, nil)
                }
            }
            .shareLatest()
        let editing = editingSteps.map(\.editing).prepend(nil).removeDuplicates().shareLatest()
        editingBegan = editingSteps.compactMap(\.began).eraseToAnyPublisher()

        changes = add.map { TodoChange.add(title: $0) }
            .merge(with: toggle.compactMap { item in Int64(item.id).map { .setCompleted(id: $0, item.completed) } })
            .merge(with: toggleAll.map { TodoChange.setAllCompleted($0) })
            .merge(with: remove.compactMap { Int64($0).map { TodoChange.remove(id: $0) } })
            .merge(with: editingSteps.compactMap(\.commit))
            .merge(with: clearCompleted.map { TodoChange.clearCompleted })
            .eraseToAnyPublisher()

        let filterValue = address.prepend(.all).removeDuplicates().shareLatest()
        rows = list.combineLatest(filterValue, editing) { todos, filter, editing in
            todos.filter(filter.shows).map {
                Row(id: String($0.id), title: $0.title, completed: $0.completed, editing: String($0.id) == editing)
            }
        }
        .removeDuplicates()
        .eraseToAnyPublisher()
        let left = list.map { $0.count { !$0.completed } }.removeDuplicates().shareLatest()
        itemsLeft = left
        itemsLeftWord = left.map { $0 == 1 ? "item" : "items" }.removeDuplicates().eraseToAnyPublisher()
        hasItems = list.map { !$0.isEmpty }.removeDuplicates().eraseToAnyPublisher()
        hasCompleted = list.map { $0.contains(where: \.completed) }.removeDuplicates().eraseToAnyPublisher()
        allCompleted = list.map { !$0.isEmpty && $0.allSatisfy(\.completed) }.removeDuplicates().eraseToAnyPublisher()
        filter = filterValue.map(\.rawValue).eraseToAnyPublisher()
    }
}
