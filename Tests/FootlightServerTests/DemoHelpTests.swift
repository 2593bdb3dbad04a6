import FootlightServer
import Foundation
import Testing

/// `footlight-demo --help` shows what the README uses: `--app` and the apps it takes.
@Suite(.timeLimit(.minutes(1)))
struct DemoHelpTests {
    /// What `footlight-demo --help` prints, built beside these tests (so in the same configuration).
    static func help() throws -> String {
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
        return help
    }

    @Test("footlight-demo --help lists --app and every app it serves, and exits 0")
    func helpListsApps() throws {
        let help = try Self.help()
        let app = help.split(separator: "\n").drop { !$0.contains("--app <app>") }.prefix(3).joined(separator: " ")
        #expect(!app.isEmpty, "no --app in: \(help)")
        for name in ["auction", "examples", "counter", "previews", "todomvc"] {
            #expect(app.contains(name), "--app's help does not name \(name): \(app)")
        }
    }

    @Test("footlight-demo --help offers --development and says whether this build has it")
    func helpSaysDevelopment() throws {
        let help = try Self.help().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("--development"))
        let says = ServerConfiguration.developmentAvailable ? "Debug builds only." : "not in this build"
        #expect(help.contains(says), "\(says) not in: \(help)")
    }
}
