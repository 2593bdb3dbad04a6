/// The presentation abstraction a scene presents other scenes through: a navigation
/// stack, modals, the root, and external URLs. The page decides how (History API
/// entries for pushes, a new tab for URLs).
///
/// A context belongs to one session and is used on its queue.
public final class Context {
    /// The session's executor and services.
    public let environment: SessionEnvironment
    private unowned let presenter: any Presenter

    package init(environment: SessionEnvironment, presenter: any Presenter) {
        self.environment = environment
        self.presenter = presenter
    }

    /// Shows `scene` at the root, beside any roots already shown.
    public func show(_ scene: some Scene) {
        presenter.present(scene.makeStage(context: self), placement: .root, url: nil)
    }

    /// Replaces everything shown (roots, stack and modals) with `scene`.
    public func replaceRoot(with scene: some Scene, url: String? = nil) {
        presenter.removeAll()
        presenter.present(scene.makeStage(context: self), placement: .root, url: url)
    }

    /// Pushes `scene` onto the navigation stack; `url` is the address the page shows
    /// (and that a reload or a shared link opens again).
    public func push(_ scene: some Scene, url: String? = nil) {
        presenter.present(scene.makeStage(context: self), placement: .push, url: url)
    }

    /// Pops the top of the navigation stack, if any.
    public func pop() {
        presenter.removeTop(.push)
    }

    /// Presents `scene` modally, over everything else.
    public func present(_ scene: some Scene) {
        presenter.present(scene.makeStage(context: self), placement: .modal, url: nil)
    }

    /// Dismisses the top modal, if any.
    public func dismiss() {
        presenter.removeTop(.modal)
    }

    /// Opens an external URL (in a new tab).
    public func open(url: String) {
        presenter.open(url: url)
    }

    /// How the app presents again a modal the page showed when its session was lost
    /// (a restart, another node, a duplicated tab). During a rebuild, after the app
    /// entry has shown the scenes the page's address names, `restore` is called once
    /// per modal the page showed, bottom first, with its template's name: present the
    /// scene with that template, or nothing for one the app does not restore (the page
    /// is told the modal was not rebuilt). Set it in the app entry, which must show its
    /// stages before it returns (the matching follows at once).
    ///
    /// The templates come from the page: treat them as untrusted input. A page may name
    /// a template more than once (at most 16 stages in all), or one the routing already
    /// showed as a modal.
    public func restoresModals(_ restore: @escaping (_ template: String) -> Void) {
        modalRestorer = restore
    }

    /// What ``restoresModals(_:)`` set.
    private var modalRestorer: ((String) -> Void)?

    /// Starts the app in this context: `entry` with the page's `path`, then, for a
    /// rebuild, the modal restorer for each of `modals` (templates, bottom first).
    package func start(_ entry: AppEntry, path: String, restoringModals modals: [String]) {
        entry(self, path)
        if let modalRestorer { modals.forEach(modalRestorer) }
    }

    /// Ends this session, after the current work, and has the page start a new one at
    /// the address it shows: for a session whose state no longer holds (the visitor
    /// signed out in another tab). The page drops its events not yet acknowledged, joins
    /// with what it shows (the new session is rebuilt from it: the stages the app shows
    /// again keep their recoverable values, typed text and focus), and says it started
    /// over. `reason` goes to the page (`bye`) and the log.
    public func startOver(reason: String) {
        presenter.startOver(reason: reason)
    }
}

/// What carries out a context's commands: the live session, or a scene test.
package protocol Presenter: AnyObject {
    func present(_ stage: Stage, placement: Placement, url: String?)
    func removeTop(_ placement: Placement)
    func removeAll()
    func open(url: String)
    func startOver(reason: String)
}
