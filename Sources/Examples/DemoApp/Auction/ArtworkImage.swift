import Footlight
import FootlightJSON

/// The display form of a lot's placeholder image: what the page needs to draw it
/// (a kind and a hue for the stylesheet, initials to print on it) and its alt text.
public struct ArtworkImage: ViewValue, Equatable, Sendable {
    /// The kind of picture, e.g. "seascape" (for a `data-kind` attribute).
    public let kind: String
    /// The hue in degrees, as text (for a CSS custom property).
    public let hue: String
    /// The title's initials, e.g. "HD".
    public let initials: String
    /// The alternative text: "Harbour at Dusk by Inès Moreau (seascape)".
    public let alt: String

    /// The placeholder of `lot`, its alternative text in `language`.
    public init(lot: Lot, language: KioskLanguage = .fallback) {
        let strings = language.strings
        kind = lot.artwork.kind.rawValue
        hue = String(lot.artwork.hue)
        initials = Self.initials(of: lot.title)
        alt = strings.artworkAlt(lot.title, lot.artist, strings.artworkKind(lot.artwork.kind))
    }

    /// Adds `style`, the hue as a CSS custom property (`--art-hue: 215`) for a `style` attribute.
    public var viewJSON: JSON {
        [
            "kind": .string(kind), "hue": .string(hue), "initials": .string(initials), "alt": .string(alt),
            "style": .string("--art-hue: \(hue)"),
        ]
    }

    /// The first letters of up to the first two words that start with a letter,
    /// skipping "The", "A", "An", "of", "in", "with".
    static func initials(of title: String) -> String {
        let skipped: Set<String> = ["the", "a", "an", "of", "in", "with", "at", "over"]
        let words = title.split(separator: " ").filter { word in
            guard let first = word.first, first.isLetter else { return false }
            return !skipped.contains(word.lowercased())
        }
        return String(words.prefix(2).compactMap { $0.first.map { Character($0.uppercased()) } })
    }
}
