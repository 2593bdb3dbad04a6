/// Why the restart benchmark stopped: a readable sentence naming the phase and what
/// went wrong.
struct RestartError: Error, CustomStringConvertible, Sendable {
    let description: String
    init(_ description: String) { self.description = description }
}
