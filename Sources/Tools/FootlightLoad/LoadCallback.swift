import CLibWebSockets

/// The client protocol's callback: routes each libwebsockets event to the
/// ``LoadGenerator`` that owns the context and the connection the user pointer names.
func loadCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let user, let owner = lws_context_user(lws_get_context(wsi)) else { return 0 }
    let generator = Unmanaged<LoadGenerator>.fromOpaque(owner).takeUnretainedValue()
    let id = Int(bitPattern: user) - 1
    guard generator.isConnection(id) else { return 0 }
    switch reason {
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        generator.established(id, wsi: wsi)
    case LWS_CALLBACK_CLIENT_RECEIVE:
        generator.received(id, wsi: wsi, UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length))
    case LWS_CALLBACK_CLIENT_WRITEABLE:
        return generator.writeable(id, wsi: wsi)
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        var text = "close frame without a code"
        if let bytes = input?.assumingMemoryBound(to: UInt8.self), length >= 2 {
            let code = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
            let reason = String(decoding: UnsafeBufferPointer(start: bytes + 2, count: length - 2), as: UTF8.self)
            text = "close \(code) \"\(reason)\""
        }
        generator.peerClosing(id, text)
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        let text = input.map {
            String(decoding: UnsafeRawBufferPointer(start: $0, count: length).prefix { $0 != 0 }, as: UTF8.self)
        }
        generator.ended(id, error: text ?? "connection failed")
    case LWS_CALLBACK_CLIENT_CLOSED, LWS_CALLBACK_WSI_DESTROY:
        generator.ended(id, error: nil)
    default:
        break
    }
    return 0
}

/// Wakes the service loop every few milliseconds, so phases with no traffic (settling,
/// holding idle sessions, timeouts) still get to check the clock. Lives in C memory:
/// the sul libwebsockets schedules, followed by the context to schedule it on.
final class Ticker {
    fileprivate static let period: lws_usec_t = 5_000
    private let memory: UnsafeMutableRawPointer
    private var sul: UnsafeMutablePointer<lws_sorted_usec_list_t> {
        memory.assumingMemoryBound(to: lws_sorted_usec_list_t.self)
    }

    init() {
        let size = MemoryLayout<lws_sorted_usec_list_t>.stride + MemoryLayout<OpaquePointer?>.stride
        memory = .allocate(byteCount: size, alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: size)
    }

    /// Starts ticking on `context` (on its service thread).
    func start(on context: OpaquePointer) {
        memory.storeBytes(
            of: context, toByteOffset: MemoryLayout<lws_sorted_usec_list_t>.stride, as: OpaquePointer?.self)
        lws_sul_schedule(context, 0, sul, tickerFired, Self.period)
    }

    /// Stops ticking; call before the context is destroyed.
    func stop() {
        lws_sul_cancel(sul)
    }

    deinit {
        memory.deallocate()
    }
}

/// The ticker's sul callback: schedules the next tick.
private func tickerFired(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul else { return }
    let context = UnsafeMutableRawPointer(sul).load(
        fromByteOffset: MemoryLayout<lws_sorted_usec_list_t>.stride, as: OpaquePointer?.self)
    if let context { lws_sul_schedule(context, 0, sul, tickerFired, Ticker.period) }
}
