import Footlight

/// The auction kiosk: the listings at the root; `/lots/<id>` opens that lot. A link
/// that names nothing the kiosk shows (another path, a lot it does not list, `/profile`
/// in a new session, which starts signed out) shows the not-found page over the listings.
public enum KioskApp {
    /// The app entry for a server, all sessions sharing `services`.
    public static func entry(_ services: KioskServices) -> AppEntry {
        { context, path in
            let session = KioskSession(services: services, environment: context.environment) {
                [weak context] reason in context?.startOver(reason: reason)
            }
            context.show(ListingsScene(session: session))
            let route = path.split(separator: "?").first.map(String.init) ?? ""
            let parts = route.split(separator: "/").map(String.init)
            if parts.isEmpty { return }
            if parts.count == 2, parts[0] == "lots", services.auction.lot(parts[1]) != nil {
                context.push(LotDetailsScene(session: session, lotID: parts[1]), url: "/lots/\(parts[1])")
            } else {
                context.push(NotFoundScene(path: route), url: route)
            }
        }
    }
}
