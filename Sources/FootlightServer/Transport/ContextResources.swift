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

    init(protocols specs: [ProtocolSpec], pingAfter: UInt16, hangUpAfter: UInt16) {
        protocolCount = specs.count + 1
        protocols = .allocate(capacity: protocolCount)
        protocols.initialize(repeating: lws_protocols(), count: protocolCount)
        retryPolicy = .allocate(capacity: 1)
        retryPolicy.initialize(to: lws_retry_bo_t())
        retryPolicy.pointee.secs_since_valid_ping = pingAfter
        retryPolicy.pointee.secs_since_valid_hangup = max(hangUpAfter, pingAfter + 1)
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
