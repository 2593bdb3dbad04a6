import Footlight

/// The auction kiosk: the listings at the root; `/lots/<id>` opens that lot, and
/// `/profile` the profile and `/profile/trip` the trip over it (signed out: the sign-in
/// dialog first, then them). A link that names nothing the kiosk shows (another path, a
/// lot it does not list) shows the not-found page over the listings.
///
/// A session rebuilt after a restart (or on another node) gets its account dialog
/// back: the sign-up or sign-in form, while signed out.
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
            let signedIn = session.account.value != nil
            if parts.count == 2, parts[0] == "lots", services.auction.lot(parts[1]) != nil {
                context.push(LotDetailsScene(session: session, lotID: parts[1]), url: "/lots/\(parts[1])")
            } else if parts == ["profile"] || parts == ["profile", "trip"] {
                let open = { [weak context] in
                    guard let context else { return }
                    context.push(ProfileScene(session: session), url: "/profile")
                    if parts.count == 2 {
                        context.push(
                            FlightScene(language: session.language.eraseToAnyPublisher()), url: "/profile/trip")
                    }
                }
                // Signed out, the link offers signing in, and opens what it names after.
                if signedIn { open() } else { session.startAccountFlow(on: context, signingIn: true, finished: open) }
            } else if !parts.isEmpty {
                context.push(session.notFound(route), url: route)
            }
            context.restoresModals { [unowned context] template in
                guard session.account.value == nil else { return }
                switch template {
                case "signup-dialog": session.startAccountFlow(on: context, signingIn: false)
                case "signin": session.startAccountFlow(on: context, signingIn: true)
                default: break
                }
            }
        }
    }
}
