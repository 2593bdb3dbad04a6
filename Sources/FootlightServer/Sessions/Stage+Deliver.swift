import Footlight
import FootlightJSON

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

    /// Hands a value the page kept to the stage, as the event `name` (app code runs
    /// here): what ``SessionState/restored(error:)`` takes after a
    /// ``SessionAction/restore(name:value:to:)``.
    package func deliver(restored name: String, value: JSON) -> StageEventError? {
        do throws(StageEventError) {
            try handle(event: name, value: value)
            return nil
        } catch {
            return error
        }
    }
}
