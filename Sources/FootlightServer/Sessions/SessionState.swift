import Footlight
import FootlightJSON

/// One session's state, in two parts: its conversation with the page
/// (``SessionProtocol``, a value of integers and wire messages) and what the page shows
/// (``Page``: stages, components, commands, navigation). Feed it what happened and it
/// returns the ``SessionAction``s its host carries out; app code runs only when the
/// host runs one through ``SessionHost/perform(_:)``, the one interpreter.
///
/// The live server (``SessionDriver``) and `SceneTester` drive the same state.
package struct SessionState {
    /// The bounds and policies the session applies.
    package struct Configuration: Sendable {
        package var limits: SessionLimits
        /// Whether refusals tell the client their details (else only the log has them).
        package var sendsErrorDetails: Bool
        /// The largest message the server reads, told to the client in `joined` (`max`)
        /// so that the page refuses a larger event at its control instead of sending it.
        package var maximumMessageBytes: Int
        /// Patch operations written once for the sessions that send the same ones; one
        /// serves a whole server.
        package var sharedOperations: SharedOperations

        package init(
            limits: SessionLimits = SessionLimits(), sendsErrorDetails: Bool = false,
            maximumMessageBytes: Int = ServerConfiguration.defaultMaximumMessageBytes,
            sharedOperations: SharedOperations = SharedOperations()
        ) {
            self.limits = limits
            self.sendsErrorDetails = sendsErrorDetails
            self.maximumMessageBytes = maximumMessageBytes
            self.sharedOperations = sharedOperations
        }
    }

    /// The event name the page sends for the browser's back button.
    package static let backEvent = Page.backEvent

    let configuration: Configuration
    /// The conversation with the page.
    package internal(set) var conversation: SessionProtocol
    /// What the page shows.
    package internal(set) var page: Page
    /// What the page showed, until the app has started and it is matched.
    var pendingRestore: ClientMessage.Restore?
    /// Messages that could not be encoded since the last output, for the log.
    var encodingFailures: [String] = []

    /// A session that has not started yet; `now` starts its event rate limit.
    package init(token: String, configuration: Configuration, now: ContinuousClock.Instant) {
        self.configuration = configuration
        conversation = SessionProtocol(
            token: token, limits: configuration.limits, sendsErrorDetails: configuration.sendsErrorDetails, now: now)
        page = Page(maximumStages: configuration.limits.maximumStages)
    }

    package var token: String { conversation.token }
    /// Mounted stages in the order the page stacks them.
    package var stages: StageStack<Page.Sent> { page.stages }
    package var started: Bool { conversation.started }
    package var isEnded: Bool { conversation.isEnded }
    package var connection: ConnectionID? { conversation.connection }
    package var nextSeq: Int64 { conversation.nextSeq }
    package var lastEvent: Int64 { conversation.lastEvent }
    package var flushScheduled: Bool { conversation.flushScheduled }
    package var awaitingDrain: Bool { conversation.awaitingDrain }
    package var replayCount: Int { conversation.replayCount }
    package var replayBytes: Int { conversation.replayBytes }

    // MARK: Connections

    /// A connection joins: a new session (`resumeAfter` nil) or a resume of this one
    /// having applied every message up to `resumeAfter`. A new session given `restore`
    /// (what the page showed when its old session was lost) is rebuilt from it.
    package mutating func attach(
        _ id: ConnectionID, resumeAfter lastSeq: Int64?, path: String?, restore: ClientMessage.Restore? = nil
    ) -> [SessionAction] {
        let (startsApp, actions) = conversation.attach(id, resumeAfter: lastSeq, rebuilding: restore != nil)
        guard startsApp else { return .init(actions) + arrive(at: path, resumingAfter: lastSeq) }
        pendingRestore = restore
        let modals = restore?.stages.filter { $0.placement == .modal }.map(\.template) ?? []
        return [.startApp(path: path ?? "/", modals: modals)] + .init(actions)
    }

    /// The connection closed; the state is kept for a resume.
    package mutating func detach(_ id: ConnectionID) -> [SessionAction] {
        conversation.detach(id)
        return []
    }

    /// Ends the session for good: stages are cancelled; a connected client gets `bye`
    /// and a close with `closeCode`.
    package mutating func end(reason: String, closeCode: UInt16 = 1001) -> [SessionAction] {
        guard !conversation.isEnded else { return [] }
        page.close()
        return .init(conversation.end(reason: reason, closeCode: closeCode))
    }

    /// A Director failed: the session is beyond repair.
    mutating func fail(_ failure: ProtocolError) -> [SessionAction] {
        page.close()
        return .init(conversation.fail(failure))
    }

    // MARK: Client messages

    /// A user event from the page, numbered by the client.
    package mutating func receive(_ event: ClientMessage.Event, now: ContinuousClock.Instant) -> [SessionAction] {
        if case .settled(let actions) = conversation.admit(event: event.number, now: now) { return .init(actions) }
        if event.name == Page.backEvent {
            // The browser's back button, for the stage the page had on top. If that stage
            // is already gone (the server popped it meanwhile), there is nothing to do.
            _ = page.back(from: event.stage)
            return .init(conversation.scheduleFlush())
        }
        guard let index = page.stages.index(of: event.stage) else {
            // At most 8 named: a page of a thousand components would make each refusal 10 KB.
            let entries = page.stages.entries
            var names = entries.prefix(8).map { "\"\($0.id)\"" }.joined(separator: ", ")
            if entries.count > 8 { names += " and \(entries.count - 8) more" }
            return refuse(
                ProtocolError(
                    .unknownStage,
                    "no stage \"\(event.stage)\" is mounted (mounted: \(names.isEmpty ? "none" : names))",
                    eventNumber: event.number))
        }
        let stage = page.stages[index].stage
        // Back, Forward or a link to another address of the stage: the page shows it.
        if event.name == Wire.addressEvent, let address = try? Address(eventJSON: event.value ?? .null) {
            page.went(to: address, at: index)
        }
        guard Page.namesComponent(event.name) else { return [.deliver(event, to: stage)] }
        // A component's kept value, which a page sends again to a rebuilt session named by
        // the hosts down to the component ("form/email"), as its restore names it.
        guard let (recipient, name) = Page.recoverableEvent(event.name, of: stage) else {
            return refuse(
                ProtocolError(
                    .unknownEvent,
                    "stage \"\(stage.name)\" has no component with a recoverable event \"\(event.name)\"",
                    eventNumber: event.number))
        }
        let renamed = ClientMessage.Event(number: event.number, stage: event.stage, name: name, value: event.value)
        return [.deliver(renamed, to: recipient)]
    }

    /// What came of a delivered event: nil when the stage took it.
    package mutating func eventHandled(_ event: ClientMessage.Event, error: StageEventError?) -> [SessionAction] {
        guard let error else { return .init(conversation.scheduleFlush()) }
        let refusal = ProtocolError(error, eventNumber: event.number)
        return error.kind == .directorFailed ? fail(refusal) : refuse(refusal)
    }

    /// The client applied every message up to `seq`.
    package mutating func acknowledge(seq: Int64) -> [SessionAction] {
        .init(conversation.acknowledge(seq: seq))
    }

    /// A problem the page reported: a binding error of one stage, or (no stage) one of
    /// the page's own, such as a runtime of another protocol version. Reports share the
    /// event rate limit.
    package mutating func report(stage: String, message: String, now: ContinuousClock.Instant) -> [SessionAction] {
        guard conversation.takeEventToken(now: now) else { return [] }
        let text =
            stage.isEmpty
            ? "the page reports: \(message)" : "the page reports a binding error in stage \"\(stage)\": \(message)"
        return [.io(.log(.warning, text))]
    }

    /// A slot of a stage got a value it cannot hold.
    package mutating func slotFailed(_ message: String) -> [SessionAction] {
        [.io(.log(.error, message))] + refuse(ProtocolError(.badSlotValue, message))
    }

    /// Queues an error for the client (``SessionProtocol/refuse(_:)``).
    mutating func refuse(_ error: ProtocolError) -> [SessionAction] {
        .init(conversation.refuse(error))
    }

    // MARK: Stages and navigation

    /// Mounts `stage`; returns its instance id, which ``stageChanged(_:)`` takes.
    package mutating func present(_ stage: Stage, placement: Placement, url: String?) -> (String, [SessionAction]) {
        (page.present(stage, placement: placement, url: url), .init(conversation.scheduleFlush()))
    }

    /// Mounts `component`, placed by the stage `parent` at `host` (``Page/present(_:in:at:)``).
    package mutating func present(_ component: Stage, in parent: String, at host: ComponentHost) -> (
        id: String?, actions: [SessionAction]
    ) {
        let (id, log) = page.present(component, in: parent, at: host)
        if let log { return (id, [.io(log)]) }
        return (id, id == nil ? [] : .init(conversation.scheduleFlush()))
    }

    /// Removes the top stage with `placement`, if any, with its components.
    package mutating func removeTop(_ placement: Placement) -> [SessionAction] {
        flush(if: page.removeTop(placement))
    }

    /// Removes the components `removed` (their parents removed them), with their own.
    package mutating func removeComponents(_ removed: [Stage]) -> [SessionAction] {
        flush(if: page.removeComponents(removed))
    }

    /// Removes the pushed or modal stage `id` and everything stacked above it.
    package mutating func back(from id: String) -> [SessionAction] {
        flush(if: page.back(from: id))
    }

    /// Removes every stage: modals, then the stack, then the roots.
    package mutating func removeAll() -> [SessionAction] {
        flush(if: page.removeAll())
    }

    /// Opens an external URL in the page (at most 8 wait for the client).
    package mutating func open(url: String) -> [SessionAction] {
        if let dropped = page.open(url: url) { return [.io(dropped)] }
        return .init(conversation.scheduleFlush())
    }

    /// Client commands for stage `id` (``Page/run(_:in:)``).
    package mutating func run(_ batch: [ClientCommand], in id: String) -> [SessionAction] {
        let (queued, log) = page.run(batch, in: id)
        return (log.map { [.io($0)] } ?? []) + flush(if: queued)
    }

    /// A slot of stage `id` changed.
    package mutating func stageChanged(_ id: String) -> [SessionAction] {
        flush(if: page.stageChanged(id))
    }

    /// A flush at the end of the turn when the page changed (asked once a turn: most
    /// changes find it asked already, and cost no array).
    private mutating func flush(if changed: Bool) -> [SessionAction] {
        guard changed, !conversation.flushScheduled else { return [] }
        return .init(conversation.scheduleFlush())
    }
}
