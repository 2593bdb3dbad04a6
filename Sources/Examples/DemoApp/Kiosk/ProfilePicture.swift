import Footlight

/// Why a picture chosen for the profile was not kept.
public enum PictureProblem: Sendable, Equatable {
    /// Larger than the limit, in megabytes.
    case tooLarge(megabytes: Int)
    /// Not a PNG, JPEG, GIF or WebP picture (by its declared type or its bytes).
    case notAPicture
    /// Lost on the way, or not stored.
    case notKept
}

/// The profile picture's upload, step by step, as the profile shows it.
enum PictureStep: Equatable {
    /// On its way: this many percent arrived.
    case sending(percent: Int)
    /// Kept: its address.
    case kept(String)
    case failed(PictureProblem)
    /// Cancelled in the page (Cancel, or another picture chosen): nothing to show.
    case cancelled

    /// What the profile picture's limits are: one picture of at most 2 MB.
    static let limits = UploadLimits(maximumBytes: 2 << 20, maximumFiles: 1, types: AvatarStore.types)

    /// The step an upload event makes; a finished file is kept for the account `email`
    /// by `keep` (which returns its address, or nil when it could not), unless signed
    /// out (nil).
    static func step(
        for event: UploadEvent, email: String?, keep: (UploadedFile, _ email: String) -> String?
    ) -> PictureStep {
        switch event {
        case .started: return .sending(percent: 0)
        case .progress(let progress): return .sending(percent: min(99, Int(progress.fraction * 100)))
        case .finished(let file):
            guard let email, let address = keep(file, email) else { return .failed(.notKept) }
            return .kept(address)
        case .failed(let error):
            switch error.kind {
            case .cancelled: return .cancelled
            case .tooLarge: return .failed(.tooLarge(megabytes: limits.maximumBytes >> 20))
            case .typeNotAccepted, .tooManyFiles: return .failed(.notAPicture)
            default: return .failed(.notKept)  // busy, abandoned, storage, and kinds to come
            }
        }
    }
}
