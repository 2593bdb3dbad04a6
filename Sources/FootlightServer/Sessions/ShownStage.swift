import Footlight

/// A shown stage's host: what the stage's bindings tell, its session hears, with the
/// stage's instance id.
///
/// The stage holds it; it holds the session weakly (the session owns its stages), so a
/// stage is no cycle through its session, and a stage that outlives it (kept by app
/// code) tells no one.
final class ShownStage<Session: SessionHost>: StageHost {
    private weak var session: Session?
    private let id: String

    init(session: Session, id: String) {
        self.session = session
        self.id = id
    }

    func stageChanged() {
        guard let session else { return }
        session.perform(session.state.stageChanged(id))
    }

    func stageFailed(_ message: String) {
        guard let session else { return }
        session.perform(session.state.slotFailed(message))
    }

    func stageRuns(_ commands: [ClientCommand]) {
        guard let session else { return }
        session.perform(session.state.run(commands, in: id))
    }

    func stagePlaced(_ component: Stage, at host: ComponentHost) {
        session?.present(component, in: id, at: host)
    }

    func stageRemoved(_ components: [Stage]) {
        guard let session else { return }
        session.perform(session.state.removeComponents(components))
    }

    var uploadBroker: (any UploadBroker)? { session?.uploadBroker }
}
