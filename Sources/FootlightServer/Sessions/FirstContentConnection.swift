import Dispatch
import Footlight

/// Where a session a page's `GET` started runs its turns until a socket joins it (and
/// moves it to the socket's loop): a queue of its own, since the loop answering the
/// `GET` waits for the first turn and cannot run it.
final class QueueLoop: SessionLoop {
    private let queue = DispatchQueue(label: "footlight.first-content")

    func execute(_ work: @escaping @Sendable () -> Void) -> Bool {
        queue.async(execute: work)
        return true
    }

    /// Never: a session on a queue posts its work (no loop's budget watches it).
    var inLoop: Bool { false }
    func beginAppCode() -> UInt64 { 0 }
    func endAppCode(_ turn: UInt64) -> Bool { true }
}

/// The connection a page's `GET` attaches to the session it starts, as a socket's join
/// would: it keeps what the session's first flush sends (`joined` and the mounts) for
/// the page, and drops the rest (a later join resumes after it and gets it replayed).
final class FirstContentConnection: SessionConnection {
    let id = ConnectionIDs.next()
    let home: any SessionLoop
    private let first = Locked<[WireMessage]?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    init(home: any SessionLoop) {
        self.home = home
    }

    var unsentBytes: Int { 0 }

    func send(_ messages: [WireMessage]) {
        let isFirst = first.withLock { first -> Bool in
            guard first == nil else { return false }
            first = messages
            return true
        }
        if isFirst { ready.signal() }
    }

    /// The session refused the join (it ended): nothing more comes.
    func close(code: UInt16, reason: String) {
        send([])
    }

    func setDrainHandler(_ handler: (@Sendable () -> Void)?) {}
    func requestDrainSignal() {}

    /// What the first flush sent, once it starts with `joined`; nil when nothing such
    /// came within `timeLimit`.
    func firstMessages(within timeLimit: Duration) -> [WireMessage]? {
        guard ready.wait(timeout: .now() + .nanoseconds(timeLimit.clampedNanoseconds)) == .success else { return nil }
        let joined = Array(#"{"t":"joined""#.utf8)
        return first.withLock { $0 }.flatMap { $0.first?.bytes.starts(with: joined) == true ? $0 : nil }
    }
}
