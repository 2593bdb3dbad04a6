extension ServiceLoop {
    /// Queues `payload` as one text message to every open connection of the echo
    /// endpoint, in one piece of work on the loop. The fan-out benchmark's transport
    /// floor: the same bytes to the same number of sockets as a fanned-out change, with
    /// no session, Director, diff or encoding in between.
    func sendToEchoConnections(_ payload: [UInt8]) {
        execute { [self] in
            for connection in openConnections where connection.kind == .echo {
                let frame = OutboundFrame(payload: payload)
                connection.handle.addPending(frame.count)
                connection.enqueue([frame])
            }
        }
    }
}
