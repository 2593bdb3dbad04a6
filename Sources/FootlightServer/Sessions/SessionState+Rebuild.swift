import Footlight
import FootlightJSON

/// Rebuilding a session the server did not have from what its page showed (the join's
/// `restore`): see the Protocol article, "Rebuilding a session".
extension SessionState {
    /// The app entry (and, for a rebuild, its modal restorer) has run: the stages the
    /// page showed are matched to the stages the app showed again (``Page/match(_:)``),
    /// and their kept values are replayed to them. A stage with no match, and a value for
    /// an event the stage does not declare recoverable, are refused with typed errors
    /// (the page shows what was rebuilt). Each value counts against the session's event
    /// rate limit, as an event would (`now` is the time).
    package mutating func appStarted(now: ContinuousClock.Instant) -> [SessionAction] {
        guard let restore = pendingRestore else { return [] }
        pendingRestore = nil
        let rebuild = page.match(restore)
        var actions: [SessionAction] = []
        for refusal in rebuild.refusals { actions += refuse(refusal) }
        var overLimit = 0
        for kept in rebuild.values {
            guard conversation.takeEventToken(now: now) else {
                overLimit += 1
                continue
            }
            actions.append(.restore(name: kept.name, value: kept.value, to: kept.stage))
        }
        if overLimit > 0 {
            actions += refuse(
                ProtocolError(.rateLimited, "\(overLimit) kept value(s) over the event rate limit were not restored"))
        }
        conversation.joining?.rebuilt = rebuild.rebuilt
        let count = rebuild.rebuilt.compactMap { $0 }.count
        actions.append(.io(.log(.info, "rebuilt \(count) of \(rebuild.rebuilt.count) stages the page showed")))
        return actions
    }

    /// A page loaded anew (it has applied nothing: a reload, or Back or Forward to an
    /// entry of another page load of the tab) resumed this session at `path`. When that
    /// is not the address of the stage on top, and the stage takes addresses, the visitor
    /// went there: the stage hears of it as it hears of Back (its Director may answer
    /// with another address, replacing), and the page gets the stages whole as they are
    /// then, not the messages of the address it left.
    mutating func arrive(at path: String?, resumingAfter lastSeq: Int64?) -> [SessionAction] {
        guard lastSeq == 0, let path, let address = try? Address(eventJSON: .string(path)),
            let index = page.addressedTop(), page.stages[index].url != address.url
        else { return [] }
        page.went(to: address, at: index)
        conversation.sendSnapshotOnJoin()
        return [.restore(name: Wire.addressEvent, value: .string(address.url), to: page.stages[index].stage)]
    }

    /// What came of a replayed value: nil when the stage took it.
    package mutating func restored(error: StageEventError?) -> [SessionAction] {
        guard let error else { return .init(conversation.scheduleFlush()) }
        // A kept value for an event the stage does not have is one it cannot recover.
        guard error.kind != .unknownEvent else { return refuse(ProtocolError(.notRecoverable, error.message)) }
        let refusal = ProtocolError(error, eventNumber: nil)
        return error.kind == .directorFailed ? fail(refusal) : refuse(refusal)
    }
}
