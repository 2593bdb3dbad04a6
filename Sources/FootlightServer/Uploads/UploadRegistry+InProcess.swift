extension UploadRegistry {
    /// Sends `body` to the ticket address `url` as a page's `PUT` does, `chunk` bytes per
    /// read, with no socket (for `SceneTester`), calling `afterEach` after each read: the
    /// HTTP status the request would get, 204 when the file was taken. Events reach the
    /// upload's session as they would from a request.
    package func put(_ url: String, body: [UInt8], chunk: Int, afterEach: () -> Void) -> Int {
        guard url.hasPrefix(UploadConfiguration.path) else { return 404 }
        let ticket = String(url.dropFirst(UploadConfiguration.path.count))
        let receiver: UploadReceiver
        switch self.receiver(ticket: ticket, contentLength: body.count) {
        case .failure(let refusal): return Int(refusal.status)
        case .success(let taken): receiver = taken
        }
        let step = max(1, chunk)
        for start in stride(from: 0, to: body.count, by: step) {
            let refusal = body[start..<min(body.count, start + step)].withUnsafeBytes { receiver.write($0) }
            if let refusal { return Int(refusal.status) }
            afterEach()
        }
        return receiver.finish().map { Int($0.status) } ?? 204
    }
}
