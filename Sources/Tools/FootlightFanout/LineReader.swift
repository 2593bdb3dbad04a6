import Foundation

/// The lines a child process writes, read as they are asked for.
final class LineReader {
    private let handle: FileHandle
    private var buffer = Data()
    /// Lines read but not yet asked for, in order.
    private var waiting: [String] = []

    init(_ handle: FileHandle) {
        self.handle = handle
    }

    /// The first line (read earlier or waited for) that starts with one of `prefixes`;
    /// the lines before it that do not are kept for later. Nil when the output ends.
    func next(startingWith prefixes: [String]) -> String? {
        func matches(_ line: String) -> Bool { prefixes.contains { line.hasPrefix($0) } }
        if let index = waiting.firstIndex(where: matches) { return waiting.remove(at: index) }
        while true {
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                if matches(line) { return line }
                waiting.append(line)
            }
            let more = handle.availableData
            if more.isEmpty { return nil }
            buffer.append(more)
        }
    }
}
