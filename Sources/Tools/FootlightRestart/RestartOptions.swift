import Foundation

/// The command line of FootlightRestart.
struct RestartOptions {
    /// Sessions open when the server is killed (and fresh joins afterwards).
    var sessions = 2_000
    /// Runs, each with a server and data directory of its own.
    var runs = 3
    /// The release `footlight-demo`; nil: the one beside this program.
    var server: String?
    /// The folder the demo serves the page from.
    var publicDirectory = "Public"

    static let usage = "usage: FootlightRestart [--sessions N] [--runs R] [--server PATH] [--public-directory PATH]"

    /// Reads `arguments` (without the program's name).
    init(_ arguments: [String]) throws(RestartError) {
        var arguments = arguments[...]
        while let argument = arguments.popFirst() {
            if argument == "-h" || argument == "--help" {
                print(Self.usage)
                exit(0)
            }
            guard let value = arguments.popFirst() else { throw RestartError("\(argument) needs a value") }
            switch argument {
            case "--sessions": sessions = try Self.count(value, for: argument)
            case "--runs": runs = try Self.count(value, for: argument)
            case "--server": server = value
            case "--public-directory": publicDirectory = value
            default: throw RestartError("unknown argument \"\(argument)\"")
            }
        }
    }

    private static func count(_ text: String, for name: String) throws(RestartError) -> Int {
        guard let value = Int(text), value > 0 else {
            throw RestartError("\(name) needs a positive count, not \(text)")
        }
        return value
    }

    /// The server setup these options name, once its files are found.
    func setup() throws(RestartError) -> DemoServer.Setup {
        let executable =
            server
            ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("footlight-demo").path
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw RestartError(
                "no footlight-demo at \(executable): build it (swift build -c release --product footlight-demo) or pass --server"
            )
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: publicDirectory, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw RestartError(
                "no folder \(publicDirectory): run from the repository root or pass --public-directory")
        }
        // The rebuilt sessions' sockets may still be closing while the fresh ones open,
        // all from 127.0.0.1.
        return DemoServer.Setup(
            executable: executable, publicDirectory: publicDirectory, maximumConnectionsPerClient: 2 * sessions + 100)
    }
}
