import Footlight

/// What the server tells a session, each a turn on the session's home.
extension SessionDriver {
    /// Attaches a new connection: a fresh join (rebuilt from `restore` if given), or a
    /// resume after `lastSeq`. The session's home becomes the connection's loop (unless
    /// it was evicted from loops).
    func attach(
        _ handle: any SessionConnection, resumeAfter lastSeq: Int64?, path: String?,
        restore: ClientMessage.Restore? = nil
    ) {
        let work: @Sendable () -> Void = { [self] in
            if let previous = connection, previous.id != handle.id { replaced[previous.id] = previous }
            connection = handle
            handle.setDrainHandler { [weak self] in
                self?.execute { [weak self] in
                    guard let self else { return }
                    perform(state.drained())
                }
            }
            registry?.connected(id)
            perform(state.attach(handle.id, resumeAfter: lastSeq, path: path, restore: restore))
            moveHome(to: handle.home)
        }
        if handle.home.inLoop { submit(from: handle.home, work) } else { execute(work) }
    }

    /// The connection closed; the state is kept for a resume.
    func detach(_ handle: any SessionConnection) {
        execute { [self] in
            guard connection?.id == handle.id else { return }
            perform(state.detach(handle.id))
            handle.setDrainHandler(nil)
            connection = nil
            registry?.disconnected(id)
        }
    }

    /// A user event, on its connection's loop.
    func receive(_ event: ClientMessage.Event, from loop: any SessionLoop, then done: @escaping @Sendable () -> Void) {
        submit(from: loop) { [self] in
            perform(state.receive(event, now: .now))
            done()
        }
    }

    /// An acknowledgement, on its connection's loop.
    func acknowledge(seq: Int64, from loop: any SessionLoop, then done: @escaping @Sendable () -> Void) {
        submit(from: loop) { [self] in
            perform(state.acknowledge(seq: seq))
            done()
        }
    }

    /// A binding error the page reported, on its connection's loop.
    func report(stage: String, message: String, from loop: any SessionLoop, then done: @escaping @Sendable () -> Void) {
        submit(from: loop) { [self] in
            perform(state.report(stage: stage, message: message, now: .now))
            done()
        }
    }

    /// Ends the session for good (expiry, eviction, shutdown); `done` runs after.
    func end(reason: String, closeCode: UInt16 = 1001, then done: (@Sendable () -> Void)? = nil) {
        execute { [self] in
            perform(state.end(reason: reason, closeCode: closeCode))
            uploadDeliveries.removeAll()
            registry?.uploads.sessionEnded(id)
            done?()
        }
    }
}

extension SessionDriver: SessionHost {
    func startOver(reason: String) {
        // A turn of its own: the stages are cancelled outside the app code asking for it.
        execute { [self] in
            perform(state.end(reason: reason, closeCode: 4002) + [.io(.ended)])  // 4002: start over
        }
    }
}
