import FootlightJSON

/// Uploads: a file input bound to a Director input (see "Uploads" in the Bindings
/// article).
extension Stage {
    /// Binds the file input that names `event` to an upload
    /// (`<input type="file" data-hook="upload" data-upload="avatar">`, in a page that loads
    /// the runtime's `upload.js`): each file the visitor chooses is checked against `limits`
    /// on the server, sent, and reported to `input` (started, progress, finished with the
    /// file, or failed).
    ///
    /// ```swift
    /// stage.upload("avatar", limits: UploadLimits(maximumBytes: 2 << 20, types: ["image/*"]), send: avatar)
    /// ```
    ///
    /// The page sends the bytes over HTTP to a single-use address the server gives for
    /// each file, and asks for a new one to go on from where it stopped when a
    /// connection is cut. A refusal reaches `input` as ``UploadEvent/failed(_:)``; the
    /// session goes on.
    public func upload<Input: Subject>(_ event: String, limits: UploadLimits = UploadLimits(), send input: Input)
    where Input.Output == UploadEvent {
        eventOptions[event] = .immediate
        handlers[event] = { [weak self, weak input, name] value in
            guard let self, let input else { return nil }
            guard let request = UploadRequest(eventJSON: value ?? .null) else {
                return .badValue(
                    event, stage: name,
                    EventValueError(
                        expected:
                            "a list of files ({\"name\", \"size\", \"type\"}), {\"resume\": id, \"n\": index} or {\"cancel\": id}",
                        received: value ?? .null))
            }
            guard let broker = host?.uploadBroker else {
                input.send(.failed(UploadError(.storage, file: nil, "this session takes no uploads")))
                return nil
            }
            let deliver: (UploadEvent) -> Void = { [weak input] in input?.send($0) }
            var commands: [ClientCommand] = []
            switch request {
            case .files(let files) where files.count > limits.maximumFiles:
                input.send(
                    .failed(
                        UploadError(
                            .tooManyFiles, file: nil,
                            "\(files.count) files chosen for \"\(event)\"; it takes \(limits.maximumFiles) at most")))
            case .files(let files):
                for (index, file) in files.enumerated() {
                    do throws(UploadError) {
                        let ticket = try broker.begin(file, limits: limits, deliver: deliver)
                        input.send(
                            .started(UploadProgress(id: ticket.id, name: file.name, received: 0, total: file.size)))
                        commands.append(.sendFile(index, of: event, ticket: ticket))
                    } catch {
                        input.send(.failed(error))
                    }
                }
            case .resume(let id, let index):
                do throws(UploadError) {
                    commands.append(.sendFile(index, of: event, ticket: try broker.resume(id)))
                } catch {
                    input.send(.failed(error))
                }
            case .cancel(let id, lost: false):
                broker.cancel(id, with: UploadError(.cancelled, file: nil, "the upload was cancelled in the page"))
            case .cancel(let id, lost: true):
                broker.cancel(
                    id, with: UploadError(.abandoned, file: nil, "the page could not send the file and gave it up"))
            }
            if !commands.isEmpty { host?.stageRuns(commands) }
            return nil
        }
    }
}

/// What a file input's change sends: the files chosen, a request to go on with an
/// upload a cut stopped, or to end one (`{"cancel": id}`; with `"lost": true` when the
/// page gave up sending it).
enum UploadRequest {
    case files([UploadDescription])
    case resume(id: String, index: Int)
    case cancel(id: String, lost: Bool)

    init?(eventJSON json: JSON) {
        if let id = json["cancel"]?.stringValue {
            self = .cancel(id: id, lost: json["lost"] == .bool(true))
            return
        }
        if let id = json["resume"]?.stringValue {
            guard let index = json["n"].flatMap({ try? Int(eventJSON: $0) }), index >= 0 else { return nil }
            self = .resume(id: id, index: index)
            return
        }
        guard let items = json.arrayValue else { return nil }
        var files: [UploadDescription] = []
        for item in items {
            guard let name = item["name"]?.stringValue, let size = item["size"].flatMap({ try? Int(eventJSON: $0) }),
                let type = item["type"]?.stringValue
            else { return nil }
            files.append(UploadDescription(name: name, size: size, type: type))
        }
        self = .files(files)
    }
}

extension ClientCommand {
    /// The name of the page's upload hook (the runtime's `upload.js`, in `FootlightServer`).
    public static let uploadHook = "upload"

    /// Tells the upload hook of the input bound to `event` to send file `index` as
    /// `ticket` says: `{"at": event, "n": index, "id": …, "url": …, "from": offset}`.
    static func sendFile(_ index: Int, of event: String, ticket: UploadTicket) -> ClientCommand {
        .push(
            [
                "at": .string(event), "n": .int(Int64(index)), "id": .string(ticket.id), "url": .string(ticket.url),
                "from": .int(Int64(ticket.offset)),
            ], toHook: uploadHook)
    }
}
