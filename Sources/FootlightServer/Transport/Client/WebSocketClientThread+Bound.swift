extension WebSocketClientThread {
    /// A value any thread may hold but only the loop thread may touch, such as the
    /// current connection of a client that other threads drive: they read and write
    /// ``value`` inside ``WebSocketClientThread/execute(_:)`` work.
    package final class Bound<Value>: @unchecked Sendable {
        // @unchecked: `storage` is read and written only on `thread`'s loop thread
        // (checked, release builds included), after `init` published it.
        private let thread: WebSocketClientThread
        private var storage: Value

        /// Binds `value` to `thread`'s loop.
        package init(_ value: Value, on thread: WebSocketClientThread) {
            self.thread = thread
            storage = value
        }

        /// The value; only on the loop thread.
        package var value: Value {
            get {
                thread.preconditionInLoop()
                return storage
            }
            set {
                thread.preconditionInLoop()
                storage = newValue
            }
        }
    }
}
