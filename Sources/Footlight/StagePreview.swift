import FootlightJSON

/// How a stage's template looks for fixed slot values, with no Director: a preview
/// stands in for the Director with a stub whose outputs never change (the view
/// document below), so a template can be shown, looked at and compared with a golden
/// screenshot in any state, busy and failed ones included, with no service to bring
/// into that state.
///
///     let busy = StagePreview(
///         "lot-busy", template: "lot",
///         document: ["lot": details.viewJSON, "submitting": true, "submitTitle": "Placing bid…"])
///
/// A server whose app is ``entry(_:)`` shows each preview at `/previews/<name>`;
/// FootlightTesting's browser harness screenshots them.
public struct StagePreview: Sendable, Equatable {
    /// The preview's name: letters, digits and dashes, unique in its catalogue
    /// (`/previews/<name>`).
    public let name: String
    /// The template shown, a `<template data-stage>` of the page.
    public let template: String
    /// The stub's outputs: each member is a slot of the view document.
    public let document: JSONObject
    /// Whether the stage is shown as a modal (as dialogs are) rather than at the root.
    public let modal: Bool
    /// The components placed in the stage, previews too: each one's name is the host it
    /// is placed at (`data-component`), and its ``row`` the row of a list it sits in.
    public let components: [StagePreview]
    /// For a component of a list (one per row), the id of its row (the `id` of a row
    /// of the list's slot in the parent's ``document``); nil for any other preview.
    public let row: String?

    public init(
        _ name: String, template: String, document: JSONObject, modal: Bool = false, components: [StagePreview] = [],
        row: String? = nil
    ) {
        self.name = name
        self.template = template
        self.document = document
        self.modal = modal
        self.components = components
        self.row = row
    }

    /// The stage with the fixed document: every slot bound to its value, no event
    /// declared (an event from the page is refused as unknown, as for any stage), and
    /// its components' previews placed at their hosts (in their rows).
    public func makeStage() -> Stage {
        let stage = Stage(name: template)
        for (slot, value) in document { stage.bind(Just(value), to: slot) }
        for component in components {
            stage.place(component.makeStage(), at: ComponentHost(name: component.name, row: component.row))
        }
        return stage
    }

    /// An app that shows the preview named in the path, `/previews/<name>`, alone on
    /// the page (a modal one over an empty page); any other path shows the not-found
    /// stage.
    ///
    /// - Precondition: the names are unique.
    public static func entry(_ previews: [StagePreview]) -> AppEntry {
        let byName = Dictionary(uniqueKeysWithValues: previews.map { ($0.name, $0) })
        return { context, path in
            let route = path.split(separator: "?").first.map(String.init) ?? path
            let parts = route.split(separator: "/", omittingEmptySubsequences: true)
            guard parts.count == 2, parts[0] == "previews", let preview = byName[String(parts[1])] else {
                context.show(NotFoundScene(path: route))
                return
            }
            if preview.modal { context.present(preview) } else { context.show(preview) }
        }
    }
}

extension StagePreview: Scene {
    /// The preview's stage (``makeStage()``): a preview needs nothing of its context.
    public func makeStage(context: Context) -> Stage {
        makeStage()
    }
}
