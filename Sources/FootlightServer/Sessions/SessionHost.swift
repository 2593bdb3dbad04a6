import Footlight

/// What drives a ``SessionState`` and runs its app: the live session
/// (``SessionDriver``) and `SceneTester`. Both show a scene's stages, and the
/// components placed in them, the same way.
package protocol SessionHost: Presenter {
    var state: SessionState { get set }
    /// Where the stages' upload bindings start their files (nil: they are refused).
    var uploadBroker: (any UploadBroker)? { get }
    /// Carries out what the state machine asked for, in order.
    func perform(_ actions: [SessionAction])
}

extension SessionHost {
    /// No uploads, unless the host provides them.
    package var uploadBroker: (any UploadBroker)? { nil }

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

    private func present(_ component: Stage, in parent: String, at host: ComponentHost) {
        let (id, actions) = state.present(component, in: parent, at: host)
        perform(actions)
        if let id { wire(component, id: id) }
    }

    /// Hooks the shown stage `id` to the session, then shows the components placed in it
    /// before (and those placed later, as they come).
    private func wire(_ stage: Stage, id: String) {
        stage.uploadBroker = uploadBroker
        stage.didChange = { [unowned self] in perform(state.stageChanged(id)) }
        stage.didFail = { [unowned self] message in perform(state.slotFailed(message)) }
        stage.didRun = { [unowned self] commands in perform(state.run(commands, in: id)) }
        stage.didRemove = { [unowned self] components in perform(state.removeComponents(components)) }
        stage.didPlace = { [unowned self] component, host in present(component, in: id, at: host) }
        for (host, component) in stage.placedComponents { present(component, in: id, at: host) }
    }
}
