/// What an upload binding tells its Director, file by file: the upload began, bytes
/// arrived, the file is complete, or it failed.
public enum UploadEvent: Sendable, Equatable {
    /// The server took the file's description and waits for its bytes.
    case started(UploadProgress)
    /// Bytes arrived (a few times per file: at most once per hundredth of it).
    case progress(UploadProgress)
    /// Every byte arrived and passed the checks.
    case finished(UploadedFile)
    /// The file was refused or lost; nothing of it is kept.
    case failed(UploadError)
}

/// How far one file's upload is.
public struct UploadProgress: Sendable, Equatable {
    /// The upload's id, the same in every event about this file.
    public let id: String
    /// The file's name on the visitor's machine (only for showing).
    public let name: String
    /// The bytes the server holds.
    public let received: Int
    /// The file's size.
    public let total: Int

    public init(id: String, name: String, received: Int, total: Int) {
        self.id = id
        self.name = name
        self.received = received
        self.total = total
    }

    /// `received` over `total`, from 0 to 1 (1 for an empty file).
    public var fraction: Double { total == 0 ? 1 : Double(received) / Double(total) }
}

/// A file that arrived whole. It lies in the server's upload directory until the
/// session ends, and is then removed: move or copy it to keep it.
public struct UploadedFile: Sendable, Equatable {
    /// The upload's id (as in its progress).
    public let id: String
    /// The file's name on the visitor's machine: for showing only, never as a path.
    public let name: String
    /// Its media type: the one its bytes show when the server knows the type by them
    /// (a GIF named `.png` is `image/gif`), else the one the browser declared.
    public let type: String
    /// Its size in bytes.
    public let size: Int
    /// Where it lies on the server.
    public let path: String

    public init(id: String, name: String, type: String, size: Int, path: String) {
        self.id = id
        self.name = name
        self.type = type
        self.size = size
        self.path = path
    }
}

/// Why a file was not uploaded.
///
/// Match on ``kind`` (`error.kind == .tooLarge`): its static members can grow without
/// breaking a `switch` that has a `default`. ``description`` is the readable message.
public struct UploadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of failure.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case tooLarge = "too-large"
            case tooManyFiles = "too-many-files"
            case typeNotAccepted = "type-not-accepted"
            case badDescription = "bad-description"
            case busy, abandoned, storage, cancelled
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// Larger than ``UploadLimits/maximumBytes``.
        public static let tooLarge = Kind(.tooLarge)
        /// More files than ``UploadLimits/maximumFiles``.
        public static let tooManyFiles = Kind(.tooManyFiles)
        /// A type ``UploadLimits/types`` does not accept, declared or found in its bytes.
        public static let typeNotAccepted = Kind(.typeNotAccepted)
        /// The page described a file the server cannot take (no name, a negative size).
        public static let badDescription = Kind(.badDescription)
        /// The server holds as many unfinished uploads as it allows; try later.
        public static let busy = Kind(.busy)
        /// The bytes stopped coming and the upload was given up.
        public static let abandoned = Kind(.abandoned)
        /// The server could not store the file (disk full, directory gone).
        public static let storage = Kind(.storage)
        /// The page cancelled the upload: the visitor chose Cancel, or chose other files
        /// for the same input while it was on its way. Nothing to tell the visitor.
        public static let cancelled = Kind(.cancelled)

        /// A short code for the failure ("too-large").
        public var code: String { value.rawValue }
        public var description: String { code }
    }

    public let kind: Kind
    /// The file's name on the visitor's machine, when the error is about one file.
    public let file: String?
    public let message: String

    public init(_ kind: Kind, file: String?, _ message: String) {
        self.kind = kind
        self.file = file
        self.message = message
    }

    public var description: String { message }
}
