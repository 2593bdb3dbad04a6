/// A page with its first content: the page's bytes with the messages a join would have
/// sent (`joined`, the mounts) added as data, which the runtime takes as if the socket
/// had brought them. Nothing is rendered: the page's markup is left as it is.
enum FirstContentPage {
    /// The `id` of the element holding the messages, which `transport.js` looks for.
    static let elementID = "footlight-first"

    /// `page` with `messages` as a JSON array in
    /// `<script type="application/json" id="footlight-first">`, just before the last
    /// `</body>` (at the end when there is none).
    static func embed(_ messages: [WireMessage], in page: [UInt8]) -> [UInt8] {
        var element = Array(#"<script type="application/json" id="\#(elementID)">["#.utf8)
        for (index, message) in messages.enumerated() {
            if index > 0 { element.append(UInt8(ascii: ",")) }
            element += escaped(message.bytes)
        }
        element += Array("]</script>\n".utf8)
        var page = page
        page.insert(contentsOf: element, at: bodyEnd(in: page) ?? page.endIndex)
        return page
    }

    /// JSON text made safe inside a `<script>` element: `<`, `>` and `&` (so no
    /// `</script>` or `<!--` in a string ends or bends the element) and U+2028 and U+2029
    /// (line ends to older JavaScript) as `\u` escapes. Outside strings JSON has none of
    /// them, so the text means the same.
    static func escaped(_ json: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(json.count + 16)
        var index = json.startIndex
        while index < json.endIndex {
            let byte = json[index]
            switch byte {
            case UInt8(ascii: "<"): out += Array(#"\u003c"#.utf8)
            case UInt8(ascii: ">"): out += Array(#"\u003e"#.utf8)
            case UInt8(ascii: "&"): out += Array(#"\u0026"#.utf8)
            case 0xE2
            where index + 2 < json.endIndex && json[index + 1] == 0x80
                && (json[index + 2] == 0xA8 || json[index + 2] == 0xA9):
                out += Array((json[index + 2] == 0xA8 ? #"\u2028"# : #"\u2029"#).utf8)
                index += 2
            default: out.append(byte)
            }
            index += 1
        }
        return out
    }

    /// Where the last `</body>` starts (any case), if the page has one.
    private static func bodyEnd(in page: [UInt8]) -> Int? {
        let tag = Array("</body".utf8)
        var index = page.count - tag.count
        while index >= 0 {
            if zip(page[index..<index + tag.count], tag).allSatisfy({ $0 | 0x20 == $1 | 0x20 }) { return index }
            index -= 1
        }
        return nil
    }
}
