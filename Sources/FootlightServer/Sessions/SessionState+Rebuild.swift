import Footlight
import FootlightJSON

/// Rebuilding a session the server did not have from what its page showed (the join's
/// `restore`): see the Protocol article, "Rebuilding a session".
extension SessionState {

    /// The app entry (and, for a rebuild, its modal restorer) has run: the stages the
    /// page showed are matched, in order, to the stages the app showed again (same
    /// place and template, and the same address where a stage has one), and their kept
    /// values are replayed to them. A stage with
    /// no match, and a value for an event the stage does not declare recoverable, are
    /// refused with typed errors (the page shows what was rebuilt). Each value counts
    /// against the session's event rate limit, as an event would (`now` is the time).
    package mutating func appStarted(now: ContinuousClock.Instant) -> [SessionAction] {
        guard let restore = pendingRestore else { return [] }
        pendingRestore = nil
        var actions: [SessionAction] = []
        var rebuilt: [String?] = []
        var next = 0
        var overLimit = 0
        for restored in restore.stages {
            // The same place and template; of two pushes of one template, the one at the
            // same address first.
            let candidates = stages.entries[next...]
            let sameKind = { (entry: StageStack<Sent>.Entry) in
                !entry.isComponent && entry.placement == restored.placement && entry.stage.name == restored.template
            }
            guard
                let index = candidates.firstIndex(where: {
                    sameKind($0) && restored.url != nil && $0.url == restored.url
                })
                    ?? candidates.firstIndex(where: sameKind)
            else {
                rebuilt.append(nil)
                let place = restored.placement == .root ? "" : " (\(restored.placement.rawValue))"
                actions += refuse(
                    ProtocolError(
                        .notRebuilt,
                        "stage \"\(restored.template)\"\(place) was not shown again; \(restored.values.count) kept value(s) dropped"
                    ))
                continue
            }
            next = index + 1
            let entry = stages[index]
            rebuilt.append(entry.id)
            for (key, value) in restored.values {
                // A component's value is named by the hosts down to it: "form/email".
                guard let (stage, name) = Self.recoverableEvent(key, of: entry.stage) else {
                    actions += refuse(
                        ProtocolError(
                            .notRecoverable,
                            "stage \"\(entry.stage.name)\" has no recoverable event \"\(key)\"; its value was not restored"
                        ))
                    continue
                }
                guard takeEventToken(now: now) else {
                    overLimit += 1
                    continue
                }
                actions.append(.restore(name: name, value: value, to: stage))
            }
        }
        if overLimit > 0 {
            actions += refuse(
                ProtocolError(.rateLimited, "\(overLimit) kept value(s) over the event rate limit were not restored"))
        }
        joining?.rebuilt = rebuilt
        actions.append(
            .log(.info, "rebuilt \(rebuilt.compactMap { $0 }.count) of \(rebuilt.count) stages the page showed"))
        return actions
    }

    /// The stage a kept value is for, and its event, when that stage declares the event
    /// recoverable: `stage` itself for a plain event name; for "form/email", the component
    /// at host "form" (not one of a list's rows), and so on down. Nil otherwise. Restored
    /// values and the events a page sends again to a rebuilt session both go through it.
    static func recoverableEvent(_ key: String, of stage: Stage) -> (Stage, String)? {
        var path = key.split(separator: "/", omittingEmptySubsequences: false)
        let name = String(path.removeLast())
        var recipient: Stage? = stage
        for host in path {
            recipient = recipient?.components[ComponentHost(name: String(host))]
        }
        guard let recipient, recipient.eventOptions[name]?.recoverable == true else { return nil }
        return (recipient, name)
    }

    /// What came of a replayed value: nil when the stage took it.
    package mutating func restored(error: StageEventError?) -> [SessionAction] {
        guard let error else { return scheduleFlush() }
        switch error.kind {
        case .unknownEvent: return refuse(ProtocolError(.notRecoverable, error.message))
        case .badValue: return refuse(ProtocolError(.badValue, error.message))
        case .directorFailed: return fail(ProtocolError(.directorFailed, error.message))
        }
    }
}
