import Footlight
import FootlightJSON
import FootlightServer
import Testing

extension SceneTester {
    // MARK: Steps

    /// Sends an event from the page. Unasserted changes of the previous step fail the
    /// test first. Returns the error a refused event gets, if any.
    @discardableResult
    public func send(
        _ event: String, to stageID: String, value: JSON? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) -> StageEventError? {
        checkNothingUnasserted(before: "sending \"\(event)\"", sourceLocation)
        let failure: StageEventError? = run { () -> StageEventError? in
            guard mirror.template(of: stageID) != nil else {
                Issue.record(
                    "no stage \"\(stageID)\" is shown (shown: \(mirror.stages.map(\.id) + mirror.components.keys.sorted()))",
                    sourceLocation: sourceLocation)
                return nil
            }
            lastEventError = nil
            let message = ClientMessage.Event(number: nextEvent, stage: stageID, name: event, value: value)
            nextEvent += 1
            perform(state.receive(message, now: .now))
            flush()
            return lastEventError
        }
        settle(sourceLocation: sourceLocation)
        return failure
    }

    /// Moves the test clock forward, running what comes due, in order.
    public func advance(by duration: Duration, sourceLocation: SourceLocation = #_sourceLocation) {
        checkNothingUnasserted(before: "advancing the clock", sourceLocation)
        let deadline = clock.now + duration
        while let action = clock.takeNext(dueBy: deadline) {
            run {
                action()
                flush()
            }
            settle(sourceLocation: sourceLocation)
        }
    }
}
