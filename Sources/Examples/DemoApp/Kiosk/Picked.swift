import Footlight
import FootlightJSON

/// What the listings' choices carry: `{"id": "…"}`, naming the order, the lot or the
/// language the visitor picked.
struct Picked: EventValue, Equatable {
    let id: String

    init(eventJSON: JSON) throws(EventValueError) {
        if case .object(let members) = eventJSON, case .string(let id)? = members["id"] {
            self.id = id
        } else {
            throw EventValueError(expected: "an object with a string \"id\"", received: eventJSON)
        }
    }
}
