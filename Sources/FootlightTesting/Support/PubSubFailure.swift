import Footlight

/// The kind of pub/sub error `body` throws, or nil when it throws none (or another):
/// `#expect(pubSubFailure { try pubSub.publish(1, to: "") } == .invalidTopic)`.
package func pubSubFailure(_ body: () throws -> Void) -> PubSubError.Kind? {
    do {
        try body()
        return nil
    } catch {
        return (error as? PubSubError)?.kind
    }
}
