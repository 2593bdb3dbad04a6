import Footlight
import FootlightJSON

/// Matching what a page showed to what the app showed again, for a rebuild (the
/// Protocol article, "Rebuilding a session").
extension Page {
    /// What a rebuild found.
    package struct Rebuild {
        /// A kept value for a stage that declares it recoverable.
        package struct Value {
            package let stage: Stage
            package let name: String
            package let value: JSON
        }
        /// Each restored stage's new instance id (nil: not rebuilt).
        package var rebuilt: [String?] = []
        /// The kept values to hand to the stages, in the page's order.
        package var values: [Value] = []
        /// Stages not shown again, and values no stage takes.
        package var refusals: [ProtocolError] = []
    }

    /// Matches the stages the page showed, in order, to the stages shown now (same
    /// place and template, and the same address where a stage has one; of two pushes of
    /// one template, the one at the same address first, and never one at the address of
    /// a stage the page showed above it: the top of a deep stack is the one the visitor
    /// sees). A matched stage that takes addresses (``Stage/onAddress(send:)``) and was
    /// shown at another one gets the page's address as a kept value.
    package mutating func match(_ restore: ClientMessage.Restore) -> Rebuild {
        var result = Rebuild()
        var next = 0
        for (position, restored) in restore.stages.enumerated() {
            let candidates = stages.entries[next...]
            let sameKind = { (entry: StageStack<Sent>.Entry) in
                !entry.isComponent && entry.placement == restored.placement && entry.stage.name == restored.template
            }
            let above = restore.stages[(position + 1)...]
            let claimed = { (entry: StageStack<Sent>.Entry) in
                entry.url != nil
                    && above.contains {
                        $0.url == entry.url && $0.template == entry.stage.name && $0.placement == entry.placement
                    }
            }
            guard
                let index = candidates.firstIndex(where: {
                    sameKind($0) && restored.url != nil && $0.url == restored.url
                })
                    ?? candidates.firstIndex(where: { sameKind($0) && !claimed($0) })
            else {
                result.rebuilt.append(nil)
                let place = restored.placement == .root ? "" : " (\(restored.placement.rawValue))"
                result.refusals.append(
                    ProtocolError(
                        .notRebuilt,
                        "stage \"\(restored.template)\"\(place) was not shown again; \(restored.values.count) kept value(s) dropped"
                    ))
                continue
            }
            next = index + 1
            let entry = stages[index]
            result.rebuilt.append(entry.id)
            if let url = restored.url, url != entry.url, entry.stage.takesAddresses,
                let address = try? Address(eventJSON: .string(url))
            {
                went(to: address, at: index)
                result.values.append(Rebuild.Value(stage: entry.stage, name: Wire.addressEvent, value: .string(url)))
            }
            for (key, value) in restored.values {
                // A component's value is named by the hosts down to it: "form/email".
                guard let (stage, name) = Self.recoverableEvent(key, of: entry.stage) else {
                    result.refusals.append(
                        ProtocolError(
                            .notRecoverable,
                            "stage \"\(entry.stage.name)\" has no recoverable event \"\(key)\"; its value was not restored"
                        ))
                    continue
                }
                result.values.append(Rebuild.Value(stage: stage, name: name, value: value))
            }
        }
        return result
    }

    /// The stage a kept value is for, and its event, when that stage declares the event
    /// recoverable: `stage` itself for a plain event name; for "form/email", the component
    /// at host "form" (not one of a list's rows), and so on down. Nil otherwise. Restored
    /// values and the events a page sends again to a rebuilt session both go through it.
    package static func recoverableEvent(_ key: String, of stage: Stage) -> (Stage, String)? {
        var path = key.split(separator: "/", omittingEmptySubsequences: false)
        let name = String(path.removeLast())
        var recipient: Stage? = stage
        for host in path {
            recipient = recipient?.components[ComponentHost(name: String(host))]
        }
        guard let recipient, recipient.eventOptions[name]?.recoverable == true else { return nil }
        return (recipient, name)
    }

    /// Whether an event's name goes down to a component ("form/email"): a scan of its
    /// bytes in place, on every event (callgrind, the counter's click: about 80
    /// instructions, against about 320 for the `UTF8View`'s own `contains`, which walks
    /// an iterator).
    package static func namesComponent(_ name: String) -> Bool {
        let slash = UInt8(ascii: "/")
        return name.utf8.withContiguousStorageIfAvailable { $0.contains(slash) } ?? name.utf8.contains(slash)
    }
}
