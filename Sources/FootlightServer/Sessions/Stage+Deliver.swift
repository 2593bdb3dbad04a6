import Footlight
import FootlightJSON

extension Stage {
    /// Hands a client event to the stage (app code runs here) and returns the error it
    /// was refused with, if any: what ``SessionState/eventHandled(_:error:)`` takes after
    /// a ``SessionAction/deliver(_:to:)``.
    package func deliver(_ event: ClientMessage.Event) -> StageEventError? {
        deliver(event.name, value: event.value)
    }

    /// Hands the event `name` with `value` to the stage (app code runs here): a client
    /// event, or a value the page kept (what ``SessionState/restored(error:)`` takes
    /// after a ``SessionAction/restore(name:value:to:)``). Returns the error it was
    /// refused with, if any.
    package func deliver(_ name: String, value: JSON?) -> StageEventError? {
        do throws(StageEventError) {
            try handle(event: name, value: value)
            return nil
        } catch {
            return error
        }
    }
}
