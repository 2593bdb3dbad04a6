import Footlight
import FootlightJSON

/// The page's part of a flush: what changed, as server messages numbered by the
/// session's protocol.
extension Page {
    /// Full mounts of every stage, which become what the client was last sent. Opens and
    /// client commands still waiting follow them (the commands of the stages the app
    /// showed as it started: a lot's title and focus).
    package mutating func snapshot(numbering conversation: inout SessionProtocol) -> [ServerMessage] {
        commands.removeAll {
            switch $0 {
            case .open, .run: false
            case .mount, .unmount: true
            }
        }
        return stages.indices.map { mountMessage($0, numbering: &conversation) }
    }

    /// The titles stages set, for a page that got their mounts again.
    package func titlesAgain(numbering conversation: inout SessionProtocol) -> [ServerMessage] {
        stages.entries.compactMap { entry in
            entry.extra.title.map { .run(seq: conversation.takeSeq(), stage: entry.id, commands: [.setTitle($0)]) }
        }
    }

    /// Commands, patches of changed stages, then the stages' client commands (after the
    /// patches, so that they find the elements those make: a hook in a new row, a field
    /// just shown). A new component's mount goes in page order with the patches, after
    /// its parent's: the page finds the element that holds it (a new row's) in the
    /// document as patched.
    package mutating func pendingMessages(numbering conversation: inout SessionProtocol) -> [ServerMessage] {
        var messages: [ServerMessage] = []
        var runs: [(id: String, commands: [ClientCommand])] = []
        var componentMounts: Set<String> = []
        for command in commands {
            switch command {
            case .mount(let id):
                guard let index = stages.index(of: id) else { continue }
                if stages[index].isComponent {
                    componentMounts.insert(id)
                } else {
                    messages.append(mountMessage(index, numbering: &conversation))
                }
            case .unmount(let id):
                messages.append(.unmount(seq: conversation.takeSeq(), stage: id))
            case .open(let url):
                messages.append(.open(seq: conversation.takeSeq(), url: url))
            case .run(let id, let commands):
                runs.append((id, commands))
            }
        }
        commands.removeAll()
        for index in stages.indices {
            if !componentMounts.isEmpty, componentMounts.contains(stages[index].id) {
                messages.append(mountMessage(index, numbering: &conversation))
                continue
            }
            guard stages[index].extra.dirty else { continue }
            let stage = stages[index].stage
            var patch = JSONPatch.diff(from: stages[index].extra.document, to: stage.valueDocument)
            // Keyed collections are not in the diff: their changes come as operations.
            // (Appended only when there are some: appending copies a diff's operations
            // that other sessions share, ``SharedDiffs``.)
            let rowOperations = stage.takeRowOperations()
            if !rowOperations.isEmpty { patch.operations += rowOperations }
            stages[index].extra.document = stage.valueDocument
            stages[index].extra.dirty = false
            if !patch.isEmpty {
                messages.append(.patch(seq: conversation.takeSeq(), stage: stages[index].id, patch: patch, ack: nil))
            }
            // The address after the document: the page shows both in one frame.
            if let address = stage.address, address.url != stages[index].url, !stages[index].isComponent {
                stages[index].url = address.url
                messages.append(
                    .address(
                        seq: conversation.takeSeq(), stage: stages[index].id, url: address.url,
                        replace: address.replaces))
            }
        }
        for (id, commands) in runs {
            // A stage removed in the same turn takes its commands with it.
            guard let index = stages.index(of: id) else { continue }
            messages.append(.run(seq: conversation.takeSeq(), stage: id, commands: commands))
            for case .setTitle(let title) in commands { stages[index].extra.title = title }
        }
        return messages
    }

    private mutating func mountMessage(_ index: Int, numbering conversation: inout SessionProtocol) -> ServerMessage {
        let stage = stages[index].stage
        let document = stage.document
        stage.discardRowOperations()
        if let address = stage.address, !stages[index].isComponent { stages[index].url = address.url }
        stages[index].extra.document = stage.valueDocument
        stages[index].extra.dirty = false
        let entry = stages[index]
        return .mount(
            ServerMessage.Mount(
                seq: conversation.takeSeq(), stage: entry.id, template: entry.stage.name, document: document,
                placement: entry.placement, url: entry.url, events: entry.stage.eventOptionsJSON,
                component: entry.component))
    }
}
