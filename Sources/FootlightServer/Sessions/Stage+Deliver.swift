import Footlight

extension Stage {
    /// Hands a client event to the stage (app code runs here) and returns the error it
    /// was refused with, if any: what ``SessionState/eventHandled(_:error:)`` takes after
    /// a ``SessionAction/deliver(_:to:)``.
    package func deliver(_ event: ClientMessage.Event) -> StageEventError? {
        do throws(StageEventError) {
            try handle(event: event.name, value: event.value)
            return nil
        } catch {
            return error
        }
    }
}
