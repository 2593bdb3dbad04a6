import Footlight

/// A stage host for tests of a stage on its own: records what the stage's bindings
/// tell its session (``Stage/host``).
package final class RecordingStageHost: StageHost {
    /// How many times a slot or keyed collection changed.
    package private(set) var changes = 0
    /// The binding errors, in order.
    package private(set) var failures: [String] = []
    /// The batches of client commands, in order.
    package private(set) var commands: [[ClientCommand]] = []
    /// The components placed, in order.
    package private(set) var placed: [(component: Stage, host: ComponentHost)] = []
    /// The batches of components removed, in order.
    package private(set) var removed: [[Stage]] = []
    package weak var uploadBroker: (any UploadBroker)?

    package init(uploadBroker: (any UploadBroker)? = nil) {
        self.uploadBroker = uploadBroker
    }

    package func stageChanged() { changes += 1 }
    package func stageFailed(_ message: String) { failures.append(message) }
    package func stageRuns(_ commands: [ClientCommand]) { self.commands.append(commands) }
    package func stagePlaced(_ component: Stage, at host: ComponentHost) { placed.append((component, host)) }
    package func stageRemoved(_ components: [Stage]) { removed.append(components) }
}
