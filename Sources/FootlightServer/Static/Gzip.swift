import CZlib

/// gzip (RFC 1952) through zlib, for static files sent to browsers that accept it.
enum Gzip {
    /// `bytes` compressed at zlib's best level.
    static func compress(_ bytes: [UInt8]) throws(AssetError) -> [UInt8] {
        var stream = z_stream()
        guard footlight_deflate_init_gzip(&stream, Z_BEST_COMPRESSION) == Z_OK else {
            throw AssetError("zlib could not start a gzip stream")
        }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 32)
        var input = bytes
        let status = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = uInt(inputBuffer.count)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = uInt(outputBuffer.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else {
            throw AssetError("zlib could not compress \(bytes.count) bytes (status \(status))")
        }
        output.removeLast(Int(stream.avail_out))
        return output
    }
}
