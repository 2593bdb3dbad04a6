import Dispatch
import Footlight

/// Learns what an app's stages bind without a page: starts the app entry in a context
/// of its own for each path, as a visitor's first visit to that address would, lets the
/// work its stages posted run, describes every stage it showed (components included,
/// ``Stage/bindings``) and cancels them.
///
/// It costs one start of the app per path and touches no socket nor session; the app's
/// Directors are made and subscribed, as for any visitor, and the request they see is
/// empty (no cookie, so no visitor signed in). A stage the app shows only after an event
/// (a dialog, a pushed page) is seen when a path names it (a deep link) or not at all.
package enum BindingProbe {
    /// How many rounds of work posted to the session's executor are let run before the
    /// stages are described (each round runs what the one before posted).
    static let rounds = 4

    /// The bindings of the stages `entry` shows at each of `paths`.
    package static func stages(of entry: @escaping AppEntry, paths: [String]) -> [StageBindings] {
        paths.flatMap { path in
            let queue = DispatchQueue(label: "footlight.binding-probe")
            let presenter = CollectingPresenter()
            let context = Context(
                environment: SessionEnvironment(executor: queue, request: SessionRequest(path: path)),
                presenter: presenter)
            queue.sync { context.start(entry, path: path, restoringModals: []) }
            for _ in 0..<rounds { queue.sync {} }
            return queue.sync {
                defer { presenter.cancelAll() }
                return presenter.stages.map(\.bindings)
            }
        }
    }
}

/// A presenter that keeps every stage it is given, removed ones too, for
/// ``BindingProbe``.
private final class CollectingPresenter: Presenter {
    private(set) var stages: [Stage] = []

    func present(_ stage: Stage, placement: Placement, url: String?) {
        stages.append(stage)
    }

    func removeTop(_ placement: Placement) {}
    func removeAll() {}
    func open(url: String) {}
    func startOver(reason: String) {}

    func cancelAll() {
        for stage in stages { stage.cancel() }
        stages.removeAll()
    }
}
