import Footlight
import FootlightServer
import FootlightTesting
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The libwebsockets client core (`WebSocketClientLoop`, `WebSocketClientThread`,
/// `WebSocketClientConnection`) against a raw server that writes and checks exact bytes.
@Suite(.timeLimit(.minutes(3)))
struct WebSocketClientTests {
    @Test("A message larger than the receive buffer arrives whole, and so does a fragmented one")
    func largeAndFragmentedMessages() async throws {
        let text = (0..<100_000).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        let binary = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let server = try RawWebSocketServer.start { peer, _ in
            peer.frame(opcode: 0x1, payload: text, masked: false)
            peer.frame(opcode: 0x2, payload: binary, masked: false)
            peer.frame(opcode: 0x1, payload: Array("first ".utf8), fin: false, masked: false)
            peer.frame(opcode: 0x0, payload: Array("second ".utf8), fin: false, masked: false)
            peer.frame(opcode: 0x0, payload: Array("third".utf8), masked: false)
        }
        let client = try RecordingClient(port: server.port)
        defer { client.stop() }
        try await waitFor("three messages") { client.messages.count == 3 }
        try await server.finish()
        let messages = client.messages
        #expect(messages[0].bytes == text && !messages[0].isBinary)
        #expect(messages[1].bytes == binary && messages[1].isBinary)
        #expect(String(decoding: messages[2].bytes, as: UTF8.self) == "first second third")
    }

    @Test(
        "Queued messages go out in order, text and binary, after the Origin sent as given; close sends code and reason")
    func sendAndClose() async throws {
        let received = Locked<[(opcode: UInt8, payload: [UInt8])]>([])
        let server = try RawWebSocketServer.start { peer, _ in
            while let frame = peer.readFrame() {
                received.withLock { $0.append(frame) }
                if frame.opcode == 0x8 {
                    peer.frame(opcode: 0x8, payload: frame.payload, masked: false)
                    return
                }
            }
        }
        let client = try RecordingClient(port: server.port, origin: "https://app.example:8443")
        defer { client.stop() }
        // Queued before the connection opens: sent once it does, in order, then the close.
        client.on { connection in
            connection.send(Array("one".utf8))
            connection.send([0, 1, 2, 255], isBinary: true)
            connection.send(Array(repeating: UInt8(ascii: "x"), count: 20_000))
            connection.close(code: 4001, reason: "done here")
            connection.send(Array("after close".utf8))
        }
        try await waitFor("the connection to end") { client.hasEnded }
        try await server.finish()
        let frames = received.withLock { $0 }
        #expect(frames.map(\.opcode) == [0x1, 0x2, 0x1, 0x8])
        #expect(frames[0].payload == Array("one".utf8))
        #expect(frames[1].payload == [0, 1, 2, 255])
        #expect(frames[2].payload.count == 20_000)
        #expect(frames[3].payload == [0x0F, 0xA1] + Array("done here".utf8))
        #expect(server.request.flatMap { RawWebSocketServer.header("Origin", in: $0) } == "https://app.example:8443")
        #expect(client.events.last == .ended(nil))
    }

    @Test("drop() ends the connection at once, and the server sees its data but no close frame")
    func dropSendsNoCloseFrame() async throws {
        let opcodes = Locked<[UInt8]>([])
        let server = try RawWebSocketServer.start { peer, _ in
            while let frame = peer.readFrame() { opcodes.withLock { $0.append(frame.opcode) } }
        }
        let client = try RecordingClient(port: server.port)
        defer { client.stop() }
        try await client.waitUntilOpen()
        client.on { connection in
            connection.send(Array("last words".utf8))
        }
        try await waitFor("the server to read the message") { opcodes.withLock { $0 } == [0x1] }
        client.on { $0.drop() }
        try await waitFor("the connection to end") { client.hasEnded }
        try await server.finish()
        #expect(opcodes.withLock { $0 } == [0x1], "no close frame reached the server")
        #expect(client.events == [.opened, .ended(nil)])
    }

    @Test("Connecting to a closed port ends with connectionFailed, and never opens")
    func closedPort() async throws {
        let client = try RecordingClient(port: try LoopbackPort.free())
        defer { client.stop() }
        try await waitFor("the connection to end") { client.hasEnded }
        #expect(client.events == [.ended(.connectionFailed)])
    }

    @Test("The server's close frame reaches the delegate with its code and reason, and is answered")
    func serverCloses() async throws {
        let answer = Locked<(opcode: UInt8, payload: [UInt8])?>(nil)
        let server = try RawWebSocketServer.start { peer, _ in
            peer.frame(opcode: 0x8, payload: [0x0F, 0xA0] + Array("bye now".utf8), masked: false)
            answer.withLock { $0 = peer.readFrame() }
        }
        let client = try RecordingClient(port: server.port)
        defer { client.stop() }
        try await waitFor("the connection to end") { client.hasEnded }
        try await server.finish()
        #expect(client.events == [.opened, .peerClosed(code: 4000, reason: "bye now"), .ended(nil)])
        #expect(answer.withLock { $0?.opcode } == 0x8)
    }

    @Test("While reading is paused nothing arrives and the server's writes back up; resuming delivers every message")
    func pauseAndResumeReading() async throws {
        // 1 MiB in all: eight times what the two sockets' buffers hold while paused.
        let messageCount = 256
        let blockedAfter = Locked<Int?>(nil)
        let server = try RawWebSocketServer.start(sendBufferSize: 64 << 10) { peer, server in
            try server.waitToProceed()
            var stream: [UInt8] = []
            for index in 0..<messageCount {
                let payload =
                    Array(String(format: "%06d", index).utf8) + Array(repeating: UInt8(ascii: "."), count: 4090)
                stream += [0x81, 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload
            }
            // Without blocking until the socket is full, then blocking for the rest.
            var sent = 0
            while sent < stream.count {
                let count = stream[sent...].withUnsafeBytes {
                    send(peer.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                }
                if count > 0 {
                    sent += count
                } else if errno == EAGAIN {
                    break
                } else {
                    throw RawHTTPError("send failed: \(errno)")
                }
            }
            blockedAfter.withLock { $0 = sent }
            // The rest blocks until the client reads again, which a busy machine may delay
            // well past the raw server's usual 10 s send timeout.
            var patience = timeval(tv_sec: 90, tv_usec: 0)
            setsockopt(peer.fd, SOL_SOCKET, SO_SNDTIMEO, &patience, socklen_t(MemoryLayout<timeval>.size))
            guard peer.write(Array(stream[sent...])) else { throw RawHTTPError("the client went away") }
        }
        let client = try RecordingClient(port: server.port)
        defer { client.stop() }
        try await client.waitUntilOpen()
        client.on { connection in
            connection.pauseReading()
            server.proceed()
        }
        try await waitFor("the server's socket to fill") { blockedAfter.withLock { $0 } != nil }
        let backlog = try #require(blockedAfter.withLock { $0 })
        #expect(backlog < 1 << 20, "the paused client let \(backlog) bytes in")
        try await Task.sleep(for: .milliseconds(100))
        let whilePaused = client.messages.count
        try await Task.sleep(for: .milliseconds(300))
        #expect(client.messages.count == whilePaused, "nothing was read while paused")
        #expect(whilePaused < messageCount)
        client.on { $0.resumeReading() }
        try await waitFor("every message", timeout: .seconds(60)) { client.messages.count == messageCount }
        try await server.finish(timeout: .seconds(60))
        let numbers = client.messages.map { Int(String(decoding: $0.bytes.prefix(6), as: UTF8.self)) }
        #expect(numbers == Array(0..<messageCount))
    }

    @Test("Stopping a client thread ends its open connection")
    func stoppingEndsConnections() async throws {
        let server = try RawWebSocketServer.start { peer, _ in
            while peer.readFrame() != nil {}
        }
        let client = try RecordingClient(port: server.port)
        try await client.waitUntilOpen()
        client.stop()
        #expect(client.events == [.opened, .ended(nil)])
        #expect(client.thread.execute { _ in } == false, "a stopped thread takes no more work")
        try await server.finish()
    }
}
