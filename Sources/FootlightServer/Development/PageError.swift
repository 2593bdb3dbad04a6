/// Why a page's templates could not be read: a tag, comment or template left open, a
/// stray end tag, a file that cannot be read.
///
/// Match on ``kind``; ``description`` names the file (when known) and the line.
public struct PageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of failure.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case unreadable, unterminated, unbalanced
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The file could not be read, or is not UTF-8.
        public static let unreadable = Kind(.unreadable)
        /// A tag, a quoted attribute value or a comment runs to the end of the file.
        public static let unterminated = Kind(.unterminated)
        /// A `<template>` is not closed, or a `</template>` closes none.
        public static let unbalanced = Kind(.unbalanced)

        public var description: String { value.rawValue }
    }
    /// The class of failure.
    public let kind: Kind
    /// The 1-based line where the problem starts (0 when it is the whole file's).
    public let line: Int
    /// A readable explanation.
    public let message: String
    /// The page's file, when read from one.
    public internal(set) var file: String?

    init(_ kind: Kind, line: Int, _ message: String) {
        self.kind = kind
        self.line = line
        self.message = message
    }

    public var description: String {
        let place = [file, line > 0 ? "line \(line)" : nil].compactMap { $0 }.joined(separator: ", ")
        return place.isEmpty ? message : "\(place): \(message)"
    }
}
