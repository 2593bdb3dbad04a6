import Footlight

/// A pretend account service for the gallery's form: it answers on the session's
/// clock after `latency`, as a remote service would, so the page shows the sign-up in
/// progress. Every address signs up except ``takenAddress``; nothing is stored.
public struct TrialSignups: Sendable {
    /// The one address that already "has an account".
    public static let takenAddress = "taken@example.com"

    let clock: any SessionClock
    let latency: Duration

    public init(clock: any SessionClock, latency: Duration = .milliseconds(400)) {
        self.clock = clock
        self.latency = latency
    }

    /// The name of the new account (the address's local part, each word capitalised),
    /// or a ``SignupFormDirector/Refusal``; nothing happens if the subscription is cancelled first.
    public func signUp(_ entry: SignupFormDirector.Entry) -> AnyPublisher<String, any Error> {
        let (clock, latency) = (clock, latency)
        let address = entry.email.trimmingWhitespace().lowercased()
        return Deferred {
            let answer = PassthroughSubject<String, any Error>()
            // Sent to only on the session's executor, where the caller subscribes and the
            // clock's timers run.
            nonisolated(unsafe) let reply = answer
            let timer = clock.schedule(after: latency) {
                if address == Self.takenAddress {
                    reply.send(
                        completion: .failure(SignupFormDirector.Refusal(reason: "that address already has an account")))
                } else {
                    reply.send(Self.name(of: address))
                    reply.send(completion: .finished)
                }
            }
            return answer.handleEvents(receiveCancel: { timer.cancel() })
        }
        .eraseToAnyPublisher()
    }

    /// "ada.lovelace@example.com" → "Ada Lovelace".
    static func name(of address: String) -> String {
        let local = address.prefix { $0 != "@" }
        let words = local.split { ".-_+".contains($0) }.map { $0.prefix(1).uppercased() + $0.dropFirst() }
        return words.isEmpty ? String(local) : words.joined(separator: " ")
    }
}
