import CLibWebSockets

/// Wakes a caller-serviced client loop every `interval`, so ``WebSocketClientLoop/serviceOnce()``
/// returns even with no traffic. Lives in C memory: the sul libwebsockets schedules,
/// followed by the interval and the context to schedule it on again.
final class WakeTimer {
    private let memory: UnsafeMutableRawPointer
    private var sul: UnsafeMutablePointer<lws_sorted_usec_list_t> {
        memory.assumingMemoryBound(to: lws_sorted_usec_list_t.self)
    }
    private static let intervalOffset = MemoryLayout<lws_sorted_usec_list_t>.stride
    private static let contextOffset = intervalOffset + MemoryLayout<lws_usec_t>.stride

    /// Starts waking `context`'s service every `interval`; on its service thread.
    init(interval: Duration, on context: OpaquePointer) {
        let size = Self.contextOffset + MemoryLayout<OpaquePointer?>.stride
        memory = .allocate(byteCount: size, alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        let microseconds = max(1, Int64(interval / .microseconds(1)))
        memory.storeBytes(of: lws_usec_t(microseconds), toByteOffset: Self.intervalOffset, as: lws_usec_t.self)
        memory.storeBytes(of: context, toByteOffset: Self.contextOffset, as: OpaquePointer?.self)
        lws_sul_schedule(context, 0, sul, wakeTimerFired, lws_usec_t(microseconds))
    }

    /// Stops waking; call before the context is destroyed.
    func stop() {
        lws_sul_cancel(sul)
    }

    deinit {
        memory.deallocate()
    }

    /// The timer's sul callback: schedules the next wake-up.
    fileprivate static func fired(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>) {
        let memory = UnsafeMutableRawPointer(sul)
        let interval = memory.load(fromByteOffset: intervalOffset, as: lws_usec_t.self)
        let context = memory.load(fromByteOffset: contextOffset, as: OpaquePointer?.self)
        if let context { lws_sul_schedule(context, 0, sul, wakeTimerFired, interval) }
    }
}

/// The sul callback (a C function pointer, so it captures nothing).
private func wakeTimerFired(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    if let sul { WakeTimer.fired(sul) }
}
