import FootlightServer
import FootlightTesting
import Testing

/// TLS itself is tested end to end in Tests/BrowserTests/test_tls.py (a certificate made
/// by openssl, verified by Python's ssl module, and Chromium over https and wss).
@Suite struct TLSConfigurationTests {
    @Test("A TLS file that cannot be read stops the server from starting, naming the file")
    func unreadableFiles() throws {
        let missing = "/nonexistent/footlight-test/cert.pem"
        #expect(
            throws: ServerError.configuration(
                "cannot read the TLS certificate at \(missing): No such file or directory")
        ) {
            try TestServer.start(
                configure: { $0.tls = TLSFiles(certificatePath: missing, privateKeyPath: missing) },
                stages: { _ in [] })
        }
    }
}
