import FootlightJSON

/// Something the page does at once, with no round trip: move focus, scroll, set the
/// document's title, copy text, change an element's classes, or hand a message to a
/// JavaScript hook. Selectors are CSS, looked up inside the stage's element (its first
/// match).
///
/// A stage sends commands from Swift (``Stage/run(_:)``: focus the field a step needs,
/// title the page after what it shows), or declares them on an event so the page runs
/// them itself when the event fires (``Stage/on(_:runs:)``: open a menu, show details),
/// like LiveView's `JS` commands.
public enum ClientCommand: Sendable, Equatable {
    /// Moves focus to the element.
    case focus(String)
    /// Scrolls the element into view (the least scrolling that shows it).
    case scrollIntoView(String)
    /// Sets the document's title; it goes back to what it was when the stage is removed.
    case setTitle(String)
    /// Puts the text on the clipboard (the browser may ask the user, or refuse: the page
    /// logs a refusal).
    case copyToClipboard(String)
    /// Adds a class to the element.
    case addClass(String, to: String)
    /// Removes a class from the element.
    case removeClass(String, from: String)
    /// Adds the class if the element lacks it, else removes it.
    case toggleClass(String, on: String)
    /// Sets an attribute of the element (`aria-expanded` to `"true"`, say).
    case setAttribute(String, to: String, at: String)
    /// Sets the attribute to the second value when it holds the first, else to the first
    /// (`aria-expanded` between `"true"` and `"false"` beside a ``toggleClass(_:on:)``).
    case toggleAttribute(String, between: String, and: String, at: String)
    /// Hands `message` to every element of the stage that names the hook (its
    /// `received` callback; see "JavaScript hooks" in <doc:Bindings>): data a hook needs that is not in
    /// the view document, or a moment rather than state (``Stage/push(_:to:)``).
    case push(JSON, toHook: String)

    /// The command ``json`` describes, or nil for anything else (a test client reading
    /// what the page was sent).
    public init?(json: JSON) {
        let at = json["at"]?.stringValue
        let name = json["class"]?.stringValue
        let text = json["text"]?.stringValue
        let attribute = json["attr"]?.stringValue
        let values = json["values"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let hook = json["hook"]?.stringValue
        let command: ClientCommand? =
            switch json["do"]?.stringValue {
            case "focus": at.map { .focus($0) }
            case "scroll": at.map { .scrollIntoView($0) }
            case "title": text.map { .setTitle($0) }
            case "copy": text.map { .copyToClipboard($0) }
            case "add-class": name.flatMap { name in at.map { .addClass(name, to: $0) } }
            case "remove-class": name.flatMap { name in at.map { .removeClass(name, from: $0) } }
            case "toggle-class": name.flatMap { name in at.map { .toggleClass(name, on: $0) } }
            case "set-attr" where values.count == 1:
                attribute.flatMap { attribute in at.map { .setAttribute(attribute, to: values[0], at: $0) } }
            case "toggle-attr" where values.count == 2:
                attribute.flatMap { attribute in
                    at.map { .toggleAttribute(attribute, between: values[0], and: values[1], at: $0) }
                }
            case "push": hook.map { .push(json["value"] ?? .null, toHook: $0) }
            default: nil
            }
        guard let command else { return nil }
        self = command
    }

    /// The command as the page receives it: `{"do": "focus", "at": "#amount"}`.
    public var json: JSON {
        switch self {
        case .focus(let selector): ["do": "focus", "at": .string(selector)]
        case .scrollIntoView(let selector): ["do": "scroll", "at": .string(selector)]
        case .setTitle(let text): ["do": "title", "text": .string(text)]
        case .copyToClipboard(let text): ["do": "copy", "text": .string(text)]
        case .addClass(let name, let selector): ["do": "add-class", "class": .string(name), "at": .string(selector)]
        case .removeClass(let name, let selector):
            ["do": "remove-class", "class": .string(name), "at": .string(selector)]
        case .toggleClass(let name, let selector):
            ["do": "toggle-class", "class": .string(name), "at": .string(selector)]
        case .setAttribute(let attribute, let value, let selector):
            ["do": "set-attr", "attr": .string(attribute), "values": [.string(value)], "at": .string(selector)]
        case .toggleAttribute(let attribute, let first, let second, let selector):
            [
                "do": "toggle-attr", "attr": .string(attribute), "values": [.string(first), .string(second)],
                "at": .string(selector),
            ]
        case .push(let message, let hook): ["do": "push", "hook": .string(hook), "value": message]
        }
    }
}
