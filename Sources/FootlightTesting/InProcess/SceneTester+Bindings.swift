import Footlight
import FootlightServer
import Foundation
import Testing

/// Checking a scene's bindings against its page's templates, in one line of a test
/// (the Bindings article's "Checking bindings").
extension SceneTester {
    /// What the stages shown now bind (their components' within), in page order.
    public var stageBindings: [StageBindings] {
        run { state.page.stages.entries.filter { !$0.isComponent }.map(\.stage.bindings) }
    }

    /// Checks the stages this tester shows now (after the steps that showed them: a
    /// dialog opened, a page pushed) against the templates of `page`, and records each
    /// mismatch as a failure of the test, with both spellings and a "did you mean".
    ///
    /// ```swift
    /// let tester = SceneTester(CounterScene())
    /// tester.checkBindings(page: "Public/index.html")
    /// ```
    ///
    /// - Parameters:
    ///   - page: the page's file; a relative path is found from the package holding the
    ///     test (the first folder above it with a `Package.swift`), else from the
    ///     current directory.
    ///   - ignoring: names that are no mismatch: events the page's own JavaScript hooks
    ///     send, slots only they read.
    /// - Returns: the report, or nil when the page cannot be read (a failure too).
    @discardableResult
    public func checkBindings(
        page: String, ignoring: Set<String> = [], filePath: String = #filePath,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> BindingReport? {
        Self.checkBindings(
            stageBindings, page: page, ignoring: ignoring, filePath: filePath, sourceLocation: sourceLocation)
    }

    /// Checks the stages `scenes` make (each shown alone at the root, its first
    /// documents in: a list's rows give their members, and their components) against
    /// the templates of `page`, and records each mismatch as a failure of the test.
    ///
    /// ```swift
    /// @Test func bindingsMatchThePage() {
    ///     SceneTester.checkBindings(page: "Public/index.html", scenes: [CounterScene(), AboutScene()])
    /// }
    /// ```
    @discardableResult
    public static func checkBindings(
        page: String, scenes: [any Scene], ignoring: Set<String> = [], filePath: String = #filePath,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> BindingReport? {
        let stages = scenes.flatMap { scene in
            // An existential, so no generic metatype is captured; used on the tester's queue.
            nonisolated(unsafe) let scene = scene
            let tester = SceneTester({ context, _ in context.show(AnyScene(scene)) })
            tester.exhaustivity = .off()
            tester.settle(sourceLocation: sourceLocation)
            return tester.stageBindings
        }
        return checkBindings(stages, page: page, ignoring: ignoring, filePath: filePath, sourceLocation: sourceLocation)
    }

    /// Checks the stages the app `entry` shows at each of `paths` (a new session at each
    /// address, as a visitor's first visit or a deep link, its first documents in)
    /// against the templates of `page`, and records each mismatch as a failure.
    ///
    /// ```swift
    /// SceneTester.checkBindings(page: "Public/index.html", app: MyApp.entry, paths: ["/", "/about"])
    /// ```
    @discardableResult
    public static func checkBindings(
        page: String, app entry: @escaping AppEntry, paths: [String] = ["/"], ignoring: Set<String> = [],
        filePath: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation
    ) -> BindingReport? {
        let stages = paths.flatMap { path in
            let tester = SceneTester(entry, path: path)
            tester.exhaustivity = .off()
            tester.settle(sourceLocation: sourceLocation)
            return tester.stageBindings
        }
        return checkBindings(stages, page: page, ignoring: ignoring, filePath: filePath, sourceLocation: sourceLocation)
    }

    /// Checks what `stages` bind against the templates of `page`, recording each
    /// mismatch as a failure of the test; the report lists them all.
    @discardableResult
    public static func checkBindings(
        _ stages: [StageBindings], page: String, ignoring: Set<String> = [], filePath: String = #filePath,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> BindingReport? {
        let templates: PageTemplates
        do {
            templates = try PageTemplates(contentsOf: resolve(page, from: filePath))
        } catch {
            Issue.record("the page's templates cannot be read: \(error)", sourceLocation: sourceLocation)
            return nil
        }
        let report = BindingCheck.check(stages, against: templates, ignoring: ignoring)
        if !report.isClean {
            Issue.record("the bindings do not match \(page):\n\(report)", sourceLocation: sourceLocation)
        }
        return report
    }

    /// `page` as a path: absolute as it is; relative, from the package holding
    /// `filePath` when one is found above it, else from the current directory.
    static func resolve(_ page: String, from filePath: String) -> String {
        guard !page.hasPrefix("/") else { return page }
        var folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return folder.appendingPathComponent(page).path
            }
            folder = folder.deletingLastPathComponent()
        }
        return page
    }
}

/// A scene given as an existential, shown through the context's generic methods.
private struct AnyScene: Scene {
    let scene: any Scene
    init(_ scene: any Scene) { self.scene = scene }
    func makeStage(context: Context) -> Stage { scene.makeStage(context: context) }
}
