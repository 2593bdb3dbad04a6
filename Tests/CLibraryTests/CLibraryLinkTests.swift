import CJansson
import CLibWebSockets
import Testing

/// The system library targets link against Debian's packages and their shims work.
@Suite struct CLibraryLinkTests {
    @Test("jansson is the 2.14 line the codec was written against")
    func janssonVersion() {
        let version = String(cString: jansson_version_str())
        #expect(version.hasPrefix("2.14"), "found jansson \(version)")
        #expect(footlight_json_parser_max_depth() == 2048)
        #expect(footlight_json_real_precision(17) == 17 << 11)
    }

    @Test("libwebsockets creates and destroys a context")
    func webSocketContext() throws {
        lws_set_log_level(LLL_ERR, nil)
        var info = lws_context_creation_info()
        info.port = footlight_lws_port_no_listen()
        info.options = UInt64(LWS_SERVER_OPTION_DISABLE_IPV6)
        let context = try #require(lws_create_context(&info), "lws_create_context returned NULL")
        lws_context_destroy(context)
    }

    @Test("LWS_PRE from the shim matches libwebsockets 4.1's padding of 16 bytes")
    func sendHeadroom() {
        #expect(footlight_lws_pre() == 16)
        #expect(String(cString: lws_get_library_version()).hasPrefix("4.1"))
    }
}
