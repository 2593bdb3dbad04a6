import Footlight

extension ProtocolError {
    /// The refusal a stage's error becomes on the wire: its kind's code and its message,
    /// as they are (a stage's kinds are protocol codes), for client event `eventNumber`.
    init(_ error: StageEventError, eventNumber: Int64?) {
        self.init(Code(rawValue: error.kind.code), error.message, eventNumber: eventNumber)
    }
}
