import Footlight

/// What drives a ``SessionState`` and runs its app: the live session
/// (``SessionDriver``), `SceneTester` and the session tests' machine. Each says how its
/// app starts and how it carries out I/O; the rest is here, once: the interpreter of
/// the session's actions (``perform(_:)``), and how a scene's stages, and the
/// components placed in them, are shown.
package protocol SessionHost: Presenter {
    var state: SessionState { get set }
    /// Where the stages' upload bindings start their files (nil: they are refused).
    var uploadBroker: (any UploadBroker)? { get }
    /// The time the session's rate limit reads.
    var now: ContinuousClock.Instant { get }
    /// Runs the app's entry with the page's `path`, then, for a rebuild, the context's
    /// modal restorer for each of `modals` (templates, bottom first).
    func startApp(path: String, modals: [String])
    /// Carries out one protocol action (a send, a close, a log line...).
    func carryOut(_ action: ProtocolAction)
    /// A stage handled a user event (`error`: how it refused it), before the session
    /// hears of it.
    func delivered(_ event: ClientMessage.Event, error: StageEventError?)
}

extension SessionHost {
    /// No uploads, unless the host provides them.
    package var uploadBroker: (any UploadBroker)? { nil }
    package var now: ContinuousClock.Instant { .now }
    package func delivered(_ event: ClientMessage.Event, error: StageEventError?) {}

    /// Carries out the session's actions in order: app code (the app's start, events and
    /// kept values handed to stages), reporting each outcome back to the session and
    /// carrying out what that asks in turn, and I/O through ``carryOut(_:)``.
    package func perform(_ actions: [SessionAction]) {
        for action in actions {
            switch action {
            case .io(let action):
                carryOut(action)
            case .startApp(let path, let modals):
                startApp(path: path, modals: modals)
                perform(state.appStarted(now: now))
            case .deliver(let event, let stage):
                let error = stage.deliver(event)
                delivered(event, error: error)
                perform(state.eventHandled(event, error: error))
            case .restore(let name, let value, let stage):
                perform(state.restored(error: stage.deliver(name, value: value)))
            }
        }
    }

    package func present(_ stage: Stage, placement: Placement, url: String?) {
        let (id, actions) = state.present(stage, placement: placement, url: url)
        perform(actions)
        wire(stage, id: id)
    }

    package func removeTop(_ placement: Placement) {
        perform(state.removeTop(placement))
    }

    package func removeAll() {
        perform(state.removeAll())
    }

    package func open(url: String) {
        perform(state.open(url: url))
    }

    func present(_ component: Stage, in parent: String, at host: ComponentHost) {
        let (id, actions) = state.present(component, in: parent, at: host)
        perform(actions)
        if let id { wire(component, id: id) }
    }

    /// Hooks the shown stage `id` to the session, then shows the components placed in it
    /// before (and those placed later, as they come).
    private func wire(_ stage: Stage, id: String) {
        stage.host = ShownStage(session: self, id: id)
        for (host, component) in stage.placedComponents { present(component, in: id, at: host) }
    }
}
