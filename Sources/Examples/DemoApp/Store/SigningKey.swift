import Foundation

/// The key a server signs its cookies and resume tokens with, kept in the data
/// directory (`signing.key`, 32 random bytes, readable by the owner only) so that a
/// visitor's cookie still names them after a restart. Made on first use.
public enum SigningKey {
    /// The key file's name in a data directory.
    public static let fileName = "signing.key"
    static let byteCount = 32

    /// The key in `directory` (which must exist), made if there is none.
    public static func load(in directory: String) throws(StoreError) -> [UInt8] {
        let path = URL(fileURLWithPath: directory).appendingPathComponent(fileName).path
        if let data = FileManager.default.contents(atPath: path) {
            guard data.count == byteCount else {
                throw StoreError(
                    "\(path) holds \(data.count) bytes, not a \(byteCount)-byte key; delete it to make a new one (visitors are then signed out)"
                )
            }
            return Array(data)
        }
        guard FileManager.default.isReadableFile(atPath: path) || !FileManager.default.fileExists(atPath: path) else {
            throw StoreError("\(path) cannot be read")
        }
        var generator = SystemRandomNumberGenerator()
        let key = (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        // Written under a temporary name, then linked into place: a crash leaves no
        // half-written key, and a key another process made meanwhile is kept.
        let temporary = path + ".\(getpid()).new"
        defer { unlink(temporary) }
        guard
            FileManager.default.createFile(
                atPath: temporary, contents: Data(key), attributes: [.posixPermissions: 0o600])
        else {
            throw StoreError("cannot write the signing key \(path): \(String(cString: strerror(errno)))")
        }
        if link(temporary, path) != 0 {
            guard errno == EEXIST else {
                throw StoreError("cannot write the signing key \(path): \(String(cString: strerror(errno)))")
            }
            return try load(in: directory)
        }
        return key
    }
}
