/// A libwebsockets connection, as its session writes to it.
extension ConnectionHandle: SessionConnection {
    package var home: any SessionLoop { loop }
}
