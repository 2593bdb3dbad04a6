import Footlight
import FootlightJSON
import FootlightServer
import FootlightTesting
import Foundation
import Testing

/// Uploads over real sockets: the description over the WebSocket, the bytes as HTTP
/// `PUT`s with single-use tickets, what the Director hears, and every refusal.
@Suite(.timeLimit(.minutes(2)))
struct UploadSocketTests {
    /// A server with the upload probe, its files in a folder of the test's own.
    private func start(
        limits: UploadLimits = UploadLimits(), abandonAfter: Duration = .seconds(600)
    ) throws -> (Server, String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("uploads-\(UUID().uuidString)").path
        let server = try TestServer.start(
            configure: {
                $0.uploads.directory = folder
                $0.uploads.abandonAfter = abandonAfter
                $0.sendsErrorDetails = true
            },
            stages: { _ in [UploadProbe.stage(limits: limits)] })
        return (server, folder)
    }

    private func bytes(_ count: Int, seed: UInt8) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &* 7 &+ $0 >> 8) }
    }

    private func files(in folder: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    }

    /// Waits (5 s at most) until `folder` holds no file: a finished upload's file is
    /// removed on another thread after its Director's turn.
    private func emptied(_ folder: String) async throws -> Bool {
        for _ in 0..<500 where !files(in: folder).isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        return files(in: folder).isEmpty
    }

    @Test(
        "A file goes up whole: started, progress, finished with its bytes; the file is removed after the Director's turn"
    )
    func wholeFile() async throws {
        let (server, folder) = try start()
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        let body = bytes(300_000, seed: 1)
        try await client.send("file", in: "uploads", value: [UploadProbe.describe("photo.raw", size: body.count)])
        try await client.wait("an upload command") { $0.mirror.uploadCommands.count == 1 }
        let command = try #require(client.uploadCommands.first)
        #expect(command.offset == 0 && command.file == 0)
        #expect(try await RawHTTP.put(port: server.port, path: command.url, body: body) == 204)
        try await client.wait("the file finished") { $0.mirror.uploadLog.last?.hasPrefix("finished") == true }
        let log = client.uploadLog
        #expect(log.first == "started photo.raw 300000")
        #expect(log.last == "finished photo.raw 300000 \(UploadProbe.hash(body))")
        let progress = log.filter { $0.hasPrefix("progress") }
        #expect(progress.count >= 1 && progress.count <= 100)
        #expect(try await emptied(folder))
        #expect(try await RawHTTP.put(port: server.port, path: command.url, body: body) == 403, "a ticket serves once")
        #expect(client.observation.mirror.violations.isEmpty)
    }

    @Test("Limits are the server's: too many files, too large, a type not accepted, bytes of another type")
    func limits() async throws {
        let (server, folder) = try start(limits: UploadLimits(maximumBytes: 1000, types: ["image/*"]))
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        let png = UploadProbe.describe("a.png", size: 100, type: "image/png")
        try await client.send("file", in: "uploads", value: [png, png])
        try await client.send(
            "file", in: "uploads", value: [UploadProbe.describe("big.png", size: 1001, type: "image/png")])
        try await client.send(
            "file", in: "uploads", value: [UploadProbe.describe("notes.txt", size: 10, type: "text/plain")])
        try await client.waitUntilAcknowledged()
        try await client.wait("three refusals") { $0.mirror.uploadLog.count == 3 }
        #expect(client.uploadLog == ["failed too-many-files", "failed too-large", "failed type-not-accepted"])
        #expect(client.uploadCommands.isEmpty)

        // Declared a PNG, sent a GIF's bytes: the bytes decide, and GIFs are accepted.
        let gif = Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 94)
        try await client.send("file", in: "uploads", value: [png])
        try await client.wait("an upload command") { $0.mirror.uploadCommands.count == 1 }
        #expect(try await RawHTTP.put(port: server.port, path: client.uploadCommands[0].url, body: gif) == 204)
        try await client.wait("the file") { $0.mirror.uploadLog.last == "finished a.png 100 \(UploadProbe.hash(gif))" }

        // Declared a PNG, sent text: refused too.
        try await client.send("file", in: "uploads", value: [png])
        try await client.wait("an upload command") { $0.mirror.uploadCommands.count == 2 }
        let text = [UInt8](repeating: UInt8(ascii: "a"), count: 100)
        #expect(try await RawHTTP.put(port: server.port, path: client.uploadCommands[1].url, body: text) == 415)
        try await client.wait("the refusal") { $0.mirror.uploadLog.count == 7 }
        #expect(client.uploadLog.last == "failed type-not-accepted")

        // The session goes on: a real PNG passes.
        let realPNG: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 92)
        try await client.send("file", in: "uploads", value: [png])
        try await client.wait("an upload command") { $0.mirror.uploadCommands.count == 3 }
        #expect(try await RawHTTP.put(port: server.port, path: client.uploadCommands[2].url, body: realPNG) == 204)
        try await client.wait("the file finished") { $0.mirror.uploadLog.last?.hasPrefix("finished a.png 100") == true }
        #expect(try await emptied(folder))
    }

    @Test("The page cancels an upload: its binding is told at once, its ticket is void; a give-up is told too")
    func cancelled() async throws {
        let (server, folder) = try start()
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        let body = bytes(2000, seed: 5)
        try await client.send("file", in: "uploads", value: [UploadProbe.describe("first.bin", size: body.count)])
        try await client.wait("an upload command") { $0.mirror.uploadCommands.count == 1 }
        let first = client.uploadCommands[0]
        // Another file chosen: the page cancels the first, then describes the second; the
        // binding hears the two in that order.
        try await client.send("file", in: "uploads", value: ["cancel": .string(first.id)])
        try await client.send("file", in: "uploads", value: [UploadProbe.describe("second.bin", size: body.count)])
        try await client.wait("a second command") { $0.mirror.uploadCommands.count == 2 }
        try await client.waitUntilAcknowledged()
        #expect(client.uploadLog == ["started first.bin 2000", "failed cancelled", "started second.bin 2000"])
        #expect(try await RawHTTP.put(port: server.port, path: first.url, body: body) == 403)
        try await client.send("file", in: "uploads", value: ["resume": .string(first.id), "n": 0])
        try await client.wait("the resume refused") { $0.mirror.uploadLog.last == "failed abandoned" }
        // Cancelling an upload that ended changes nothing.
        try await client.send("file", in: "uploads", value: ["cancel": .string(first.id)])
        // The page gave the second up after its tries: the binding hears it was abandoned.
        try await client.send(
            "file", in: "uploads", value: ["cancel": .string(client.uploadCommands[1].id), "lost": true])
        try await client.wait("the give-up") { $0.mirror.uploadLog.count == 5 }
        #expect(client.uploadLog.suffix(2) == ["failed abandoned", "failed abandoned"])
        #expect(try await emptied(folder))
    }

    @Test("Forged, altered and misused tickets are refused with a status, and the session goes on")
    func forgedTickets() async throws {
        let (server, _) = try start()
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        let body = bytes(2000, seed: 2)
        try await client.send("file", in: "uploads", value: [UploadProbe.describe("f.bin", size: body.count)])
        try await client.wait("an upload command") { $0.mirror.uploadCommands.count == 1 }
        let url = client.uploadCommands[0].url
        let id = client.uploadCommands[0].id

        var altered = Array(url.utf8)
        altered[altered.count - 1] = altered.last == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
        #expect(
            try await RawHTTP.put(port: server.port, path: String(decoding: altered, as: UTF8.self), body: body) == 403)
        #expect(
            try await RawHTTP.put(port: server.port, path: UploadConfiguration.path + "v1.nonsense", body: body) == 403)
        #expect(try await RawHTTP.put(port: server.port, path: "/somewhere", body: body) == 405)
        // The real ticket still serves (a forgery spends nothing), but not with the wrong length.
        #expect(try await RawHTTP.put(port: server.port, path: url, body: body, contentLength: 10, sending: 10) == 400)
        // Spent: a new ticket is asked for, as after a cut.
        try await client.send("file", in: "uploads", value: ["resume": .string(id), "n": 0])
        try await client.wait("a new ticket") { $0.mirror.uploadCommands.count == 2 }
        #expect(
            try await RawHTTP.put(port: server.port, path: client.uploadCommands[1].url, body: body, contentLength: nil)
                == 411)
        try await client.send("file", in: "uploads", value: ["resume": .string(id), "n": 0])
        try await client.wait("a new ticket") { $0.mirror.uploadCommands.count == 3 }
        #expect(try await RawHTTP.put(port: server.port, path: client.uploadCommands[2].url, body: body) == 204)
        try await client.wait("the file finished") { $0.mirror.uploadLog.last?.hasPrefix("finished") == true }
        #expect(client.uploadLog.last == "finished f.bin 2000 \(UploadProbe.hash(body))")

        // A finished upload cannot be resumed; a value that is no upload request is refused.
        try await client.send("file", in: "uploads", value: ["resume": .string(id), "n": 0])
        try await client.wait("the refusal") { $0.mirror.uploadLog.last == "failed abandoned" }
        try await client.send("file", in: "uploads", value: "not a file")
        let error = try await client.waitForError("bad-value")
        #expect(error.message.contains("a list of files"))
    }

    @Test("A request cut halfway resumes from the bytes the server holds, and the file arrives whole")
    func cutAndResume() async throws {
        let (server, folder) = try start()
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        let body = bytes(1_000_000, seed: 3)
        try await client.send("file", in: "uploads", value: [UploadProbe.describe("big.bin", size: body.count)])
        try await client.wait("an upload command") { $0.mirror.uploadCommands.count == 1 }
        let first = client.uploadCommands[0]

        // Half the body, then the connection drops once the server has some of it.
        let fd = try connectLoopback(port: server.port, timeoutSeconds: 10)
        let head = "PUT \(first.url) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n\r\n"
        let half = Array(head.utf8) + body.prefix(body.count / 2)
        var sent = 0
        while sent < half.count {
            let count = half[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { break }
            sent += count
        }
        try await client.wait("progress past a third") {
            $0.mirror.uploadLog.contains { line in
                line.hasPrefix("progress") && (Int(line.dropFirst(9).split(separator: "/")[0]) ?? 0) > body.count / 3
            }
        }
        close(fd)

        try await client.send("file", in: "uploads", value: ["resume": .string(first.id), "n": 0])
        try await client.wait("a new ticket") { $0.mirror.uploadCommands.count == 2 }
        let second = client.uploadCommands[1]
        #expect(second.id == first.id)
        #expect(second.offset > body.count / 3 && second.offset <= body.count / 2)
        #expect(try await RawHTTP.put(port: server.port, path: second.url, body: Array(body[second.offset...])) == 204)
        try await client.wait("the file finished") { $0.mirror.uploadLog.last?.hasPrefix("finished") == true }
        #expect(client.uploadLog.last == "finished big.bin 1000000 \(UploadProbe.hash(body))")
        #expect(try await emptied(folder))
    }

    @Test("A new ticket retires a request still sending: its bytes stop counting")
    func newerTicketWins() async throws {
        let (server, _) = try start()
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        let body = bytes(400_000, seed: 4)
        try await client.send("file", in: "uploads", value: [UploadProbe.describe("race.bin", size: body.count)])
        try await client.wait("an upload command") { $0.mirror.uploadCommands.count == 1 }
        let first = client.uploadCommands[0]
        let fd = try connectLoopback(port: server.port, timeoutSeconds: 10)
        defer { close(fd) }
        let head = "PUT \(first.url) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n\r\n"
        let start = Array(head.utf8) + body.prefix(100_000)
        _ = try await offThePool { start.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
        try await client.wait("some progress") { $0.mirror.uploadLog.contains { $0.hasPrefix("progress") } }

        try await client.send("file", in: "uploads", value: ["resume": .string(first.id), "n": 0])
        try await client.wait("a new ticket") { $0.mirror.uploadCommands.count == 2 }
        let second = client.uploadCommands[1]
        // The old request goes on sending (bytes that are not the file's): the server
        // refuses it with 409 and writes none of them.
        let garbage = [UInt8](repeating: 0xEE, count: 4096)
        let reply = try await offThePool {
            _ = garbage.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            var reply = [UInt8](repeating: 0, count: 512)
            let count = recv(fd, &reply, reply.count, 0)
            return String(decoding: reply.prefix(max(0, count)), as: UTF8.self)
        }
        #expect(reply.hasPrefix("HTTP/1.1 409"))
        #expect(try await RawHTTP.put(port: server.port, path: second.url, body: Array(body[second.offset...])) == 204)
        try await client.wait("the file finished") { $0.mirror.uploadLog.last?.hasPrefix("finished") == true }
        #expect(client.uploadLog.last == "finished race.bin 400000 \(UploadProbe.hash(body))")
    }

    @Test("20 uploads at once, from 20 sessions: each Director gets its own bytes")
    func twentyAtOnce() async throws {
        let (server, folder) = try start()
        defer { server.shutdown() }
        var clients: [TestClient] = []
        for _ in 0..<20 { clients.append(try await TestClient.connect(to: server)) }
        let bodies = (0..<20).map { bytes(50_000 + $0 * 7_919, seed: UInt8($0)) }
        for (index, client) in clients.enumerated() {
            try await client.send(
                "file", in: "uploads", value: [UploadProbe.describe("file-\(index)", size: bodies[index].count)])
        }
        for client in clients { try await client.wait("an upload command") { $0.mirror.uploadCommands.count == 1 } }
        let port = server.port
        let statuses = try await withThrowingTaskGroup(of: Int?.self) { group in
            for (index, client) in clients.enumerated() {
                let url = client.uploadCommands[0].url
                let body = bodies[index]
                group.addTask { try await RawHTTP.put(port: port, path: url, body: body) }
            }
            return try await group.reduce(into: [Int?]()) { $0.append($1) }
        }
        #expect(statuses.allSatisfy { $0 == 204 })
        for (index, client) in clients.enumerated() {
            try await client.wait("the file finished") { $0.mirror.uploadLog.last?.hasPrefix("finished") == true }
            #expect(
                client.uploadLog.last
                    == "finished file-\(index) \(bodies[index].count) \(UploadProbe.hash(bodies[index]))")
        }
        #expect(try await emptied(folder))
    }

    @Test("An upload whose bytes never come is given up: the Director is told and the file removed")
    func abandoned() async throws {
        let (server, folder) = try start(abandonAfter: .milliseconds(300))
        defer { server.shutdown() }
        let client = try await TestClient.connect(to: server)
        try await client.send("file", in: "uploads", value: [UploadProbe.describe("never.bin", size: 10)])
        try await client.wait("an upload command") { $0.mirror.uploadCommands.count == 1 }
        try await client.wait("the upload given up") { $0.mirror.uploadLog.last == "failed abandoned" }
        #expect(try await emptied(folder))
        #expect(
            try await RawHTTP.put(
                port: server.port, path: client.uploadCommands[0].url, body: Array(repeating: 0, count: 10))
                == 403)
    }

    @Test("A session that ends takes its unfinished uploads' files with it")
    func sessionEnd() async throws {
        let (server, folder) = try start()
        let client = try await TestClient.connect(to: server)
        try await client.send("file", in: "uploads", value: [UploadProbe.describe("left.bin", size: 10)])
        try await client.wait("an upload command") { $0.mirror.uploadCommands.count == 1 }
        #expect(files(in: folder).count == 1)
        server.shutdown()
        #expect(try await emptied(folder))
    }
}
