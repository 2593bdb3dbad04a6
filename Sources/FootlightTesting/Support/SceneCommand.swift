import Footlight
import FootlightJSON

/// What a scene asked its context to do, as the page was told: a stage mounted or
/// unmounted, a URL opened, client commands run in a stage, a stage's address, or any
/// other server message, as it was sent.
public enum SceneCommand: Equatable, Sendable, CustomStringConvertible {
    case mount(template: String, placement: Placement, url: String?)
    case unmount(template: String, placement: Placement)
    case open(url: String)
    /// A component of template `template` placed in the stage of template `parent`.
    case mountComponent(template: String, in: String, at: ComponentHost)
    /// A component of template `template` removed (or its parent with it).
    case unmountComponent(template: String)
    /// Client commands (``Stage/run(_:)``) for the stage of `template`.
    case run(template: String, [ClientCommand])
    /// The address bar shows `url` for the stage of `template` (``Stage/bindAddress(_:)``),
    /// in a new History entry or, when `replace`, in place of the current one.
    case address(template: String, url: String, replace: Bool)
    /// A server message of `type` that has no case of its own here (one newer than this
    /// list), for the stage of `template` when it names one: its members besides `t`,
    /// `seq`, `stage` and `ack`, for example
    /// `.message(type: "title", template: "lot", ["text": "Lot 7"])`.
    case message(type: String, template: String?, JSON)

    public var description: String {
        switch self {
        case .mount(let template, let placement, let url):
            "mount \(template) (\(placement.rawValue)\(url.map { ", \($0)" } ?? ""))"
        case .unmount(let template, let placement): "unmount \(template) (\(placement.rawValue))"
        case .mountComponent(let template, let parent, let host): "mount \(template) in \(parent) at \(host)"
        case .unmountComponent(let template): "unmount \(template) (component)"
        case .open(let url): "open \(url)"
        case .run(let template, let commands): "run in \(template): \(commands)"
        case .address(let template, let url, let replace): "address \(url) of \(template)\(replace ? " (replace)" : "")"
        case .message(let type, let template, let members):
            "\(type)\(template.map { " in \($0)" } ?? ""): \((try? members.serialized()) ?? "?")"
        }
    }
}
