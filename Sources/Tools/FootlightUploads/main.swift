import BenchSupport
import Footlight
import FootlightJSON
import FootlightServer
import FootlightTesting
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// Upload throughput over loopback: a file sent the way a page sends it (the description
// over the WebSocket, the single-use address back, the bytes as an HTTP PUT, the end at the
// Director), against `curl` PUTting the same file to the same server (an address taken
// beforehand, untimed). Both write through the same server code; runs alternate.
//
//   FootlightUploads [--megabytes N] [--runs R]

let arguments = CommandLine.arguments
func option(_ name: String, default value: Int) -> Int {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count,
        let number = Int(arguments[index + 1])
    else { return value }
    return number
}
let megabytes = option("--megabytes", default: 64)
let runs = option("--runs", default: 5)
let size = megabytes << 20

/// "uploads": slot "done" counts the files the Director got whole.
func uploadStage() -> Stage {
    let events = PassthroughSubject<UploadEvent, Never>()
    let stage = Stage(name: "uploads")
    stage.bind(
        events.compactMap { if case .finished = $0 { 1 } else { nil } }.scan(0, +).prepend(0), to: "done")
    stage.upload("file", limits: UploadLimits(maximumBytes: size), send: events)
    return stage
}

/// The push that tells the page where to send file 0, newest first.
func latestAddress(_ client: TestClient) -> String? {
    for case .run(_, let commands) in client.observation.mirror.commands.reversed() {
        for case .push(let message, ClientCommand.uploadHook) in commands.reversed() {
            if let url = message[.url]?.stringValue { return url }
        }
    }
    return nil
}

/// Sends `PUT path` with `body` over a plain socket, as a browser's fetch does; the status.
func put(port: Int, path: String, body: [UInt8]) throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else { throw BenchError("connect failed") }
    let head = Array("PUT \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
    for part in [head, body] {
        var sent = 0
        while sent < part.count {
            let count = part[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw BenchError("the server closed the upload") }
            sent += count
        }
    }
    var reply = [UInt8](repeating: 0, count: 256)
    let count = recv(fd, &reply, reply.count, 0)
    let line = String(decoding: reply.prefix(max(0, count)), as: UTF8.self)
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("footlight-uploads-bench-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
var generator = SystemRandomNumberGenerator()
let body = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
let file = folder.appendingPathComponent("file.bin")
try Data(body).write(to: file)

let server = try TestServer.start(
    configure: { $0.uploads.directory = folder.appendingPathComponent("uploads").path },
    stages: { _ in [uploadStage()] })
defer { server.shutdown() }
let client = try await TestClient.connect(to: server)
let description: JSON = [["name": "file.bin", "size": .int(Int64(size)), "type": "application/octet-stream"]]

/// Describes the file, as a page does, and waits for the address to send it to.
func nextAddress() async throws -> String {
    let before = latestAddress(client)
    _ = try await client.send("file", in: "uploads", value: description)
    for _ in 0..<3_000 {
        if let address = latestAddress(client), address != before { return address }
        try await Task.sleep(for: .milliseconds(1))
    }
    throw BenchError("no upload address came")
}

/// Waits until the Director has had `count` files whole.
func waitDone(_ count: Int) async throws {
    try await client.waitUntil("/done", in: "uploads", equals: .int(Int64(count)), timeout: .seconds(120))
}

var footlight: [Double] = []
var curl: [Double] = []
let clock = ContinuousClock()
for run in 0..<runs {
    // The page's way, timed from the description to the Director's `finished`.
    let start = clock.now
    let address = try await nextAddress()
    let status = try put(port: server.port, path: address, body: body)
    guard status == 204 else { throw BenchError("the upload was answered \(status)") }
    try await waitDone(2 * run + 1)
    footlight.append((clock.now - start) / .seconds(1))

    // curl, to an address taken beforehand.
    let curlAddress = try await nextAddress()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
    // No "Expect: 100-continue": libwebsockets 4.1 does not answer it (curl would wait 1 s).
    process.arguments = [
        "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-X", "PUT", "-H", "Expect:", "-T", file.path,
        "http://127.0.0.1:\(server.port)\(curlAddress)",
    ]
    let output = Pipe()
    process.standardOutput = output
    let curlStart = clock.now
    try process.run()
    process.waitUntilExit()
    curl.append((clock.now - curlStart) / .seconds(1))
    let code = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    guard code == "204" else { throw BenchError("curl's upload was answered \(code)") }
    try await waitDone(2 * run + 2)
}

var table = MarkdownTable([
    ("Upload of \(megabytes) MiB over loopback", .left), ("Median", .right), ("Min", .right), ("MB/s (median)", .right),
    ("Runs", .right), ("Time vs. curl", .right),
])
func row(_ name: String, _ times: [Double], baseline: [Double]) -> [String] {
    [
        name, String(format: "%.0f ms", median(times) * 1000), String(format: "%.0f ms", times.min()! * 1000),
        String(format: "%.0f", Double(size) / 1_000_000 / median(times)), "\(times.count)",
        String(format: "%.2f×", median(times) / median(baseline)),
    ]
}
table.append(row("curl PUT to an address taken beforehand (baseline)", curl, baseline: curl))
table.append(row("Footlight: description → address → PUT → the Director's `finished`", footlight, baseline: curl))
print(table.text)
print()
print(
    "Both write the file through the same server (\(server.configuration.loops) loop(s)); curl's time includes starting the process."
)
