import CLibWebSockets

extension ServiceLoop {
    /// Service loop `index` of a server: its context adopts sockets (it listens on
    /// nothing itself) and serves the HTTP, Footlight and (if enabled) echo protocols.
    static func server(index: Int, delegate: any LoopDelegate, configuration: ServerConfiguration) throws(ServerError)
        -> ServiceLoop
    {
        let slot = MemoryLayout<UnsafeMutableRawPointer?>.size
        var protocols: [ContextResources.ProtocolSpec] = [
            // With the echo endpoint on, a handshake offering no subprotocol is bound
            // here and needs the same connection slot as the WebSocket protocols.
            .init(
                name: "http", callback: footlightHTTPCallback,
                perSessionDataSize: configuration.echoPath == nil ? 0 : slot, rxBufferSize: 0),
            .init(
                name: ServerConfiguration.subprotocol, callback: footlightSocketCallback, perSessionDataSize: slot,
                rxBufferSize: 2048),
        ]
        if configuration.echoPath != nil {
            protocols.append(
                .init(
                    name: ServerConfiguration.echoSubprotocol, callback: footlightEchoCallback,
                    perSessionDataSize: slot,
                    rxBufferSize: 4096))
        }
        let resources = ContextResources(protocols: protocols)
        nonisolated(unsafe) let pinned = resources  // handed to the loop thread once
        let loop = try ServiceLoop(name: "footlight-loop-\(index)", delegate: delegate) { user in
            var info = lws_context_creation_info()
            info.port = footlight_lws_port_no_listen_server()
            info.protocols = UnsafePointer(pinned.protocols)
            info.user = user
            info.options = UInt64(LWS_SERVER_OPTION_VALIDATE_UTF8) | UInt64(LWS_SERVER_OPTION_DISABLE_IPV6)
            info.retry_and_idle_policy = UnsafePointer(pinned.retryPolicy)
            info.timeout_secs = 10
            info.timeout_secs_ah_idle = UInt32(max(1, configuration.headerTimeoutSeconds))
            info.max_http_header_data = 8192
            info.vhost_name = UnsafePointer(pinned.cString("default"))
            if let tls = configuration.tls {
                // Adopted sockets then start with a TLS handshake (lws_adopt_socket_vhost
                // allows TLS on a vhost that has a certificate).
                info.options |= UInt64(LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT)
                info.ssl_cert_filepath = UnsafePointer(pinned.cString(tls.certificatePath))
                info.ssl_private_key_filepath = UnsafePointer(pinned.cString(tls.privateKeyPath))
            }
            return lws_create_context(&info)
        }
        loop.keepAlive(resources)
        loop.startLivenessChecks(
            LivenessPolicy(
                pingAfter: .seconds(configuration.pingAfterIdleSeconds),
                hangUpAfter: max(
                    .seconds(configuration.hangUpAfterIdleSeconds),
                    .seconds(configuration.pingAfterIdleSeconds) + .seconds(1)),
                logger: configuration.logger))
        return loop
    }
}
