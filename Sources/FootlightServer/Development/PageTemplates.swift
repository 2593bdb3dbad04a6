import Foundation

/// The stage templates of a page (`<template data-stage="name">`) and the names their
/// binding attributes use, read from its HTML with no browser: one side of a bindings
/// check (``BindingCheck``).
///
/// ```swift
/// let page = try PageTemplates(contentsOf: "Public/index.html")
/// page["counter"]?.uses.map(\.name)   // ["count", "increment"]
/// ```
///
/// A list's row template (the `<template>` inside a `data-list` element) is read with
/// its list: its names are the rows' members (``BindingUse/lists``). A `<template>` in
/// a template that is no list's is inert, as in the page, and not read.
public struct PageTemplates: Sendable {
    /// The stage templates, in page order.
    public let templates: [PageTemplate]
    /// The page's file, when read from one.
    public let file: String?

    /// The template named `name`, if the page has one (the first, if it has several).
    public subscript(name: String) -> PageTemplate? {
        templates.first { $0.name == name }
    }

    /// Reads the templates of the page `html`; `file` names it in errors and reports.
    public init(html: String, file: String? = nil) throws(PageError) {
        self.file = file
        do {
            templates = try Self.read(HTMLTokenizer.tags(of: html))
        } catch var error {
            error.file = file
            throw error
        }
    }

    /// Reads the templates of the page in the file at `path`.
    public init(contentsOf path: String) throws(PageError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            var error = PageError(.unreadable, line: 0, "the page cannot be read")
            error.file = path
            throw error
        }
        guard let html = String(validating: data, as: UTF8.self) else {
            var error = PageError(.unreadable, line: 0, "the page is not UTF-8")
            error.file = path
            throw error
        }
        try self.init(html: html, file: path)
    }

    /// An element open in a template, as far as the reading needs it.
    private struct Open {
        let name: String
        /// The list path of its `data-list`, if it has one.
        let list: String?
        /// For a `<template>`: the stage template it starts (its index), or, for a row
        /// template, the list it is the rows of; nil for an inert one.
        let template: TemplateRole?
    }

    private enum TemplateRole {
        case stage(Int)
        case rows(String)
        case inert
    }

    private static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
    ]

    private static func read(_ tags: [HTMLTokenizer.Tag]) throws(PageError) -> [PageTemplate] {
        var templates: [(name: String, line: Int, uses: [BindingUse])] = []
        var open: [Open] = []
        for tag in tags {
            if tag.isEnd {
                guard let index = open.lastIndex(where: { $0.name == tag.name }) else {
                    if tag.name == "template" {
                        throw PageError(.unbalanced, line: tag.line, "</template> closes no <template>")
                    }
                    continue  // a stray end tag, as a browser ignores it
                }
                // A template closes what is open in it (a <p> or <li> left to be implied).
                open.removeSubrange(index...)
                continue
            }
            // Where the tag sits: the innermost template, and the lists of rows around it.
            var stage: Int?
            var lists: [String] = []
            var inert = false
            for element in open {
                switch element.template {
                case .stage(let index):
                    stage = index
                    lists = []
                    inert = false
                case .rows(let list): lists.append(list)
                case .inert: inert = true
                case nil: break
                }
            }
            var role: TemplateRole?
            if tag.name == "template" {
                if let name = tag.attribute("data-stage") {
                    templates.append((name, tag.line, []))
                    role = .stage(templates.count - 1)
                } else if let list = open.last?.list, stage != nil, !inert {
                    role = .rows(list)
                } else {
                    role = .inert
                }
            }
            var list: String?
            if let stage, !inert, role == nil || tag.attribute("data-stage") == nil {
                let uses = Self.uses(of: tag, lists: lists)
                templates[stage].uses += uses
                list = uses.first { $0.attribute == "data-list" && $0.kind == .slot }?.name
            }
            if tag.selfClosing && tag.name != "template" || voidElements.contains(tag.name) { continue }
            open.append(Open(name: tag.name, list: list, template: role))
        }
        if let unclosed = open.last(where: { $0.template != nil }) {
            throw PageError(.unbalanced, line: 0, "a <template> is not closed (\(unclosed.name))")
        }
        return templates.map { PageTemplate(name: $0.name, line: $0.line, uses: $0.uses) }
    }

    /// The names the attributes of `tag` use, in the rows of `lists`.
    private static func uses(of tag: HTMLTokenizer.Tag, lists: [String]) -> [BindingUse] {
        var uses: [BindingUse] = []
        func add(_ kind: BindingUse.Kind, _ attribute: String, _ text: String, _ name: String, inRow: Bool = true) {
            uses.append(
                BindingUse(
                    kind: kind, attribute: attribute, text: text, name: name, lists: inRow ? lists : [], line: tag.line)
            )
        }
        for (attribute, text) in tag.attributes where attribute.hasPrefix("data-") {
            switch attribute {
            case "data-text", "data-show", "data-hide", "data-value", "data-list":
                switch BindingSyntax.slot(text, allowsOperators: attribute != "data-value" && attribute != "data-list")
                {
                case .success(let path): add(.slot, attribute, text, path)
                case .failure(let error): add(.malformed, attribute, text, error.message)
                }
            case "data-attr", "data-class":
                switch BindingSyntax.pairs(text) {
                case .success(let pairs): for pair in pairs { add(.slot, attribute, text, pair.slot) }
                case .failure(let error): add(.malformed, attribute, text, error.message)
                }
            case "data-hook":
                let parts = text.split(separator: ":", omittingEmptySubsequences: false)
                add(.hook, attribute, text, String(parts[0]))
                // A hook's slot is read from the stage's document, inside a list row too.
                if parts.count > 1, !parts[1].isEmpty { add(.slot, attribute, text, String(parts[1]), inRow: false) }
            case "data-upload", "data-upload-cancel": add(.event, attribute, text, text)
            case "data-sends":  // the events this element's hook sends (for the check; the runtime ignores it)
                for event in text.split(whereSeparator: \.isWhitespace) { add(.event, attribute, text, String(event)) }
            case "data-component": add(.component, attribute, text, text)
            case "data-include": add(.include, attribute, text, text)
            case _ where attribute.hasPrefix("data-on-"):
                let type = String(attribute.dropFirst("data-on-".count))
                if BindingSyntax.events.contains(type) {
                    add(.event, attribute, text, text)
                } else {
                    add(
                        .malformed, attribute, text,
                        "the runtime binds no event \"\(type)\" (it binds \(BindingSyntax.events.joined(separator: ", ")))"
                    )
                }
            default: break  // the page's own data attributes
            }
        }
        return uses
    }
}

/// One stage template of a page and the names it uses.
public struct PageTemplate: Sendable, Equatable {
    /// Its `data-stage` name.
    public let name: String
    /// The 1-based line of its `<template>`.
    public let line: Int
    /// The names its attributes use, in page order (its list rows' included), not
    /// counting the templates it includes.
    public let uses: [BindingUse]
}
