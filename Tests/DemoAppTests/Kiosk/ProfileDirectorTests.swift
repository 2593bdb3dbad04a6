import DemoApp
import Footlight
import Foundation
import Testing

@Suite struct ProfileDirectorTests {
    @Test("Name, address and a short website label; tapping the website opens its URL")
    func profile() {
        let account = CurrentValueSubject<Account?, Never>(
            Account(email: "ada@example.com", name: "Ada Lovelace", website: "https://example.com/ada/"))
        let openWebsite = PassthroughSubject<Void, Never>()
        let trip = PassthroughSubject<Void, Never>()
        let signOut = PassthroughSubject<Void, Never>()
        let director = ProfileDirector(
            account: account.eraseToAnyPublisher(), openWebsite: openWebsite.eraseToAnyPublisher(),
            trip: trip.eraseToAnyPublisher(), signOut: signOut.eraseToAnyPublisher())
        var names: [String] = []
        var emails: [String?] = []
        var websites: [String?] = []
        var opened: [String] = []
        var trips = 0
        var signedOut = 0
        let subscriptions = [
            director.name.sink { names.append($0) }, director.email.sink { emails.append($0) },
            director.website.sink { websites.append($0) }, director.openURL.sink { opened.append($0) },
            director.showTrip.sink { trips += 1 }, director.signedOut.sink { signedOut += 1 },
        ]
        #expect(names == ["Ada Lovelace"])
        #expect(emails == ["ada@example.com"])
        #expect(websites == ["example.com/ada"])
        openWebsite.send()
        #expect(opened == ["https://example.com/ada/"])
        trip.send()
        #expect(trips == 1)
        signOut.send()
        #expect(signedOut == 1)

        // Signed out: nothing to open, no trip to show.
        account.send(nil)
        #expect(names == ["Ada Lovelace", "Signed out"])
        #expect(websites == ["example.com/ada", nil])
        openWebsite.send()
        trip.send()
        #expect(opened.count == 1)
        #expect(trips == 1)
        for subscription in subscriptions { subscription.cancel() }
    }

    @Test(
        "A picture: progress while on its way, kept for the account and shown; refusals say why in the page's language")
    func picture() throws {
        let account = CurrentValueSubject<Account?, Never>(
            Account(email: "ada@example.com", name: "Ada Lovelace", website: "https://example.com/ada/"))
        let language = CurrentValueSubject<KioskLanguage, Never>(.english)
        let upload = PassthroughSubject<UploadEvent, Never>()
        let store = AvatarStore()
        let director = ProfileDirector(
            account: account.eraseToAnyPublisher(), openWebsite: Empty().eraseToAnyPublisher(),
            trip: Empty().eraseToAnyPublisher(), signOut: Empty().eraseToAnyPublisher(),
            language: language.eraseToAnyPublisher(), pictureUpload: upload.eraseToAnyPublisher(),
            pictureOf: { store.picture(of: $0) }, keepPicture: { try? store.keep($0, for: $1) })
        var pictures: [String?] = []
        var progress: [Int?] = []
        var problems: [String?] = []
        let subscriptions = [
            director.picture.sink { pictures.append($0) }, director.pictureProgress.sink { progress.append($0) },
            director.pictureProblem.sink { problems.append($0) },
        ]
        #expect(pictures == [nil] && progress == [nil] && problems == [nil])

        // Refused by the server: said in the page's language, and again when it changes.
        upload.send(.failed(UploadError(.tooLarge, file: "big.png", "too large")))
        #expect(problems.last == "Choose a picture of at most 2 MB.")
        language.send(.german)
        #expect(problems.last == "Wählen Sie ein Bild von höchstens 2 MB.")
        upload.send(.failed(UploadError(.typeNotAccepted, file: "notes.png", "not a picture")))
        #expect(problems.last == "Wählen Sie ein PNG-, JPEG-, GIF- oder WebP-Bild.")

        // On its way, then kept: the problem goes, the bar goes, the picture shows.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("upload-\(UUID())").path
        let bytes = Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3])
        #expect(FileManager.default.createFile(atPath: file, contents: bytes))
        upload.send(.started(UploadProgress(id: "u1", name: "me.png", received: 0, total: 7)))
        #expect(problems.last == .some(nil) && progress.last == 0)
        upload.send(.progress(UploadProgress(id: "u1", name: "me.png", received: 3, total: 7)))
        #expect(progress.last == 42)
        upload.send(.finished(UploadedFile(id: "u1", name: "me.png", type: "image/png", size: 7, path: file)))
        #expect(progress.last == .some(nil))
        let address = try #require(pictures.last ?? nil)
        #expect(address.hasPrefix(AvatarStore.path) && address.hasSuffix(".png"))
        #expect(store.picture(of: "ada@example.com") == address)
        let kept = store.directory + "/" + address.dropFirst(AvatarStore.path.count)
        #expect(FileManager.default.contents(atPath: kept) == bytes)
        #expect(!FileManager.default.fileExists(atPath: file), "moved, not copied")

        // A second picture replaces the first, whose file goes.
        #expect(FileManager.default.createFile(atPath: file, contents: Data([0xFF, 0xD8, 0xFF])))
        upload.send(.finished(UploadedFile(id: "u2", name: "me.jpg", type: "image/jpeg", size: 3, path: file)))
        #expect(pictures.last??.hasSuffix(".jpg") == true)
        #expect(!FileManager.default.fileExists(atPath: kept))

        // Signed out: no picture, and a file arriving then is not kept.
        account.send(nil)
        #expect(pictures.last == .some(nil))
        #expect(FileManager.default.createFile(atPath: file, contents: bytes))
        upload.send(.finished(UploadedFile(id: "u3", name: "me.png", type: "image/png", size: 7, path: file)))
        #expect(problems.last == "Das Bild konnte nicht gespeichert werden. Versuchen Sie es erneut.")
        for subscription in subscriptions { subscription.cancel() }
    }

    @Test(
        "A picture cancelled on its way (Cancel, or another chosen): the bar goes, no problem is said, the picture stays"
    )
    func cancelledPicture() {
        let upload = PassthroughSubject<UploadEvent, Never>()
        let director = ProfileDirector(
            account: Just(Account(email: "ada@example.com", name: "Ada", website: "https://example.com/ada/"))
                .eraseToAnyPublisher(),
            openWebsite: Empty().eraseToAnyPublisher(), trip: Empty().eraseToAnyPublisher(),
            signOut: Empty().eraseToAnyPublisher(), pictureUpload: upload.eraseToAnyPublisher(),
            pictureOf: { _ in "/avatars/old.png" })
        var pictures: [String?] = []
        var progress: [Int?] = []
        var problems: [String?] = []
        let subscriptions = [
            director.picture.sink { pictures.append($0) }, director.pictureProgress.sink { progress.append($0) },
            director.pictureProblem.sink { problems.append($0) },
        ]
        upload.send(.started(UploadProgress(id: "u1", name: "first.png", received: 0, total: 7)))
        upload.send(.failed(UploadError(.cancelled, file: "first.png", "the upload was cancelled in the page")))
        #expect(progress == [nil, 0, nil])
        #expect(problems == [nil])
        #expect(pictures == ["/avatars/old.png"])
        for subscription in subscriptions { subscription.cancel() }
    }
}
