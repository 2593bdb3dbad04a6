/// Media types known by their first bytes, so a file cannot pass as a type it is not.
enum MediaType {
    /// The type `head` (a file's first bytes) shows, or nil when it is none of those known.
    static func sniffed(_ head: [UInt8]) -> String? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + prefix.count && Array(head[offset..<offset + prefix.count]) == prefix
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "image/gif" }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return "image/webp" }
        if starts(Array("%PDF-".utf8)) { return "application/pdf" }
        return nil
    }

    /// The types ``sniffed(_:)`` tells: a file declared as one of them must have its bytes.
    static let known: Set<String> = ["image/png", "image/jpeg", "image/gif", "image/webp", "application/pdf"]

    /// The first bytes read to sniff a type.
    static let headLength = 12
}
