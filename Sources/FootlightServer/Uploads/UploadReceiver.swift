#if canImport(Glibc)
    import Glibc
#endif

/// Writes the body of one upload request to its file, as libwebsockets reads it, on
/// the loop thread that owns the request. Its registry decides whether the request
/// still counts (a newer ticket retires it) and reports progress.
final class UploadReceiver: RequestBodySink {
    private let registry: UploadRegistry
    let id: String
    private let generation: Int
    private var descriptor: Int32
    /// Where the next bytes go in the file.
    private var position: Int

    init(registry: UploadRegistry, id: String, generation: Int, descriptor: Int32, offset: Int) {
        self.registry = registry
        self.id = id
        self.generation = generation
        self.descriptor = descriptor
        position = offset
    }

    deinit {
        closeFile()
    }

    /// Writes `bytes`; the refusal that ends the request, if any.
    func write(_ bytes: UnsafeRawBufferPointer) -> HTTPRefusal? {
        guard descriptor >= 0 else { return HTTPRefusal(status: 409, "the request has ended") }
        var written = 0
        while written < bytes.count {
            let count = pwrite(
                descriptor, bytes.baseAddress! + written, bytes.count - written, off_t(position + written))
            if count < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                closeFile()
                registry.fail(id, .init(.storage, file: nil, "the server could not store the file: \(reason)"))
                return HTTPRefusal(status: 507, "the file cannot be written: \(reason)")
            }
            written += count
        }
        position += written
        guard registry.received(written, of: id, generation: generation) else {
            closeFile()
            return HTTPRefusal(status: 409, "a newer ticket replaced this one")
        }
        return nil
    }

    /// The body is complete: the refusal if the file does not pass, else nil.
    func finish() -> HTTPRefusal? {
        var head = [UInt8](repeating: 0, count: MediaType.headLength)
        let count = descriptor < 0 ? 0 : pread(descriptor, &head, head.count, 0)
        closeFile()
        return registry.finished(id, generation: generation, head: Array(head.prefix(max(0, count))))
    }

    /// The connection closed before the body was complete: the bytes written stay for
    /// a resume.
    func interrupt() {
        guard descriptor >= 0 else { return }
        closeFile()
        registry.interrupted(id, generation: generation)
    }

    private func closeFile() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }
}
