extension ClientMirror {
    /// An error message from the server.
    public struct ReceivedError: Sendable, Equatable {
        public let code: String
        public let message: String
        /// The (last) event the error refuses.
        public let eventNumber: Int64?
        /// The first event of a refused run, when the error covers several.
        public let firstEventNumber: Int64?

        /// How many events the error refuses.
        public var eventCount: Int {
            guard let last = eventNumber else { return 0 }
            return Int(last - (firstEventNumber ?? last) + 1)
        }
    }
}
