import Dispatch
import Footlight
import FootlightJSON
import FootlightTesting
import Testing

/// A visitor's notes, shared by the visitor's sessions: "add" appends one.
private struct NotesScene: Scene {
    let notes: SharedState<VisitorID, [String]>

    func makeStage(context: Context) -> Stage {
        let visitor = context.environment.request.visitor ?? VisitorID(rawValue: "nobody")
        let add = PassthroughSubject<String, Never>()
        let stage = Stage(name: "notes")
        stage.bind(notes.publisher(for: visitor, on: context.environment.executor), to: "notes")
        stage.on("add", send: add)
        stage.keep(add.sink { [notes] note in notes.update(visitor) { $0.append(note) } })
        return stage
    }
}

@Suite struct SharedStateTests {
    private static func session(_ notes: SharedState<VisitorID, [String]>, visitor: String) -> SceneTester {
        let scene = NotesScene(notes: notes)
        let tester = SceneTester(
            { context, _ in context.show(scene) }, request: SessionRequest(visitor: VisitorID(rawValue: visitor)))
        tester.exhaustivity = .off()
        return tester
    }

    @Test(
        "Sessions of one visitor, each on its own executor, see the visitor's value live; another visitor's are apart")
    func perVisitor() throws {
        let notes = SharedState<VisitorID, [String]>(initial: [])
        let (tab1, tab2, other) = (
            Self.session(notes, visitor: "v1"), Self.session(notes, visitor: "v1"), Self.session(notes, visitor: "v2")
        )
        let stage = try #require(tab1.stageIDs.first)
        tab1.send("add", to: stage, value: "milk")
        tab2.send("add", to: try #require(tab2.stageIDs.first), value: "eggs")
        for tester in [tab1, tab2] {
            tester.settle()
            #expect(tester.document(try #require(tester.stageIDs.first))?["notes"] == ["milk", "eggs"])
        }
        other.settle()
        #expect(other.document(try #require(other.stageIDs.first))?["notes"] == [])
        #expect(notes.value(for: VisitorID(rawValue: "v1")) == ["milk", "eggs"])
        #expect(notes.subscriberCount == 3)
    }

    @Test("Updates from many threads are atomic, saved in order, and delivered in order on each subscriber's executor")
    func manyThreads() {
        let saved = Locked<[Int]>([])
        let counter = SharedState<String, Int>(
            load: { _ in 0 }, save: { _, value in saved.withLock { $0.append(value) } })
        let key = DispatchSpecificKey<Int>()
        let queues = (0..<4).map { index in
            let queue = DispatchQueue(label: "session-\(index)")
            queue.setSpecific(key: key, value: index)
            return queue
        }
        let received = Locked<[[Int]]>(Array(repeating: [], count: queues.count))
        let misplaced = Locked(0)
        var subscriptions: [AnyCancellable] = []
        for (index, queue) in queues.enumerated() {
            queue.sync {
                subscriptions.append(
                    counter.publisher(for: "hits", on: queue).sink { value in
                        if DispatchQueue.getSpecific(key: key) != index { misplaced.withLock { $0 += 1 } }
                        received.withLock { $0[index].append(value) }
                    })
            }
        }
        DispatchQueue.concurrentPerform(iterations: 200) { _ in counter.update("hits") { $0 += 1 } }
        for queue in queues { queue.sync {} }
        #expect(counter.value(for: "hits") == 200)
        #expect(saved.withLock { $0 } == Array(1...200))
        #expect(misplaced.withLock { $0 } == 0)
        for values in received.withLock({ $0 }) { #expect(values == Array(0...200)) }
        for (queue, subscription) in zip(queues, subscriptions) { queue.sync { subscription.cancel() } }
        #expect(counter.subscriberCount == 0)
    }

    @Test("A session that ends lets go of its subscription, and a delivery already queued does not reach it")
    func releasedWithTheSession() throws {
        let notes = SharedState<VisitorID, [String]>(initial: [])
        let visitor = VisitorID(rawValue: "v1")
        do {
            let tester = Self.session(notes, visitor: "v1")
            tester.settle()
            #expect(notes.subscriberCount == 1)
        }
        #expect(notes.subscriberCount == 0, "the session is gone, and its subscription with it")

        let queue = DispatchQueue(label: "session")
        let received = Locked<[[String]]>([])
        nonisolated(unsafe) var subscription: AnyCancellable?
        queue.sync {
            subscription = notes.publisher(for: visitor, on: queue).sink { value in
                received.withLock { $0.append(value) }
            }
        }
        queue.sync {
            // The update queues a delivery behind this work; the session ends before it runs.
            notes.update(visitor) { $0.append("late") }
            subscription?.cancel()
        }
        queue.sync {}
        #expect(received.withLock { $0 } == [[]], "the value at subscription only")
        #expect(notes.subscriberCount == 0)
    }

    @Test("At most maximumKeys values are held: the least recently used unwatched ones go, and come back from load")
    func bounded() {
        let loads = Locked<[String]>([])
        let store = Locked<[String: Int]>([:])
        let counts = SharedState<String, Int>(
            maximumKeys: 2,
            load: { key in
                loads.withLock { $0.append(key) }
                return store.withLock { $0[key] ?? 0 }
            },
            save: { key, value in store.withLock { $0[key] = value } })
        let queue = DispatchQueue(label: "session")
        nonisolated(unsafe) var watched: AnyCancellable?
        queue.sync { watched = counts.publisher(for: "a", on: queue).sink { _ in } }
        counts.update("a") { $0 += 1 }
        counts.update("b") { $0 += 2 }
        counts.update("c") { $0 += 3 }  // drops "b", unwatched; never "a", watched
        #expect(counts.heldKeys == 2)
        #expect(counts.value(for: "b") == 2, "read again from the store")
        #expect(loads.withLock { $0 } == ["a", "b", "c", "b"])
        #expect(counts.value(for: "a") == 1)
        for key in 0..<100 { counts.update("k\(key)") { $0 += 1 } }
        #expect(counts.heldKeys <= 2, "never over the bound")
        #expect(counts.value(for: "a") == 1, "the watched value stays")
        #expect(counts.value(for: "k0") == 1, "an unwatched one comes back from the store")
        queue.sync { watched?.cancel() }
    }

    @Test("State for everyone: one value, one publisher")
    func everyone() {
        let visits = SharedState<Everyone, Int>(initial: 0)
        let queue = DispatchQueue(label: "session")
        let received = Locked<[Int]>([])
        nonisolated(unsafe) var subscription: AnyCancellable?
        queue.sync {
            subscription = visits.publisher(on: queue).sink { value in received.withLock { $0.append(value) } }
        }
        #expect(
            visits.update {
                $0 += 1
                return $0
            } == 1)
        visits.update { $0 += 1 }
        queue.sync { subscription?.cancel() }
        #expect(received.withLock { $0 } == [0, 1, 2])
        #expect(visits.value == 2)
    }
}
