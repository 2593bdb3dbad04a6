import Dispatch
import Footlight
import FootlightJSON
import FootlightTesting
import Testing

// The probe scene and helpers of the SceneTester tests.

/// The comments of the issues `body` records, each expected (a known issue).
func failures(_ body: () -> Void) -> [String] {
    let recorded = Locked<[String]>([])
    withKnownIssue {
        body()
    } matching: { issue in
        recorded.withLock { $0.append(issue.comments.map(\.rawValue).joined(separator: "\n")) }
        return true
    }
    return recorded.withLock { $0 }
}

/// A count, a label and a forecast (from `weather`), with events for the first two; one
/// opens a URL, one the about page (two commands), one delays work on the session's
/// executor, one schedules a reminder on the test clock, and one keeps the executor busy
/// for as long as `spinning`.
struct TallyScene: Scene {
    var spinning = Locked(false)
    var weather: Weather?

    func makeStage(context: Context) -> Stage {
        let stage = Stage(name: "tally")
        let executor = context.environment.executor
        let add = PassthroughSubject<Void, Never>()
        let rename = PassthroughSubject<String, Never>()
        let forecast = PassthroughSubject<String, Never>()
        stage.bind(add.scan(0) { count, _ in count + 1 }.prepend(0), to: "count")
        stage.bind(rename.prepend("none"), to: "label")
        stage.bind(forecast.prepend("…"), to: "forecast")
        stage.on("add", send: add)
        stage.on("rename", send: rename)
        if let weather {
            nonisolated(unsafe) let forecast = forecast  // used only on the session's executor
            stage.keep(weather.subscribe(on: executor) { forecast.send($0) })
        }
        // Used only on the session's executor.
        nonisolated(unsafe) let renameLater = rename
        let spinning = spinning
        stage.on(
            "both",
            perform: { (_: JSON) in
                add.send()
                rename.send("both")
            })
        stage.on("visit", perform: { (_: JSON) in context.open(url: "https://example.com/") })
        stage.on(
            "about",
            perform: { (_: JSON) in
                context.open(url: "https://example.com/about")
                context.open(url: "https://example.com/")
            })
        stage.on(
            "later",
            perform: { (_: JSON) in
                _ = executor.execute(after: .milliseconds(50)) { renameLater.send("later") }
            })
        stage.on(
            "remind",
            perform: { (_: JSON) in
                _ = context.environment.clock.schedule(after: .seconds(60)) {}
            })
        stage.on(
            "spin",
            perform: { (_: JSON) in
                @Sendable func spin() {
                    if spinning.withLock({ $0 }) { executor.execute(spin) }
                }
                spin()
            })
        return stage
    }
}

/// A shared service: it publishes from a queue of its own, to each subscriber on its
/// session's executor, as a service shared by sessions does.
final class Weather: Sendable {
    private let subscribers = Locked<[Int: (any SessionExecutor, @Sendable (String) -> Void)]>([:])
    private let queue = DispatchQueue(label: "weather")

    func subscribe(on executor: any SessionExecutor, _ receive: @escaping @Sendable (String) -> Void)
        -> AnyCancellable
    {
        let id = subscribers.withLock { subscribers in
            let id = subscribers.count
            subscribers[id] = (executor, receive)
            return id
        }
        return AnyCancellable { [subscribers] in subscribers.withLock { _ = $0.removeValue(forKey: id) } }
    }

    /// Publishes `forecast` after `delay`, from the service's queue.
    func publish(_ forecast: String, after delay: DispatchTimeInterval) {
        queue.asyncAfter(deadline: .now() + delay) { [subscribers] in
            for (executor, receive) in subscribers.withLock({ Array($0.values) }) {
                executor.execute { receive(forecast) }
            }
        }
    }
}
