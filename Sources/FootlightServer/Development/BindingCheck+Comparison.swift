import FootlightJSON

/// The comparison of one template's names with what its stages bind, both ways.
struct Comparison {
    let template: String
    let uses: [BindingUse]
    let bound: BoundNames
    let ignoring: Set<String>

    var mismatches: [BindingMismatch] {
        pageSide + swiftSide
    }

    /// The names the template uses that no stage binds.
    private var pageSide: [BindingMismatch] {
        var found: [BindingMismatch] = []
        for use in uses {
            func mismatch(_ kind: BindingMismatch.Kind, among candidates: some Sequence<String>, detail: String? = nil)
                -> BindingMismatch
            {
                BindingMismatch(
                    kind, template: template, name: use.name, attribute: use.spelling, line: use.line,
                    suggestion: nearest(to: use.name, among: candidates), detail: detail)
            }
            switch use.kind {
            case .malformed:
                found.append(
                    BindingMismatch(
                        .malformed, template: template, name: use.text, attribute: use.spelling, line: use.line,
                        detail: use.name))
            case .event:
                guard !isBuiltIn(use.name), !bound.events.contains(use.name) else { continue }
                found.append(mismatch(.unknownEvent, among: bound.events))
            case .component:
                guard !bound.componentHosts.contains(use.name) else { continue }
                found.append(mismatch(.unusedComponent, among: bound.componentHosts))
            case .slot:
                if let problem = slotProblem(use) { found.append(problem) }
            case .hook, .include:
                continue
            }
        }
        return found
    }

    /// Why the slot (or row member) `use` names is not bound, if it is not.
    private func slotProblem(_ use: BindingUse) -> BindingMismatch? {
        let path = use.path
        guard !ignoring.contains(use.name), !ignoring.contains(path[0]) else { return nil }
        var scopes: [JSON]
        if use.lists.isEmpty {
            guard bound.slots.contains(path[0]) else {
                return BindingMismatch(
                    .unboundSlot, template: template, name: use.name, attribute: use.spelling, line: use.line,
                    suggestion: nearest(to: path[0], among: bound.slots))
            }
            scopes = bound.documents
        } else {
            scopes = rows(of: use.lists)
        }
        // Each value read so far, from every scope that has it; a name is there when any
        // has it. Nothing to read (no value yet, a list with no rows): nothing to check.
        for (depth, member) in path.enumerated() {
            let records = scopes.compactMap { $0.objectValue }
            guard !records.isEmpty, scopes.allSatisfy({ $0.objectValue != nil || $0 == .null }) else { return nil }
            let values = records.compactMap { $0[member] }
            guard values.isEmpty else {
                scopes = values
                continue
            }
            let members = Set(records.flatMap(\.keys))
            let read = path[..<depth].joined(separator: ".")
            return BindingMismatch(
                .unknownMember, template: template, name: use.name, attribute: use.spelling, line: use.line,
                suggestion: nearest(to: member, among: members).map { (path[..<depth] + [$0]).joined(separator: ".") },
                detail: read.isEmpty
                    ? "no row of list \"\(use.lists.joined(separator: "/"))\" has \"\(member)\""
                    : "\"\(read)\" has no \"\(member)\"")
        }
        return nil
    }

    /// The rows of the nested lists `lists` (outermost first), from every document.
    private func rows(of lists: [String]) -> [JSON] {
        var scopes = bound.documents
        for list in lists {
            scopes = scopes.flatMap { scope -> [JSON] in
                var value: JSON? = scope
                for member in list.split(separator: ".") { value = value?.objectValue?[String(member)] }
                return value?.arrayValue ?? []
            }
        }
        return scopes
    }

    /// The names the stages bind that the template never uses.
    private var swiftSide: [BindingMismatch] {
        var found: [BindingMismatch] = []
        let slotUses = uses.filter { $0.kind == .slot && $0.lists.isEmpty }
        let usedSlots = Set(slotUses.map { $0.path[0] })
        for slot in bound.slots.sorted() where !usedSlots.contains(slot) && !ignoring.contains(slot) {
            found.append(swiftMismatch(.unusedSlot, slot, among: slotUses, name: { $0.path[0] }))
        }
        let eventUses = uses.filter { $0.kind == .event }
        let usedEvents = Set(eventUses.map(\.name))
        for event in bound.events.sorted()
        where !usedEvents.contains(event) && !isBuiltIn(event) && !ignoring.contains(event) {
            found.append(swiftMismatch(.unusedEvent, event, among: eventUses, name: \.name))
        }
        let hostUses = uses.filter { $0.kind == .component }
        for host in bound.componentHosts.sorted() where !hostUses.contains(where: { $0.name == host }) {
            found.append(swiftMismatch(.unknownComponent, host, among: hostUses, name: \.name))
        }
        let hookUses = uses.filter { $0.kind == .hook }
        for hook in bound.hooks.sorted() where !hookUses.contains(where: { $0.name == hook }) {
            found.append(swiftMismatch(.unknownHook, hook, among: hookUses, name: \.name))
        }
        return found
    }

    /// A name of Swift's the template lacks, with the nearest of the template's `uses`.
    private func swiftMismatch(
        _ kind: BindingMismatch.Kind, _ name: String, among uses: [BindingUse], name spelled: (BindingUse) -> String
    ) -> BindingMismatch {
        let suggestion = nearest(to: name, among: uses.map(spelled))
        let use = suggestion.flatMap { suggestion in uses.first { spelled($0) == suggestion } }
        return BindingMismatch(
            kind, template: template, name: name, suggestion: suggestion,
            detail: use.map { "the template has \($0.spelling) at line \($0.line)" })
    }

    /// Whether the runtime sends `event` itself (`@back`, `@address`), or the app said so.
    private func isBuiltIn(_ event: String) -> Bool {
        event.hasPrefix("@") || ignoring.contains(event)
    }
}
