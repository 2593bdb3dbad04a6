import FootlightJSON
import Testing

extension SceneTester {
    // MARK: Assertions

    /// Asserts that exactly these slots of `stageID` changed (to these values) since
    /// they were last asserted; other changed slots stay unasserted and fail later. A
    /// mismatch prints a structural diff of the expected against the actual slots.
    ///
    /// With ``exhaustivity`` off, only the values are checked, not that they changed.
    public func expect(_ stageID: String, _ slots: JSONObject, sourceLocation: SourceLocation = #_sourceLocation) {
        let problems: [String] = run {
            guard let document = mirror.documents[stageID] else { return ["no stage \"\(stageID)\" is shown"] }
            let current = document.objectValue ?? [:]
            var known = asserted[stageID]?.objectValue ?? [:]
            var problems: [String] = []
            let actual = JSONObject(uniqueKeysWithValues: slots.keys.map { ($0, current[$0] ?? .null) })
            if let difference = Difference.of(.object(slots), .object(actual)) {
                problems.append(Difference.message("\(stageID): the slots differ", difference))
            }
            for (slot, value) in actual where exhaustivityMode.isOn && known[slot] == value {
                problems.append("\(stageID)/\(slot) did not change (it is \(Self.text(value)))")
            }
            for slot in slots.keys { known[slot] = current[slot] }
            asserted[stageID] = .object(known)
            return problems
        }
        for problem in problems { Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation) }
    }

    /// Asserts the whole document of `stageID`: every slot, changed or not. Whatever
    /// changed is asserted by it; a mismatch prints a structural diff of the documents.
    public func expect(_ stageID: String, document expected: JSON, sourceLocation: SourceLocation = #_sourceLocation) {
        let problem: String? = run {
            guard let document = mirror.documents[stageID] else { return "no stage \"\(stageID)\" is shown" }
            asserted[stageID] = document
            return Difference.of(expected, document).map {
                Difference.message("\(stageID): the document differs", $0)
            }
        }
        if let problem { Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation) }
    }

    /// Asserts the RFC 6902 operations the page received for `stageID` since the last
    /// call (all its patches of those steps, in order). A mismatch prints a structural diff.
    public func expectPatch(_ stageID: String, _ expected: [JSON], sourceLocation: SourceLocation = #_sourceLocation) {
        let actual = run { patches.removeValue(forKey: stageID) ?? [] }
        if let difference = Difference.of(.array(expected), .array(actual)) {
            Issue.record(
                Comment(rawValue: Difference.message("patch of \(stageID) differs", difference)),
                sourceLocation: sourceLocation)
        }
    }

    /// Asserts the context commands issued since the last check, in order. A mismatch
    /// prints a structural diff of the two lists.
    ///
    /// With ``exhaustivity`` off, the commands expected must be among those issued, in
    /// this order; the others are skipped.
    public func expectCommands(_ expected: [Command], sourceLocation: SourceLocation = #_sourceLocation) {
        let (actual, mode) = run {
            defer { commands.removeAll() }
            return (commands, exhaustivityMode)
        }
        guard actual != expected else { return }
        if !mode.isOn, let skipped = Self.skipped(actual, keeping: expected) {
            if !skipped.isEmpty {
                reportSkipped("context commands not asserted:\n\(Difference.dump(skipped))", mode, sourceLocation)
            }
            return
        }
        Issue.record(
            Comment(rawValue: Difference.message("context commands differ", Difference.of(expected, actual))),
            sourceLocation: sourceLocation)
    }

    /// Fails for anything not asserted yet, for timers still scheduled unless
    /// `allowingTimers` (for scenes with a ticker that reschedules itself for as long
    /// as the scene is shown), and for what the page would take as a protocol violation.
    ///
    /// With ``exhaustivity`` off, what was not asserted is skipped, and timers are
    /// allowed unless `allowingTimers` is false.
    public func finish(allowingTimers: Bool? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        checkNothingUnasserted(before: "finishing", sourceLocation)
        let (violations, mode) = run { (mirror.violations, exhaustivityMode) }
        if !(allowingTimers ?? !mode.isOn), clock.pendingCount > 0 {
            Issue.record(
                "\(clock.pendingCount) scheduled action(s) never ran; advance the clock", sourceLocation: sourceLocation
            )
        }
        for violation in violations {
            Issue.record("protocol violation: \(violation)", sourceLocation: sourceLocation)
        }
    }

    /// Fails (or, with ``exhaustivity`` off, skips) the changes and commands not asserted
    /// since the last step, each stage's as a diff of what was last asserted against
    /// what the page holds; then counts them as asserted, so each is reported once.
    func checkNothingUnasserted(before step: String, _ sourceLocation: SourceLocation) {
        let (problems, mode): ([String], Exhaustivity) = run {
            var problems: [String] = []
            if !commands.isEmpty {
                problems.append("unasserted context commands:\n\(Difference.dump(commands))")
            }
            for (id, document) in mirror.documents.sorted(by: { $0.key < $1.key }) {
                let known = asserted[id] ?? [:]
                if let difference = Difference.of(known, document) {
                    problems.append(
                        Difference.message(
                            "unasserted change of \(id)", difference, first: "last asserted", second: "now"))
                }
            }
            commands.removeAll()
            asserted = mirror.documents
            return (problems, exhaustivityMode)
        }
        for problem in problems {
            if mode.isOn {
                Issue.record(Comment(rawValue: "before \(step): \(problem)"), sourceLocation: sourceLocation)
            } else {
                reportSkipped("before \(step): \(problem)", mode, sourceLocation)
            }
        }
    }

    /// `actual` without `expected` as a subsequence of it (what was skipped), or nil when
    /// `expected` is not one.
    static func skipped(_ actual: [Command], keeping expected: [Command]) -> [Command]? {
        var skipped: [Command] = []
        var next = expected.startIndex
        for command in actual {
            if next < expected.endIndex, command == expected[next] {
                next += 1
            } else {
                skipped.append(command)
            }
        }
        return next == expected.endIndex ? skipped : nil
    }

    static func text(_ value: JSON) -> String {
        (try? value.serialized()) ?? "\(value)"
    }
}
