/// State that several sessions share: one value per key (a visitor's list, a room's
/// messages) or one for everyone, each session seeing it live on its own executor.
///
/// ```swift
/// // Once, for the whole server: each visitor's todos, kept in a store.
/// let todos = SharedState<VisitorID, [Todo]>(load: { store.todos(of: $0) }, save: { store.save($1, of: $0) })
///
/// // In a scene, for this session's visitor:
/// let visitor = context.environment.request.visitor ?? VisitorID(rawValue: "anonymous")
/// stage.bind(todos.publisher(for: visitor, on: context.environment.executor), to: "todos")
/// add.sink { title in todos.update(visitor) { $0.append(Todo(title: title)) } }
/// ```
///
/// Thread-safe: any session (any thread) reads and updates it. An update changes the
/// value at once, atomically, then hands the new value to every subscriber of its key
/// on the subscriber's executor (a session's), in the order of the updates; `save`
/// runs with it, in that order too. A publisher's subscription ends with its
/// subscriber (a stage's bindings end with the session), and nothing is delivered to
/// it after that.
///
/// Bounded: at most `maximumKeys` values are held. Beyond that, the values no session
/// watches are dropped, the least recently used first, and read again with `load`
/// when next needed; so a value that must outlive that has a store behind it
/// (`load` and `save`), and without one `maximumKeys` must cover every key.
///
/// Within one process: sessions on other nodes of a cluster see the store, not these
/// updates (announce changes with a ``PubSub`` there).
public final class SharedState<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Subscriber {
        let executor: any SessionExecutor
        let deliver: @Sendable (Value) -> Void
    }
    private struct Entry {
        var value: Value
        var subscribers: [Int: Subscriber] = [:]
        var lastUse: UInt64
    }
    private struct State {
        var entries: [Key: Entry] = [:]
        var nextID = 0
        var uses: UInt64 = 0
    }

    private let state = Locked(State())
    private let load: @Sendable (Key) -> Value
    private let save: (@Sendable (Key, Value) -> Void)?
    /// The most values held at once (those that subscribers watch are never dropped).
    public let maximumKeys: Int

    /// Shared values read with `load` when a key is first needed (or again after it was
    /// dropped), and written with `save` after each update.
    ///
    /// `load` and `save` run with the state's lock held, so that saves go in the order of
    /// the updates: keep them quick (a SQLite row), or hand the work off.
    public init(
        maximumKeys: Int = 10_000, load: @escaping @Sendable (Key) -> Value,
        save: (@Sendable (Key, Value) -> Void)? = nil
    ) {
        self.maximumKeys = max(1, maximumKeys)
        self.load = load
        self.save = save
    }

    /// Shared values that start as `initial` and live in memory only.
    public convenience init(initial: Value, maximumKeys: Int = 10_000) {
        self.init(maximumKeys: maximumKeys, load: { _ in initial })
    }

    /// The value for `key` now.
    public func value(for key: Key) -> Value {
        state.withLock { state in entry(key, in: &state).value }
    }

    /// Changes the value for `key` with `change`, atomically (no other update falls
    /// in between), saves it, and delivers it to the key's subscribers.
    /// - Returns: what `change` returns.
    @discardableResult
    public func update<Result>(_ key: Key, _ change: (inout Value) throws -> Result) rethrows -> Result {
        try state.withLock { state -> Result in
            var value = entry(key, in: &state).value
            let result = try change(&value)
            state.entries[key]!.value = value
            let changed = value
            save?(key, changed)
            for subscriber in state.entries[key]!.subscribers.values {
                let deliver = subscriber.deliver
                subscriber.executor.execute { deliver(changed) }
            }
            return result
        }
    }

    /// Replaces the value for `key` with `value` (see ``update(_:_:)``).
    public func set(_ key: Key, to value: Value) {
        update(key) { $0 = value }
    }

    /// The value for `key`: the current one when subscribed, then the new one after
    /// each update, delivered on `executor`. Subscribe on `executor` (a session's, where
    /// its Directors run): nothing is delivered before the subscription is in place,
    /// nor after it is cancelled.
    public func publisher(for key: Key, on executor: any SessionExecutor) -> AnyPublisher<Value, Never> {
        Deferred { [self] () -> AnyPublisher<Value, Never> in
            let subject = PassthroughSubject<Value, Never>()
            // The subject is sent to only on `executor`, where its subscriber lives (and
            // cancels: a delivery queued before that finds the subject with no subscriber).
            nonisolated(unsafe) let target = subject
            let (current, id) = state.withLock { state in
                let current = entry(key, in: &state).value
                let id = state.nextID
                state.nextID += 1
                state.entries[key]!.subscribers[id] = Subscriber(executor: executor) { value in target.send(value) }
                return (current, id)
            }
            return subject.prepend(current)
                .handleEvents(receiveCancel: { [weak self] in self?.unsubscribe(id, from: key) })
                .eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }

    /// How many subscriptions are live, over all keys (for tests and diagnostics).
    public var subscriberCount: Int { state.withLock { $0.entries.values.reduce(0) { $0 + $1.subscribers.count } } }

    /// How many values are held (for tests and diagnostics).
    public var heldKeys: Int { state.withLock { $0.entries.count } }

    private func unsubscribe(_ id: Int, from key: Key) {
        state.withLock { _ = $0.entries[key]?.subscribers.removeValue(forKey: id) }
    }

    /// The entry for `key`, loaded if it is not held (at the bound, dropping the least
    /// recently used unwatched ones first), marked as used now.
    private func entry(_ key: Key, in state: inout State) -> Entry {
        state.uses += 1
        if state.entries[key] != nil {
            state.entries[key]!.lastUse = state.uses
            return state.entries[key]!
        }
        if state.entries.count >= maximumKeys {
            let unwatched = state.entries.filter { $0.value.subscribers.isEmpty }
                .sorted { $0.value.lastUse < $1.value.lastUse }
            // Down to nine tenths of the bound, so that the sort is paid once per many loads.
            for (old, _) in unwatched.prefix(state.entries.count - maximumKeys * 9 / 10 + 1) {
                state.entries[old] = nil
            }
        }
        let fresh = Entry(value: load(key), lastUse: state.uses)
        state.entries[key] = fresh
        return fresh
    }
}

/// The one key of state shared by every session: `SharedState<Everyone, Int>`.
public enum Everyone: Hashable, Sendable {
    /// Every session.
    case everyone
}

extension SharedState where Key == Everyone {
    /// The value every session shares.
    public var value: Value { value(for: .everyone) }

    /// Changes the shared value with `change` (see ``update(_:_:)``).
    @discardableResult
    public func update<Result>(_ change: (inout Value) throws -> Result) rethrows -> Result {
        try update(.everyone, change)
    }

    /// The shared value, delivered on `executor` (see ``publisher(for:on:)``).
    public func publisher(on executor: any SessionExecutor) -> AnyPublisher<Value, Never> {
        publisher(for: .everyone, on: executor)
    }
}
