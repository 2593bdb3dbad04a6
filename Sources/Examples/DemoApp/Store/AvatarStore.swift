import Footlight
import Foundation
import GRDB

/// The accounts' pictures: files in a folder the server serves under ``path`` (a
/// served folder), each under a fresh random name, so a browser may cache it for good;
/// which account shows which is in the kiosk's database.
public final class AvatarStore: Sendable {
    /// The path the pictures are served under.
    public static let path = "/avatars/"
    /// The folder the pictures lie in.
    public let directory: String
    private let database: KioskDatabase

    /// The pictures in `directory` (made when missing), recorded in `database`.
    public init(database: KioskDatabase, directory: String) throws(StoreError) {
        try KioskDatabase.makeDirectory(directory)
        self.database = database
        self.directory = directory
    }

    /// Throwaway pictures, in a fresh temporary folder and a database in memory: for
    /// tests and the examples app.
    public convenience init() {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("footlight-avatars-\(UUID())").path
        // The temporary folder is writable, or nothing in this process works.
        try! self.init(database: KioskDatabase(), directory: folder)
    }

    /// The address of the picture `email`'s account shows, or nil for none.
    public func picture(of email: String) -> String? {
        let file = try? database.writer.read { db in
            try String.fetchOne(db, sql: "SELECT file FROM avatar WHERE email = ?", arguments: [email])
        }
        return file.map { Self.path + $0 }
    }

    /// Makes the uploaded `file` the picture of `email`'s account, in place of the one it
    /// had (whose file is removed), and returns its address. Moves the file, so call it
    /// while handling ``UploadEvent/finished(_:)``: the server removes the upload after.
    public func keep(_ file: UploadedFile, for email: String) throws(StoreError) -> String {
        let name = "\(UUID().uuidString.lowercased()).\(Self.fileExtension(of: file.type))"
        let target = directory + "/" + name
        // A rename when the upload folder is on the same file system; else a copy.
        if rename(file.path, target) != 0 {
            do {
                try FileManager.default.copyItem(atPath: file.path, toPath: target)
            } catch {
                throw StoreError("the picture could not be kept in \(directory): \(error.localizedDescription)")
            }
        }
        let previous: String?
        do {
            previous = try database.writer.write { db in
                let previous = try String.fetchOne(
                    db, sql: "SELECT file FROM avatar WHERE email = ?", arguments: [email])
                try db.execute(
                    sql: """
                        INSERT INTO avatar (email, file, keptAt) VALUES (?, ?, ?)
                        ON CONFLICT(email) DO UPDATE SET file = excluded.file, keptAt = excluded.keptAt
                        """, arguments: [email, name, Date().timeIntervalSince1970])
                return previous
            }
        } catch {
            unlink(target)
            throw StoreError("the picture could not be recorded in \(database.location): \(error)")
        }
        if let previous { unlink(directory + "/" + previous) }
        return Self.path + name
    }

    /// The media types a picture may have.
    public static let types = ["image/png", "image/jpeg", "image/gif", "image/webp"]

    private static func fileExtension(of type: String) -> String {
        switch type.lowercased() {
        case "image/png": "png"
        case "image/jpeg": "jpg"
        case "image/gif": "gif"
        case "image/webp": "webp"
        default: "bin"
        }
    }
}
