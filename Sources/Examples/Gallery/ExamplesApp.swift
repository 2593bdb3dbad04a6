import Footlight

/// The gallery's page: counter, sign-up form and lot list at the root; a deep link
/// `/lots/<id>` also opens that lot's detail, `/tallies` a list of components, and
/// `/entries` quick entries (input races), `/values` the typed values and comparisons,
/// and `/tasks…` and `/notes/<n>` a list filtered by its address and a note.
public enum ExamplesApp {
    public static let entry: AppEntry = { context, path in
        context.show(CounterScene())
        context.show(SignupCardScene())
        context.show(LotsScene())
        let parts = path.split(separator: "?").first?.split(separator: "/") ?? []
        if parts.count == 2, parts[0] == "lots", let row = LotsDirector.sampleRows.first(where: { $0.id == parts[1] }) {
            context.push(DetailScene(row: row), url: "/lots/\(row.id)")
        } else if parts == ["tallies"] {
            context.push(TalliesScene(), url: "/tallies")
        } else if parts == ["entries"] {
            context.push(EntriesScene(), url: "/entries")
        } else if parts == ["values"] {
            context.push(ValuesScene(), url: "/values")
        } else {
            TasksScene.route(path, in: context)
        }
    }
}
