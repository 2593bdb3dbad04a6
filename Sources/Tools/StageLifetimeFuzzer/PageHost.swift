import Footlight

/// What a session is to its stages, reduced to ownership: it holds the stages it shows
/// (a root, the pages pushed on it, the components placed in them), wires each as the
/// session does (the upload broker, and callbacks that do not hold it), and lets a
/// stage go when it is removed.
final class PageHost: UploadBroker {
    private(set) var shown: [ObjectIdentifier: Stage] = [:]

    /// Shows `stage` and the components placed in it, now and later.
    func show(_ stage: Stage) {
        shown[ObjectIdentifier(stage)] = stage
        stage.uploadBroker = self
        stage.didChange = { [unowned self] in _ = shown.count }
        stage.didPlace = { [unowned self] component, _ in show(component) }
        stage.didRemove = { [unowned self] removed in
            for component in removed { hide(component) }
        }
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
}
