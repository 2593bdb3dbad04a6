extension Wire {
    /// `{"t":"type","key":`: the text a hand-framed message of `type` starts with, up to
    /// the value of its first member `key` (for writers that frame messages themselves,
    /// as the patch's shared encoding and the load tools do).
    package static func opening(_ type: String, _ key: Key) -> [UInt8] {
        Array(#"{"\#(Key.type.rawValue)":"\#(type)","\#(key.rawValue)":"#.utf8)
    }

    /// `,"key":`: the text before the value of a member after the first.
    package static func member(_ key: Key) -> [UInt8] {
        Array(#","\#(key.rawValue)":"#.utf8)
    }

    /// `{"t":"type"`: how every message of `type` starts, as the server writes it.
    package static func prefix(_ type: String) -> [UInt8] {
        Array(#"{"\#(Key.type.rawValue)":"\#(type)""#.utf8)
    }
}
