import Footlight
import Foundation

/// Development mode's check at start (``ServerConfiguration/development``): the app's
/// bindings against its pages' templates.
extension Server {
    /// The most pages the check reads, and the largest it reads.
    static let maximumCheckedPages = 64
    static let maximumCheckedPageBytes = 4 << 20

    /// In development mode (in a debug build), checks the stages `app` shows at
    /// ``ServerConfiguration/bindingCheckPaths`` against the templates of the `.html`
    /// pages in `root`, and logs each mismatch at warning level; in a release build,
    /// logs that development mode is ignored. Does nothing otherwise, nor with no path
    /// to check.
    static func checkBindingsInDevelopment(configuration: ServerConfiguration, root: String, app: @escaping AppEntry) {
        guard configuration.development else { return }
        let logger = configuration.logger
        guard ServerConfiguration.developmentAvailable else {
            logger.warning("development mode is ignored: this is a release build")
            return
        }
        guard !configuration.bindingCheckPaths.isEmpty else { return }
        let stages = BindingProbe.stages(of: app, paths: configuration.bindingCheckPaths)
        var pages: [PageTemplates] = []
        for file in htmlFiles(in: root) {
            do {
                pages.append(try PageTemplates(contentsOf: file))
            } catch {
                logger.warning("bindings not checked against \(file): \(error)")
            }
        }
        // Each stage against the first page that has its template (a stage no page has
        // is checked against the first, which reports it missing).
        var byPage: [Int: [StageBindings]] = [:]
        for stage in stages {
            let page = pages.firstIndex { $0[stage.template] != nil } ?? 0
            byPage[page, default: []].append(stage)
        }
        var count = 0
        for (index, stages) in byPage.sorted(by: { $0.key < $1.key }) where index < pages.count {
            let report = BindingCheck.check(stages, against: pages[index])
            for mismatch in report.mismatches {
                logger.warning("bindings: \(pages[index].file ?? "page"): \(mismatch)")
            }
            count += report.mismatches.count
        }
        logger.info(
            "bindings checked: \(stages.count) stage(s) shown at \(configuration.bindingCheckPaths.joined(separator: ", ")) against \(pages.count) page(s), \(count) mismatch(es)"
        )
    }

    /// The `.html` files under `root`, sorted, at most ``maximumCheckedPages``, none larger
    /// than ``maximumCheckedPageBytes``.
    private static func htmlFiles(in root: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String, files.count < maximumCheckedPages {
            guard relative.hasSuffix(".html") else { continue }
            let path = root + "/" + relative
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
            if let size, size <= maximumCheckedPageBytes { files.append(path) }
        }
        return files.sorted()
    }
}
