/// What a link that names nothing shows: a stage named `not-found`, pushed at that link
/// so that the address and the page agree, with the slot `path` (the link) and the
/// event `back`, which pops it. The page gives it its look with its own
/// `<template data-stage="not-found">`.
///
///     context.push(NotFoundScene(path: path), url: path)
public struct NotFoundScene: Scene {
    /// The template's name.
    public static let stageName = "not-found"

    /// The link that named nothing.
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public func makeStage(context: Context) -> Stage {
        let back = PassthroughSubject<Void, Never>()
        let stage = Stage(name: Self.stageName)
        stage.bind(Just(path), to: "path")
        stage.on("back", send: back, options: .oneAtATime)
        stage.keep(back.sink { context.pop() })
        return stage
    }
}
