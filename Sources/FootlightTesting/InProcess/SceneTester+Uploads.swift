import Footlight
import FootlightJSON
import FootlightServer
import Logging
import Testing

extension SceneTester {
    // MARK: Uploads

    /// Chooses a file for the file input bound to upload `event` (``Stage/upload(_:limits:send:)``)
    /// in `stageID` and sends it as the page's upload hook does, through the server's own
    /// upload code with no socket: the event describing the file (`name`, `type`, the
    /// size of `bytes`); then, when the session answers with an address, the bytes,
    /// `chunk` at a time, letting the session's work run after each (progress events);
    /// then the file's end, checked as the server checks it (the declared type against
    /// the bytes). The address (the session's message to the page's upload hook) is taken
    /// here and needs no assertion.
    ///
    /// Returns the HTTP status the bytes got (204: the file was taken), or nil when the
    /// session gave no address (a refusal, which its binding got as
    /// ``UploadEvent/failed(_:)``).
    @discardableResult
    public func upload(
        _ event: String, to stageID: String, name: String, type: String, bytes: [UInt8], chunk: Int = 65_536,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Int? {
        let file: JSON = ["name": .string(name), "size": .int(Int64(bytes.count)), "type": .string(type)]
        guard send(event, to: stageID, value: [file], sourceLocation: sourceLocation) == nil,
            let (url, offset) = run({ takeUploadAddress(for: event) }), offset <= bytes.count,
            let registry = run({ uploadRegistry })
        else { return nil }
        let status = registry.put(url, body: Array(bytes[offset...]), chunk: chunk) {
            settle(sourceLocation: sourceLocation)
        }
        settle(sourceLocation: sourceLocation)
        return status
    }

    /// The address and offset of the newest upload-hook message for the input bound to
    /// `event`, taken out of the unasserted commands (the page's hook acts on it).
    private func takeUploadAddress(for event: String) -> (url: String, offset: Int)? {
        for (index, command) in commands.enumerated().reversed() {
            guard case .run(let template, var clientCommands) = command else { continue }
            for (position, clientCommand) in clientCommands.enumerated().reversed() {
                guard case .push(let message, ClientCommand.uploadHook) = clientCommand,
                    message["at"]?.stringValue == event, let url = message["url"]?.stringValue,
                    case .int(let offset)? = message["from"]
                else { continue }
                clientCommands.remove(at: position)
                if clientCommands.isEmpty {
                    commands.remove(at: index)
                } else {
                    commands[index] = .run(template: template, clientCommands)
                }
                return (url, Int(offset))
            }
        }
        return nil
    }
}

extension SceneTester: UploadBroker {
    package var uploadBroker: (any UploadBroker)? { self }

    package func begin(_ file: UploadDescription, limits: UploadLimits, deliver: @escaping (UploadEvent) -> Void)
        throws(UploadError) -> UploadTicket
    {
        if uploadRegistry == nil {
            do {
                uploadRegistry = try UploadRegistry(
                    configuration: UploadConfiguration(), key: nil, logger: Logger(label: "footlight.scene-tester"))
            } catch {
                throw UploadError(.storage, file: file.name, "no folder for uploads: \(error)")
            }
        }
        let ticket = try uploadRegistry!.begin(session: Self.session, file: file, limits: limits) {
            [weak self] id, event in
            self?.executor.execute { [weak self] in
                self?.uploadDeliveries.deliver(event, of: id, registry: self?.uploadRegistry)
            }
        }
        uploadDeliveries.add(ticket.id, deliver)
        return ticket
    }

    package func resume(_ id: String) throws(UploadError) -> UploadTicket {
        guard let uploadRegistry else { throw UploadError(.abandoned, file: nil, "no upload \(id) was started") }
        return try uploadRegistry.resume(session: Self.session, id: id)
    }

    package func cancel(_ id: String, with error: UploadError) {
        guard let uploadRegistry, let name = uploadRegistry.cancel(session: Self.session, id: id) else { return }
        uploadDeliveries.deliver(
            .failed(UploadError(error.kind, file: name, error.message)), of: id, registry: uploadRegistry)
    }
}
