import Footlight
import FootlightJSON
import FootlightServer
import FootlightTesting
import Foundation

/// "uploads": a file input bound to upload event "file" under `limits`. Slot "log"
/// lists what the Director was told, one text per event: `started <name> <total>`,
/// `progress <received>/<total>`, `finished <name> <size> <hash of the bytes>`,
/// `failed <kind>`. The Director reads each finished file in its handler, as an app
/// that keeps it would. The log is of `events`, which is also the binding's input unless
/// `input` is given.
enum UploadProbe {
    static func stage(
        limits: UploadLimits = UploadLimits(), events: PassthroughSubject<UploadEvent, Never> = PassthroughSubject(),
        input: PassthroughSubject<UploadEvent, Never>? = nil
    ) -> Stage {
        let stage = Stage(name: "uploads")
        stage.bind(
            events.map { event -> String in
                switch event {
                case .started(let progress): "started \(progress.name) \(progress.total)"
                case .progress(let progress): "progress \(progress.received)/\(progress.total)"
                case .finished(let file):
                    "finished \(file.name) \(file.size) \(hash(FileManager.default.contents(atPath: file.path) ?? Data()))"
                case .failed(let error): "failed \(error.kind.code)"
                }
            }
            .scan([String]()) { $0 + [$1] }.prepend([]),
            to: "log")
        stage.upload("file", limits: limits, send: input ?? events)
        return stage
    }

    /// FNV-1a, 64 bits, as hex: enough to tell files apart in a test.
    static func hash(_ bytes: some Sequence<UInt8>) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            value ^= UInt64(byte)
            value &*= 0x100_0000_01b3
        }
        return String(value, radix: 16)
    }

    /// The description of a file as a page sends it.
    static func describe(_ name: String, size: Int, type: String = "application/octet-stream") -> JSON {
        ["name": .string(name), "size": .int(Int64(size)), "type": .string(type)]
    }
}

extension ClientMirror {
    /// The upload commands the page was sent so far, oldest first.
    var uploadCommands: [(file: Int, id: String, url: String, offset: Int)] {
        commands.flatMap { command -> [(file: Int, id: String, url: String, offset: Int)] in
            guard case .run(_, let commands) = command else { return [] }
            return commands.compactMap {
                guard case .push(let message, ClientCommand.uploadHook) = $0, let id = message["id"]?.stringValue,
                    let url = message["url"]?.stringValue, case .int(let file)? = message["n"],
                    case .int(let offset)? = message["from"]
                else { return nil }
                return (Int(file), id, url, Int(offset))
            }
        }
    }

    /// The "log" slot of the upload probe.
    var uploadLog: [String] {
        (documents["uploads"]?["log"]?.arrayValue ?? []).compactMap(\.stringValue)
    }
}

extension TestClient {
    /// The upload commands the page was sent so far (not inside a `wait` condition:
    /// that one gets the observation).
    var uploadCommands: [(file: Int, id: String, url: String, offset: Int)] { observation.mirror.uploadCommands }
    /// The "log" slot of the upload probe.
    var uploadLog: [String] { observation.mirror.uploadLog }
}

extension RawHTTP {
    /// Sends `PUT path` declaring `contentLength` (none when nil) and the first
    /// `sending` bytes of `body` (all by default), then reads the answer's status, or
    /// closes at once without reading when `cut`. On a thread of its own
    /// (``offThePool(_:)``): the server may take its time to read a large body.
    static func put(
        port: Int, path: String, body: [UInt8], contentLength: Int? = -1, sending: Int? = nil, cut: Bool = false
    ) async throws -> Int? {
        try await offThePool {
            try putBlocking(
                port: port, path: path, body: body, contentLength: contentLength, sending: sending, cut: cut)
        }
    }

    private static func putBlocking(
        port: Int, path: String, body: [UInt8], contentLength: Int?, sending: Int?, cut: Bool
    ) throws -> Int? {
        let length = contentLength == -1 ? body.count : contentLength
        var head = "PUT \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if let length { head += "Content-Length: \(length)\r\n" }
        head += "\r\n"
        let fd = try connectLoopback(port: port, timeoutSeconds: 10)
        defer { close(fd) }
        let bytes = Array(head.utf8) + body.prefix(sending ?? body.count)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { break }
            sent += count
        }
        if cut { return nil }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while reply.firstRange(of: Array("\r\n".utf8)) == nil {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            reply += buffer[..<count]
        }
        let line = String(decoding: reply, as: UTF8.self).split(separator: "\r\n").first ?? ""
        let parts = line.split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) : nil
    }
}

/// Runs `work` (blocking socket calls) on a thread of its own, off Swift's cooperative
/// pool: that pool has a thread per core (two on CI), and a test blocked in `recv` there
/// stalls every other test's waits, which then time out.
func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
