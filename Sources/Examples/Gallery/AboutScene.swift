import Footlight

/// A modal with a short text: "dismiss" closes it, "docs" opens the documentation
/// in a new tab (a scene output carried out by the context). "How it works" shows more
/// and "Copy the link" copies the documentation's address, both in the page alone
/// (client commands: no round trip).
public struct AboutScene: Scene {
    public static let documentationURL = "https://www.swift.org/documentation/"

    public init() {}

    public func makeStage(context: Context) -> Stage {
        let dismiss = PassthroughSubject<Void, Never>()
        let docs = PassthroughSubject<Void, Never>()
        let stage = Stage(name: "about")
        stage.bind(Just("Footlight runs this page's logic on the server and sends only what changed."), to: "text")
        stage.keep(dismiss.sink { context.dismiss() })
        stage.keep(docs.sink { context.open(url: Self.documentationURL) })
        stage.on("dismiss", send: dismiss, options: .oneAtATime)
        stage.on("docs", send: docs, options: .oneAtATime)
        stage.on(
            "details",
            runs: [
                .toggleClass("open", on: ".about-details"),
                .toggleAttribute("aria-expanded", between: "true", and: "false", at: "[aria-controls=about-details]"),
            ])
        stage.on("copyLink", runs: [.copyToClipboard(Self.documentationURL)])
        return stage
    }
}
