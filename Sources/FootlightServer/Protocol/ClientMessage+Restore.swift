import Footlight
import FootlightJSON
import OrderedCollections

extension ClientMessage {
    /// What a page shows, sent with a `join` that carries a token, so that a server
    /// that no longer has the session (a restart, another node) rebuilds it instead
    /// of starting a blank one; and with a token-less `join` from a duplicated tab.
    public struct Restore: Sendable, Equatable {
        /// One stage the page shows, in page order: roots, then the navigation stack,
        /// then modals.
        public struct Stage: Sendable, Equatable {
            /// Its template's name.
            public let template: String
            /// Where the page showed it.
            public let placement: Placement
            /// The address of a pushed stage.
            public let url: String?
            /// The last value the page sent for each event the stage declared
            /// recoverable (``EventOptions/recoverable``), by event name.
            public let values: JSONObject

            /// A stage as the page names it in `restore`.
            public init(template: String, placement: Placement, url: String? = nil, values: JSONObject = [:]) {
                self.template = template
                self.placement = placement
                self.url = url
                self.values = values
            }
        }

        /// The stages, in page order: roots, the navigation stack, modals.
        public let stages: [Stage]

        /// What a page showing `stages` sends.
        public init(stages: [Stage]) {
            self.stages = stages
        }

        /// The most stages a page may name.
        public static let maximumStages = 16
        /// The most values a stage may carry.
        public static let maximumValues = 32

        /// The message's JSON (`restore` of `join`).
        public var json: JSON {
            .array(
                stages.map { stage in
                    var members: JSONObject = [:]
                    members[.template] = .string(stage.template)
                    if stage.placement != .root { members[.placement] = .string(stage.placement.rawValue) }
                    if let url = stage.url { members[.url] = .string(url) }
                    if !stage.values.isEmpty { members[.values] = .object(stage.values) }
                    return .object(members)
                })
        }

        /// Decodes `restore` of a `join`: an array of at most 16 stages, each an object
        /// with `template` (1–128 bytes), optional `place` (`root`, `push`, `modal`),
        /// `url` (at most 2048 bytes) and `values` (at most 32, names of 1–128 bytes).
        init(json: JSON) throws(ProtocolError) {
            guard case .array(let items) = json, items.count <= Self.maximumStages else {
                throw ProtocolError(
                    .badMessage, "\"restore\" of join must be an array of at most \(Self.maximumStages) stages")
            }
            var stages: [Stage] = []
            for item in items {
                guard case .object(let members) = item, case .string(let template)? = members[.template],
                    !template.isEmpty, template.utf8.count <= 128
                else {
                    throw ProtocolError(
                        .badMessage, "each stage of \"restore\" needs a \"template\" string of 1 to 128 bytes")
                }
                var placement = Placement.root
                if let place = members[.placement] {
                    guard let text = place.stringValue, let parsed = Placement(rawValue: text) else {
                        throw ProtocolError(.badMessage, "\"place\" of a restored stage must be root, push or modal")
                    }
                    placement = parsed
                }
                var url: String?
                if let value = members[.url] {
                    guard let text = value.stringValue, text.utf8.count <= 2048 else {
                        throw ProtocolError(
                            .badMessage, "\"url\" of a restored stage must be a string of at most 2048 bytes")
                    }
                    url = text
                }
                var values: JSONObject = [:]
                if let value = members[.values] {
                    guard case .object(let given) = value, given.count <= Self.maximumValues,
                        given.keys.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 128 })
                    else {
                        throw ProtocolError(
                            .badMessage,
                            "\"values\" of a restored stage must be an object of at most \(Self.maximumValues) events named by 1 to 128 bytes"
                        )
                    }
                    values = given
                }
                stages.append(Stage(template: template, placement: placement, url: url, values: values))
            }
            self.stages = stages
        }
    }
}
