import FootlightJSON

/// Something the page does at once, with no round trip: move focus, scroll, set the
/// document's title, copy text, or change an element's classes. Selectors are CSS,
/// looked up inside the stage's element (its first match).
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

    /// The command ``json`` describes, or nil for anything else (a test client reading
    /// what the page was sent).
    public init?(json: JSON) {
        let at = json["at"]?.stringValue
        let name = json["class"]?.stringValue
        let text = json["text"]?.stringValue
        let command: ClientCommand? =
            switch json["do"]?.stringValue {
            case "focus": at.map { .focus($0) }
            case "scroll": at.map { .scrollIntoView($0) }
            case "title": text.map { .setTitle($0) }
            case "copy": text.map { .copyToClipboard($0) }
            case "add-class": name.flatMap { name in at.map { .addClass(name, to: $0) } }
            case "remove-class": name.flatMap { name in at.map { .removeClass(name, from: $0) } }
            case "toggle-class": name.flatMap { name in at.map { .toggleClass(name, on: $0) } }
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
        }
    }
}
