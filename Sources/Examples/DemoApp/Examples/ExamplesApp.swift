import Footlight

/// The demo page's app: counter, sign-up form and lot list at the root; a deep link
/// `/lots/<id>` also opens that lot's detail, and `/tallies` a list of components.
public enum ExamplesApp {
    /// Where the sessions' sign-ups make their directories and hash passwords.
    static let accountWork = BlockingWork(name: "footlight.examples-accounts")

    public static let entry: AppEntry = { context, path in
        context.show(CounterScene())
        // Each session has its own throwaway accounts, in memory, made at its first sign-up
        // off the session's loop: any address signs up, except taken@example.com.
        let accounts = SessionAccounts(
            makingDirectory: { AccountDirectory(cost: .minimal) }, clock: context.environment.clock,
            work: accountWork)
        context.show(SignupScene(accounts: accounts))
        context.show(LotsScene())
        let parts = path.split(separator: "?").first?.split(separator: "/") ?? []
        if parts.count == 2, parts[0] == "lots", let row = LotsDirector.sampleRows.first(where: { $0.id == parts[1] }) {
            context.push(DetailScene(row: row), url: "/lots/\(row.id)")
        } else if parts == ["tallies"] {
            context.push(TalliesScene(), url: "/tallies")
        }
    }
}
