import FootlightJSON

/// What a link that names nothing shows: a stage named `not-found`, pushed at that link
/// so that the address and the page agree, with the slot `path` (the link) and the
/// event `back`, which pops it. The page gives it its look with its own
/// `<template data-stage="not-found">`; an app that speaks more than one language
/// passes the template's texts in the session's language, bound to the slot `t`.
///
///     context.push(NotFoundScene(path: path), url: path)
public struct NotFoundScene: Scene {
    /// The template's name.
    public static let stageName = "not-found"

    /// The link that named nothing.
    public let path: String
    /// The template's texts, live (nil: the template has its texts written in).
    public let texts: AnyPublisher<JSON, Never>?

    public init(path: String, texts: AnyPublisher<JSON, Never>? = nil) {
        self.path = path
        self.texts = texts
    }

    public func makeStage(context: Context) -> Stage {
        let back = PassthroughSubject<Void, Never>()
        let stage = Stage(name: Self.stageName)
        stage.bind(Just(path), to: "path")
        if let texts { stage.bind(texts, to: "t") }
        stage.on("back", send: back, options: .oneAtATime)
        stage.keep(back.sink { context.pop() })
        return stage
    }
}
