import Footlight

/// Where a component is placed: in the stage `parent` (its instance id), at `host` in
/// that stage's template.
public struct ComponentPlacement: Hashable, Sendable {
    public let parent: String
    public let host: ComponentHost

    public init(parent: String, host: ComponentHost) {
        self.parent = parent
        self.host = host
    }
}
