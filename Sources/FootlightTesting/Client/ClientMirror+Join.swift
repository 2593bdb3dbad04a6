import Footlight
import FootlightJSON
import FootlightServer

extension ClientMirror {
    /// The join message: fresh (with the page's `path` for a deep link), or a resume
    /// with the token and last applied seq; with `restore`, what the page shows, for a
    /// server that no longer has the session.
    public func joinMessage(path: String? = nil, restore: ClientMessage.Restore? = nil) -> JSON {
        Wire.Client.join.message([
            .version: .int(Int64(ClientMessage.version)), .token: token.map(JSON.string),
            .seq: token == nil ? nil : .int(lastSeq), .path: path.map(JSON.string), .restore: restore?.json,
        ])
    }

    /// What a page showing these stages would send in `restore`: in page order (roots,
    /// the stack, modals), with `values` (by stage id) as the values it kept.
    public func restore(values: [String: JSONObject] = [:]) -> ClientMessage.Restore {
        let rank = [Placement.root.rawValue: 0, Placement.push.rawValue: 1, Placement.modal.rawValue: 2]
        let ordered = stages.enumerated().sorted {
            (rank[$0.element.placement] ?? 0, $0.offset) < (rank[$1.element.placement] ?? 0, $1.offset)
        }
        return ClientMessage.Restore(
            stages: ordered.map { _, stage in
                ClientMessage.Restore.Stage(
                    template: stage.template, placement: Placement(rawValue: stage.placement) ?? .root, url: stage.url,
                    values: values[stage.id] ?? [:])
            })
    }
}
