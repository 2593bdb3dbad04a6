import Footlight
import FootlightJSON

/// Checks what stages bind in Swift against their templates in the page, both ways:
/// every slot, event, component host and hook a stage binds must be named by its
/// template, and every name a template uses must be bound by some stage of that
/// template. Each disagreement is a ``BindingMismatch`` with both spellings where a
/// near one exists.
///
/// ```swift
/// let page = try PageTemplates(contentsOf: "Public/index.html")
/// let report = BindingCheck.check([CounterScene.makeStage().bindings], against: page)
/// for mismatch in report.mismatches { print(mismatch) }
/// ```
///
/// The stages of one template are taken together (a name is bound when any of them
/// binds it), components included. A list row's members are checked against the rows
/// the stages' documents hold when described (a list with no rows yet is not checked),
/// and a dotted path's members against the slot's value, where it is a record. Names
/// the runtime gives itself (events starting with `@`, such as `@back` and
/// `@address`) are no mismatch; nor are those in `ignoring` (events a page's own
/// JavaScript hook sends, say).
public enum BindingCheck {
    /// Compares `stages` (and their components) with the templates of `page`.
    public static func check(
        _ stages: [StageBindings], against page: PageTemplates, ignoring: Set<String> = []
    ) -> BindingReport {
        var byTemplate: [String: BoundNames] = [:]
        var order: [String] = []
        func gather(_ stage: StageBindings) {
            if byTemplate[stage.template] == nil { order.append(stage.template) }
            byTemplate[stage.template, default: BoundNames()].add(stage)
            stage.components.forEach(gather)
        }
        stages.forEach(gather)
        var mismatches: [BindingMismatch] = []
        var included: Set<String> = []
        let templateNames = page.templates.map(\.name)
        for template in order {
            let bound = byTemplate[template]!
            guard let pageTemplate = page[template] else {
                mismatches.append(
                    BindingMismatch(
                        .missingTemplate, template: template, name: template,
                        suggestion: nearest(to: template, among: templateNames)))
                continue
            }
            var includeProblems: [BindingMismatch] = []
            let uses = expanded(pageTemplate, in: page, problems: &includeProblems, included: &included)
            mismatches += includeProblems
            mismatches += Comparison(template: template, uses: uses, bound: bound, ignoring: ignoring).mismatches
        }
        let checked = order.filter { page[$0] != nil }
        let covered = Set(checked).union(included)
        return BindingReport(
            mismatches: mismatches, checked: checked + included.subtracting(checked).sorted(),
            unchecked: templateNames.filter { !covered.contains($0) })
    }

    /// The uses of `template` with the templates it includes (at the stage's document
    /// level, as the runtime includes them), to 8 includes deep.
    static func expanded(
        _ template: PageTemplate, in page: PageTemplates, problems: inout [BindingMismatch], included: inout Set<String>
    ) -> [BindingUse] {
        var result: [BindingUse] = []
        var names: Set<String> = []
        func add(_ uses: [BindingUse], depth: Int) {
            for use in uses {
                guard use.kind == .include, use.lists.isEmpty else {
                    result.append(use)
                    continue
                }
                guard depth < 8, let included = page[use.name] else {
                    problems.append(
                        BindingMismatch(
                            .missingInclude, template: template.name, name: use.name, attribute: use.spelling,
                            line: use.line,
                            suggestion: depth < 8 ? nearest(to: use.name, among: page.templates.map(\.name)) : nil,
                            detail: depth < 8 ? nil : "more than 8 includes deep"))
                    continue
                }
                names.insert(use.name)
                add(included.uses, depth: depth + 1)
            }
        }
        add(template.uses, depth: 0)
        included.formUnion(names)
        return result
    }
}

/// What the stages of one template bind, taken together.
struct BoundNames {
    var slots: Set<String> = []
    var events: Set<String> = []
    var componentHosts: Set<String> = []
    var hooks: Set<String> = []
    var documents: [JSON] = []

    mutating func add(_ stage: StageBindings) {
        slots.formUnion(stage.slots)
        events.formUnion(stage.events)
        componentHosts.formUnion(stage.componentHosts)
        hooks.formUnion(stage.hooks)
        documents.append(stage.document)
    }
}

/// What a bindings check found.
public struct BindingReport: Sendable, Equatable, CustomStringConvertible {
    /// Every disagreement, template by template.
    public let mismatches: [BindingMismatch]
    /// The templates checked: those of the stages given that the page has, then those
    /// they include.
    public let checked: [String]
    /// The page's templates no stage given showed, so not checked (another app's on a
    /// shared page, or a scene the check was not shown).
    public let unchecked: [String]

    /// Whether the page and the stages agree.
    public var isClean: Bool { mismatches.isEmpty }

    /// One mismatch a line, then what was checked.
    public var description: String {
        var lines = mismatches.map(\.description)
        lines.append(
            "\(mismatches.count) mismatch\(mismatches.count == 1 ? "" : "es") in \(checked.count) template(s) checked"
                + (unchecked.isEmpty ? "" : "; not checked (no stage shown): \(unchecked.joined(separator: ", "))"))
        return lines.joined(separator: "\n")
    }
}
