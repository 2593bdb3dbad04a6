import Footlight

/// The probe app: ``CounterScene`` and ``LotsScene`` at the root. Deep links: a path
/// `/lots/<id>` naming a sample row also pushes its ``LotDetailScene``; any other path
/// shows the roots alone.
public enum ProbeApp {
    public static let entry: AppEntry = { context, path in
        context.show(CounterScene())
        context.show(LotsScene())
        let route = path.prefix { $0 != "?" }.split(separator: "/")
        guard route.count == 2, route[0] == "lots" else { return }
        if let row = LotsScene.sampleRows.first(where: { $0.id == route[1] }) {
            context.push(LotDetailScene(row: row), url: "/lots/\(row.id)")
        }
    }
}
