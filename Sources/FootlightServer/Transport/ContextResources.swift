import CLibWebSockets

#if canImport(Glibc)
    import Glibc
#endif

/// A libwebsockets protocol callback.
typealias LWSCallback =
    @convention(c) (
        OpaquePointer?, lws_callback_reasons, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int
    ) -> Int32

/// C memory a libwebsockets context keeps pointers into (protocol table, names,
/// retry policy). It must outlive the context; the loop releases it after destroying it.
///
/// The retry policy turns libwebsockets' own WebSocket liveness checks off: 4.1 keeps
/// every connection's check in one list sorted by insertion, walked from the start each
/// time a check is set again (on connect, on every ping and pong), so with 10,000
/// connections a third of a loop's time went to walking it. Servers check liveness with
/// one sweep a second instead (``ServiceLoop/startLivenessChecks(_:)``).
final class ContextResources {
    let protocols: UnsafeMutablePointer<lws_protocols>
    let protocolCount: Int
    let retryPolicy: UnsafeMutablePointer<lws_retry_bo_t>
    private var strings: [UnsafeMutablePointer<CChar>] = []

    struct ProtocolSpec {
        let name: String
        let callback: LWSCallback
        let perSessionDataSize: Int
        let rxBufferSize: Int
    }

    init(protocols specs: [ProtocolSpec]) {
        protocolCount = specs.count + 1
        protocols = .allocate(capacity: protocolCount)
        protocols.initialize(repeating: lws_protocols(), count: protocolCount)
        retryPolicy = .allocate(capacity: 1)
        // All zero: no validity checks (lws skips them when `secs_since_valid_hangup` is 0).
        retryPolicy.initialize(to: lws_retry_bo_t())
        for (index, spec) in specs.enumerated() {
            protocols[index].name = UnsafePointer(cString(spec.name))
            protocols[index].callback = spec.callback
            protocols[index].per_session_data_size = spec.perSessionDataSize
            protocols[index].rx_buffer_size = spec.rxBufferSize
        }
    }

    /// A C string that lives as long as these resources.
    func cString(_ text: String) -> UnsafeMutablePointer<CChar> {
        let copy = strdup(text)!
        strings.append(copy)
        return copy
    }

    deinit {
        protocols.deinitialize(count: protocolCount)
        protocols.deallocate()
        retryPolicy.deinitialize(count: 1)
        retryPolicy.deallocate()
        for string in strings { free(string) }
    }
}
