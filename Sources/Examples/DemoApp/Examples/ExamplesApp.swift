import Footlight

/// The demo page's app: counter, sign-up form and lot list at the root; a deep link
/// `/lots/<id>` also opens that lot's detail.
public enum ExamplesApp {
    public static let entry: AppEntry = { context, path in
        context.show(CounterScene())
        // Each session has its own accounts: any address signs up, except taken@example.com.
        context.show(
            SignupScene(accounts: SessionAccounts(directory: AccountDirectory(), clock: context.environment.clock)))
        context.show(LotsScene())
        let parts = path.split(separator: "?").first?.split(separator: "/") ?? []
        if parts.count == 2, parts[0] == "lots", let row = LotsDirector.sampleRows.first(where: { $0.id == parts[1] }) {
            context.push(DetailScene(row: row), url: "/lots/\(row.id)")
        }
    }
}
