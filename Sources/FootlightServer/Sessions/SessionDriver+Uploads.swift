import Footlight

/// A session starts its stages' uploads through the server's upload registry.
extension SessionDriver: UploadBroker {
    var uploadBroker: (any UploadBroker)? { self }

    func begin(_ file: UploadDescription, limits: UploadLimits, deliver: @escaping (UploadEvent) -> Void)
        throws(UploadError) -> UploadTicket
    {
        guard let uploads = registry?.uploads else {
            throw UploadError(.busy, file: file.name, "the server is shutting down")
        }
        let ticket = try uploads.begin(session: id, file: file, limits: limits) { [weak self] id, event in
            self?.execute { [weak self] in
                self?.uploadDeliveries.deliver(event, of: id, registry: self?.registry?.uploads)
            }
        }
        uploadDeliveries.add(ticket.id, deliver)
        return ticket
    }

    func resume(_ upload: String) throws(UploadError) -> UploadTicket {
        guard let uploads = registry?.uploads else {
            throw UploadError(.busy, file: nil, "the server is shutting down")
        }
        return try uploads.resume(session: id, id: upload)
    }

    func cancel(_ upload: String, with error: UploadError) {
        guard let uploads = registry?.uploads, let name = uploads.cancel(session: id, id: upload) else { return }
        uploadDeliveries.deliver(
            .failed(UploadError(error.kind, file: name, error.message)), of: upload, registry: uploads)
    }
}
