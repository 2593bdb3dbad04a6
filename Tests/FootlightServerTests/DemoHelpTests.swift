import Foundation
import Testing

/// `footlight-demo --help` shows what the README uses: `--app` and the apps it takes.
@Suite(.timeLimit(.minutes(1)))
struct DemoHelpTests {
    @Test("footlight-demo --help lists --app and every app it serves, and exits 0")
    func helpListsApps() throws {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("footlight-demo")
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--help"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let help = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let app = help.split(separator: "\n").drop { !$0.contains("--app <app>") }.prefix(3).joined(separator: " ")
        #expect(!app.isEmpty, "no --app in: \(help)")
        for name in ["auction", "examples", "counter", "previews", "todomvc"] {
            #expect(app.contains(name), "--app's help does not name \(name): \(app)")
        }
    }
}
