/// Why the generator stopped a phase.
struct LoadError: Error, CustomStringConvertible {
    /// True when the server misbehaved (a wrong or missing reply, an error message, a
    /// hang): a finding to report, not a limit of the generator.
    let isServerFault: Bool
    let description: String

    static func generator(_ text: String) -> LoadError { LoadError(isServerFault: false, description: text) }
    static func server(_ text: String) -> LoadError { LoadError(isServerFault: true, description: text) }
}
