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
    /// Its media type, as the browser declared it and the server checked it.
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
public struct UploadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of failure.
    public enum Kind: String, Sendable {
        /// Larger than ``UploadLimits/maximumBytes``.
        case tooLarge = "too-large"
        /// More files than ``UploadLimits/maximumFiles``.
        case tooManyFiles = "too-many-files"
        /// A type ``UploadLimits/types`` does not accept, declared or found in its bytes.
        case typeNotAccepted = "type-not-accepted"
        /// The page described a file the server cannot take (no name, a negative size).
        case badDescription = "bad-description"
        /// The server holds as many unfinished uploads as it allows; try later.
        case busy
        /// The bytes stopped coming and the upload was given up.
        case abandoned
        /// The server could not store the file (disk full, directory gone).
        case storage
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
