import Footlight

/// The profile's logic: the signed-in user's name, address and website, and what the
/// user asked for (open the website, see the trip, sign out) as scene outputs.
public final class ProfileDirector {
    /// The name, or "Signed out".
    public let name: AnyPublisher<String, Never>
    /// The sign-in address, or nil when signed out.
    public let email: AnyPublisher<String?, Never>
    /// The website as a short label ("example.com/ada"), or nil when signed out.
    public let website: AnyPublisher<String?, Never>
    /// Scene output: the website's URL to open.
    public let openURL: AnyPublisher<String, Never>
    /// Scene output: the user asked for the trip.
    public let showTrip: AnyPublisher<Void, Never>
    /// Scene output: the user signed out.
    public let signedOut: AnyPublisher<Void, Never>
    /// The address of the account's picture, or nil for none (or signed out).
    public let picture: AnyPublisher<String?, Never>
    /// How far the picture on its way is, in percent; nil when none is.
    public let pictureProgress: AnyPublisher<Int?, Never>
    /// Why the last picture chosen was not kept, in the page's language; nil once one is.
    public let pictureProblem: AnyPublisher<String?, Never>

    public init(
        account accountInput: AnyPublisher<Account?, Never>, openWebsite: AnyPublisher<Void, Never>,
        trip: AnyPublisher<Void, Never>, signOut: AnyPublisher<Void, Never>,
        language: AnyPublisher<KioskLanguage, Never> = Just(.fallback).eraseToAnyPublisher(),
        pictureUpload: AnyPublisher<UploadEvent, Never> = Empty().eraseToAnyPublisher(),
        pictureOf: @escaping (_ email: String) -> String? = { _ in nil },
        keepPicture: @escaping (UploadedFile, _ email: String) -> String? = { _, _ in nil }
    ) {
        let account = accountInput.removeDuplicates().shareLatest()
        name = account.combineLatest(language) { $0?.name ?? $1.strings.signedOut }.removeDuplicates()
            .eraseToAnyPublisher()
        email = account.map { $0?.email }.removeDuplicates().eraseToAnyPublisher()
        website = account.map { $0.map { Self.label(of: $0.website) } }.removeDuplicates().eraseToAnyPublisher()
        openURL = openWebsite.withLatestFrom(account) { _, account in account?.website }
            .compactMap { $0 }
            .eraseToAnyPublisher()
        showTrip = trip.withLatestFrom(account) { _, account in account != nil }
            .filter { $0 }
            .map { _ in () }
            .eraseToAnyPublisher()
        signedOut = signOut
        // Shared: a finished file is kept once, whoever listens.
        let steps = pictureUpload.withLatestFrom(account) { event, account in
            PictureStep.step(for: event, email: account?.email, keep: keepPicture)
        }.share()
        picture = account.map { $0.flatMap { pictureOf($0.email) } }
            .merge(with: steps.compactMap { if case .kept(let address) = $0 { address } else { nil } })
            .removeDuplicates().eraseToAnyPublisher()
        pictureProgress = steps.map { if case .sending(let percent) = $0 { percent } else { nil } }
            .prepend(nil).removeDuplicates().eraseToAnyPublisher()
        pictureProblem = steps.map { step -> PictureProblem? in
            if case .failed(let problem) = step { problem } else { nil }
        }
        .prepend(nil).combineLatest(language) { problem, language in problem.map(language.strings.pictureProblem) }
        .removeDuplicates().eraseToAnyPublisher()
    }

    /// `url` without its scheme and trailing slash: "https://example.com/ada/" → "example.com/ada".
    static func label(of url: String) -> String {
        var text = Substring(url)
        for scheme in ["https://", "http://"] where text.hasPrefix(scheme) { text = text.dropFirst(scheme.count) }
        while text.hasSuffix("/") { text = text.dropLast() }
        return String(text)
    }
}
