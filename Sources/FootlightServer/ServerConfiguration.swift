import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// How a ``Server`` listens, what it serves, and its limits.
public struct ServerConfiguration: Sendable {
    /// The address to listen on: an IPv4 or IPv6 literal. Only this address is bound
    /// (never a wildcard unless asked for with "0.0.0.0" or "::").
    public var host: String = "127.0.0.1"
    /// The TCP port; 0 picks a free one (read it back from ``Server/port``).
    public var port: Int = 8080
    /// The folder served over HTTP (the page, its script and stylesheet).
    public var publicDirectory: String
    /// The path of the WebSocket endpoint.
    public var webSocketPath: String = "/ws"
    /// Origins allowed to open a WebSocket, exactly as browsers send them
    /// ("http://127.0.0.1:8080"). Nil allows only the server's own origin: its scheme
    /// (https with ``tls``, else http) and the `Host` the request was sent to. Requests
    /// without an `Origin` are refused. Behind a TLS-terminating proxy, list the
    /// public https origin here.
    public var allowedOrigins: [String]?
    /// Service loops (threads running libwebsockets); each takes a share of the
    /// connections. Defaults to one per core.
    public var loops: Int = max(1, System.coreCount)
    /// How long one turn of a session's app code (a Director handling an event, a
    /// service's update, a timer) may hold its service loop. Sessions run on the loop
    /// that owns their connection; a turn still running after this long makes the loop
    /// go on on a fresh thread, and its session move to a queue of its own, so the
    /// loop's other sessions wait about this long at most. See the Threading article.
    public var turnBudget: Duration = .milliseconds(5)
    /// How long a graceful shutdown (``Server/run()`` told to stop, or ``Server/shutdown()``)
    /// waits for the sessions' turns to finish and for every page, told the server is going
    /// away, to close its socket, before it stops the loops anyway.
    public var drainTimeout: Duration = .seconds(2)
    /// The largest inbound WebSocket message; bigger ones close with 1009. The page is
    /// told it in `joined` and refuses a larger event at its control.
    public var maximumMessageBytes: Int = Self.defaultMaximumMessageBytes
    /// 64 KiB.
    public static let defaultMaximumMessageBytes = 64 << 10
    /// Messages from one connection waiting for its session before the server stops
    /// reading that connection (until the session has handled half of them).
    public var maximumQueuedMessages: Int = 256
    /// Open WebSocket and HTTP connections accepted at once; more are refused at accept
    /// (an HTTP 503 answer, then close) and logged.
    public var maximumConnections: Int = 20_000
    /// Open connections accepted at once from one IP address; more are refused at accept
    /// like those over ``maximumConnections``, so one client cannot take them all. Clients
    /// behind one proxy or NAT share an address: raise it for them.
    public var maximumConnectionsPerClient: Int = 1_000
    /// Seconds a new connection may hold a header buffer without finishing its request
    /// headers before it is closed (libwebsockets' `timeout_secs_ah_idle`): what frees
    /// the sockets of a slowloris attack (RELIABILITY.md T6). 0 is read as 1.
    public var headerTimeoutSeconds: UInt16 = 10
    /// Seconds of WebSocket silence before a ping, and before hanging up.
    public var pingAfterIdleSeconds: UInt16 = 20
    public var hangUpAfterIdleSeconds: UInt16 = 30
    /// A path for a plain echo endpoint (subprotocol ``echoSubprotocol`` or none, any origin),
    /// or nil for none. For benchmarks (the transport floor) and conformance runs only.
    public var echoPath: String?
    /// Per-session bounds.
    public var sessionLimits = SessionLimits()
    /// Folders served under paths of their own besides the public folder: files the app
    /// writes while it runs, such as pictures visitors uploaded.
    public var servedFolders: [ServedFolder] = []
    /// Where uploaded files lie and how many may be under way (see ``Stage/upload(_:limits:send:)``).
    public var uploads = UploadConfiguration()
    /// The key resume tokens and visitor cookies are signed with (HMAC-SHA256), at least
    /// 32 bytes; nil picks a random key per process, so every visitor's cookie is void
    /// after a restart. Give a key kept across restarts (the demo keeps one in its data
    /// directory) for visitors, and what belongs to them, to outlive the process.
    public var resumeTokenKey: [UInt8]?
    /// Whether `error` messages tell clients the details (which stage, which events it
    /// has, the type expected). Off by default: clients get the error code and a generic
    /// message, and the details go to the log only. Turn it on while developing.
    public var sendsErrorDetails = false
    /// Development mode, as `scripts/dev` runs an app: the server checks the scenes'
    /// bindings against the page's templates at start, and open pages get what helps
    /// while editing (server warnings in the browser console, the compiler's errors in an
    /// overlay, a reload that keeps the page). Only a debug build has it: in a release
    /// build (``developmentAvailable`` false) the server ignores it and logs that it did.
    public var development = false
    /// In development mode, the development channel open pages listen to (an EventSource
    /// address, which `scripts/dev` serves and gives its server in the environment variable
    /// `FOOTLIGHT_DEV_CHANNEL`, this property's default): pages then load the development
    /// script (`/footlight/dev.js`, never part of the runtime's bundle), which shows the
    /// compiler's errors, brings a changed template, stylesheet or hook into the page in place,
    /// reconnects at once after a restart, and writes the server's warnings to the console.
    /// Nil, or not in development mode: pages get no development script.
    public var developmentChannel: String? = getenv("FOOTLIGHT_DEV_CHANNEL").map { String(cString: $0) }
    /// Whether this build has development mode (a debug build: `swift build`, not
    /// `swift build -c release`). A release build serves no development features.
    public static var developmentAvailable: Bool {
        #if DEBUG
            true
        #else
            false
        #endif
    }
    /// In development mode, the addresses at which the bindings check at start shows the
    /// app (once each, as a visitor's first visit would, with no cookie) to learn its
    /// stages; a stage the app shows only after an event is checked when a path here
    /// names it (a deep link). See the Bindings article, "Checking bindings".
    public var bindingCheckPaths = ["/"]
    /// The development channel pages are given: ``developmentChannel`` in development mode in a
    /// debug build, else nil.
    var developmentChannelInUse: String? {
        development && Self.developmentAvailable ? developmentChannel : nil
    }
    /// TLS: serve `https://` and `wss://` with this certificate and key, or nil for
    /// plain `http://` and `ws://` (behind a TLS-terminating proxy, or on loopback).
    public var tls: TLSFiles?
    /// Where the server logs bad input, connections and failures.
    public var logger = Logger(label: "footlight")
    /// HTTP routes answered beside the pages and the WebSocket (a CSV download, a JSON
    /// list, a webhook): a path a route's pattern matches is the route's, before any
    /// file of the public folder. See the HTTP Routes article.
    public var routes = Routes()
    /// How many route handlers run at once, for how long, and the bodies they read.
    public var routeLimits = RouteLimits()
    /// First content in a page's first response: on by default, so a page shows its
    /// stages before its WebSocket is open (see ``FirstContentConfiguration``); set
    /// `firstContent.isEnabled` to false to send pages as they are on disk.
    public var firstContent = FirstContentConfiguration()

    /// A configuration serving `publicDirectory` on 127.0.0.1:8080.
    public init(publicDirectory: String) {
        self.publicDirectory = publicDirectory
    }

    /// The name of the WebSocket subprotocol, which carries the protocol version.
    public static let subprotocol = "footlight.v1"
    /// The echo endpoint's subprotocol.
    public static let echoSubprotocol = "footlight.echo"
}

/// The PEM files of a TLS server identity.
public struct TLSFiles: Sendable, Equatable {
    /// The certificate chain, server certificate first (PEM).
    public var certificatePath: String
    /// The certificate's private key (PEM, unencrypted).
    public var privateKeyPath: String

    public init(certificatePath: String, privateKeyPath: String) {
        self.certificatePath = certificatePath
        self.privateKeyPath = privateKeyPath
    }

    /// Checks that both files can be read, so a typo is reported by name (libwebsockets
    /// would only refuse to start).
    func checkReadable() throws(ServerError) {
        for (what, path) in [("certificate", certificatePath), ("private key", privateKeyPath)] {
            guard access(path, R_OK) == 0 else {
                throw .configuration("cannot read the TLS \(what) at \(path): \(String(cString: strerror(errno)))")
            }
        }
    }
}
