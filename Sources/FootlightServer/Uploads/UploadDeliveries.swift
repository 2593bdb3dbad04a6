import Footlight

/// A session's unfinished uploads and the binding each one's events go to, used on
/// the session's executor (by the live session and by `SceneTester` alike).
package final class UploadDeliveries {
    private var inputs: [String: (UploadEvent) -> Void] = [:]

    package init() {}

    /// Events of upload `id` go to `input` from now on.
    package func add(_ id: String, _ input: @escaping (UploadEvent) -> Void) {
        inputs[id] = input
    }

    /// Hands `event` to upload `id`'s binding (in a turn of the session). After its end,
    /// finished or failed, `registry` forgets the upload and removes its file, unless the
    /// app moved the file while it handled the event.
    package func deliver(_ event: UploadEvent, of id: String, registry: UploadRegistry?) {
        inputs[id]?(event)
        switch event {
        case .finished, .failed:
            inputs[id] = nil
            registry?.release(id)
        case .started, .progress:
            break
        }
    }

    /// Forgets every binding (the session ended).
    package func removeAll() {
        inputs.removeAll()
    }
}
