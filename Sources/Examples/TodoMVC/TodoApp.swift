import Footlight

/// TodoMVC's page (`footlight-demo --app todomvc`): one stage showing the filter its
/// address names; any other address shows all.
public enum TodoApp {
    /// The app's entry, each session's list that of its visitor in `lists`.
    public static func entry(_ lists: TodoLists) -> AppEntry {
        { context, path in context.show(TodoScene(lists: lists, filter: TodoFilter(path: path))) }
    }
}
