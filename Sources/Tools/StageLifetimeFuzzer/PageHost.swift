import Footlight

/// What a session is to its stages, reduced to ownership: it holds the stages it shows
/// (a root, the pages pushed on it, the components placed in them), gives each a host
/// that holds the page weakly, as a session's does (``Link``), and lets a stage go when
/// it is removed.
final class PageHost: UploadBroker {
    private(set) var shown: [ObjectIdentifier: Stage] = [:]

    /// Shows `stage` and the components placed in it, now and later.
    func show(_ stage: Stage) {
        shown[ObjectIdentifier(stage)] = stage
        stage.host = Link(page: self)
        for (_, component) in stage.placedComponents { show(component) }
    }

    /// Stops showing `stage` (cancelled) and its components.
    func hide(_ stage: Stage) {
        for (_, component) in stage.placedComponents { hide(component) }
        stage.cancel()
        shown[ObjectIdentifier(stage)] = nil
    }

    func begin(_ file: UploadDescription, limits: UploadLimits, deliver: @escaping (UploadEvent) -> Void)
        throws(UploadError) -> UploadTicket
    {
        throw UploadError(.storage, file: file.name, "this page takes no uploads")
    }

    func resume(_ id: String) throws(UploadError) -> UploadTicket {
        throw UploadError(.abandoned, file: nil, "no upload \(id) was started")
    }

    func cancel(_ id: String, with error: UploadError) {}

    /// A shown stage's host: what its bindings tell, the page hears, if it is still there.
    private final class Link: StageHost {
        weak var page: PageHost?

        init(page: PageHost) { self.page = page }

        func stageChanged() { _ = page?.shown.count }
        func stageFailed(_ message: String) {}
        func stageRuns(_ commands: [ClientCommand]) {}
        func stagePlaced(_ component: Stage, at host: ComponentHost) { page?.show(component) }
        func stageRemoved(_ components: [Stage]) {
            for component in components { page?.hide(component) }
        }
        var uploadBroker: (any UploadBroker)? { page }
    }
}
