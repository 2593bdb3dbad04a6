import FootlightJSON
import FootlightServer

/// What the connections do when their sockets report: write what is due, read
/// replies, complete round trips, and notice when the server misbehaves. Each
/// socket's ``WebSocketClientConnection/tag`` is its index in the table.
extension LoadGenerator: WebSocketClientDelegate {
    func opened(_ socket: WebSocketClientConnection) {
        let id = socket.tag
        switch connections[id].phase {
        case .connecting:
            if connections[id].endpoint == .footlight {
                move(id, to: .joining)
                connections[id].wantsJoin = true
            } else {
                move(id, to: .ready)
            }
        default:
            break
        }
        if connections[id].hasPendingWrite { socket.requestWritable() }
    }

    /// Writes the most urgent pending message: join, then event, then ack (a close
    /// asked for follows them).
    func writable(_ socket: WebSocketClientConnection) {
        let id = socket.tag
        var connection = connections[id]
        defer { connections[id] = connection }
        if connection.wantsJoin {
            connection.wantsJoin = false
            LoadWire.join(into: text)
        } else if connection.wantsEvent && loopRunning {
            connection.wantsEvent = false
            connection.lastEvent += 1
            LoadWire.event(connection.lastEvent, into: text)
            outstanding += 1
            connection.sentAt = Clock.now()
        } else if let seq = connection.ackDue {
            connection.ackDue = nil
            LoadWire.ack(seq: seq, into: text)
        } else {
            connection.wantsEvent = false
            return
        }
        // A short write ends the connection, with the error saying so.
        if socket.write(text.bytes), connection.hasPendingWrite { socket.requestWritable() }
    }

    func received(_ bytes: UnsafeRawBufferPointer, isBinary: Bool, on socket: WebSocketClientConnection) {
        handle(socket.tag, message: bytes)
    }

    func peerClosed(code: UInt16, reason: String, on socket: WebSocketClientConnection) {
        connections[socket.tag].peerClose = code == 1005 ? "close frame without a code" : "close \(code) \"\(reason)\""
    }

    func ended(_ socket: WebSocketClientConnection, error: WebSocketClientError?) {
        ended(socket.tag, error: error?.description)
    }

    /// The connection failed to open, or is gone.
    private func ended(_ id: Int, error: String?) {
        let connection = connections[id]
        switch connection.phase {
        case .closed, .failed:
            return
        case .closing:
            move(id, to: .closed)
        case .connecting:
            move(id, to: .failed)
            note("connection \(id) (\(connection.endpoint)) failed: \(error ?? connection.peerClose ?? "closed")")
        case .joining, .ready:
            move(id, to: .closed)
            unexpectedCloses += 1
            note("connection \(id) (\(connection.endpoint)) dropped: \(error ?? connection.peerClose ?? "closed")")
        }
        if connection.sentAt != 0 {
            connections[id].sentAt = 0
            outstanding -= 1
            fault =
                fault
                ?? .server(
                    "connection \(id) closed with event \(connection.lastEvent) unanswered "
                        + "(\(error ?? connection.peerClose ?? "no close frame"))")
        }
    }

    // MARK: Replies

    private func handle(_ id: Int, message bytes: UnsafeRawBufferPointer) {
        repliesReceived += 1
        switch connections[id].endpoint {
        case .echo:
            guard let number = LoadWire.echoedEvent(bytes), number == connections[id].lastEvent,
                connections[id].sentAt != 0
            else {
                return fail(id, "the echo sent back something else", bytes)
            }
            complete(id)
        case .footlight:
            if let (seq, ack) = LoadWire.patchAck(bytes) {
                patchesSeen += 1
                if patchesSeen % fullCheckInterval == 1 { checkInFull(id, bytes) }
                acceptSeq(id, seq, bytes)
                acknowledged(id, event: ack, bytes)
            } else {
                handleOther(id, bytes)
            }
        }
    }

    /// Joined, mount, plain ack, error, bye and pong: parsed in full.
    private func handleOther(_ id: Int, _ bytes: UnsafeRawBufferPointer) {
        guard let message = try? JSON.parse(bytes), let type = message[.type]?.stringValue else {
            return fail(id, "unparseable reply", bytes)
        }
        switch Wire.Server(rawValue: type) {
        case .joined:
            connections[id].joined = true
        case .mount:
            guard case .int(let seq)? = message[.seq], let stage = message[.stage]?.stringValue else {
                return fail(id, "a mount without seq or stage", bytes)
            }
            acceptSeq(id, seq, bytes)
            connections[id].ackDue = seq
            connections[id].socket.requestWritable()
            // Ready once the counter (the root stage the events name) is mounted.
            if stage == "counter", connections[id].phase == .joining {
                guard connections[id].joined else { return fail(id, "mount before joined", bytes) }
                move(id, to: .ready)
            }
        case .unmount, .open:
            guard case .int(let seq)? = message[.seq] else { return fail(id, "\(type) without seq", bytes) }
            acceptSeq(id, seq, bytes)
        case .patch:
            guard case .int(let seq)? = message[.seq] else { return fail(id, "a patch without seq", bytes) }
            acceptSeq(id, seq, bytes)
            if case .int(let ack)? = message[.ack] { acknowledged(id, event: ack, bytes) }
        case .ack:
            guard case .int(let number)? = message[.number] else { return fail(id, "an ack without n", bytes) }
            acknowledged(id, event: number, bytes)
        case .pong:
            break
        default:
            fail(id, "the server sent \"\(type)\"", bytes)
        }
    }

    private func acceptSeq(_ id: Int, _ seq: Int64, _ bytes: UnsafeRawBufferPointer) {
        guard seq == connections[id].lastSeq + 1 else {
            return fail(id, "seq \(seq) after seq \(connections[id].lastSeq)", bytes)
        }
        connections[id].lastSeq = seq
        connections[id].patchesSinceAck += 1
        if connections[id].patchesSinceAck >= ackEvery {
            connections[id].patchesSinceAck = 0
            connections[id].ackDue = seq
        }
    }

    private func acknowledged(_ id: Int, event number: Int64, _ bytes: UnsafeRawBufferPointer) {
        guard connections[id].sentAt != 0, number == connections[id].lastEvent else {
            return fail(id, "ack \(number), but the outstanding event is \(connections[id].lastEvent)", bytes)
        }
        complete(id)
    }

    /// The outstanding event's reply arrived: record it and (looping) write the next.
    private func complete(_ id: Int) {
        let now = Clock.now()
        if now >= windowStart, now < windowEnd {
            histogram.record(now - connections[id].sentAt)
            completedInWindow += 1
        }
        connections[id].sentAt = 0
        outstanding -= 1
        if loopRunning { connections[id].wantsEvent = true }
        if connections[id].hasPendingWrite { connections[id].socket.requestWritable() }
    }

    /// One patch in about a thousand is parsed in full: the counter shows the event count.
    private func checkInFull(_ id: Int, _ bytes: UnsafeRawBufferPointer) {
        guard let message = try? JSON.parse(bytes), message[.stage]?.stringValue == "counter",
            case .int(let ack)? = message[.ack], let ops = message[.operations]?.arrayValue, ops.count == 1,
            ops[0]["op"]?.stringValue == "replace", ops[0]["path"]?.stringValue == "/count",
            ops[0]["value"]?.stringValue == "Count: \(ack)"
        else {
            return fail(id, "a patch that does not count the events", bytes)
        }
    }

    private func fail(_ id: Int, _ problem: String, _ bytes: UnsafeRawBufferPointer) {
        let text = String(decoding: bytes.prefix(300), as: UTF8.self)
        fault = fault ?? .server("connection \(id) (\(connections[id].endpoint)): \(problem): \(text)")
    }

    private func note(_ problem: String) {
        if firstProblem == nil { firstProblem = problem }
    }
}
