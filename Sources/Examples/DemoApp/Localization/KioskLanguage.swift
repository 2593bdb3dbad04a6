import Footlight
import FootlightJSON
import Foundation

/// A language the kiosk speaks: its strings (``KioskStrings``) and the conventions its
/// numbers, money and dates follow (``locale``).
///
/// A session starts in the language its browser asks for first (``preferred(by:)``)
/// and the visitor can change it on the listings page (``KioskSession/language``).
public enum KioskLanguage: String, CaseIterable, Sendable {
    case english = "en"
    case german = "de"

    /// The language of a browser that asks for none the kiosk speaks.
    public static let fallback = english

    /// The language `request`'s `Accept-Language` header suits best, or ``fallback``.
    public static func preferred(by request: SessionRequest) -> KioskLanguage {
        let tag = request.acceptLanguage.bestMatch(among: allCases.map(\.rawValue))
        return tag.flatMap { KioskLanguage(rawValue: $0) } ?? fallback
    }

    /// The language named by its tag ("de"), ignoring case; nil for one the kiosk does not speak.
    public init?(tag: String) {
        self.init(rawValue: tag.lowercased())
    }

    /// The language's texts.
    public var strings: KioskStrings {
        switch self {
        case .english: .english
        case .german: .german
        }
    }

    /// The language's name in itself: "English", "Deutsch" (as the switch shows it).
    public var name: String {
        switch self {
        case .english: "English"
        case .german: "Deutsch"
        }
    }

    /// The conventions Foundation's formatters follow in this language.
    public var locale: Locale {
        switch self {
        case .english: Self.englishLocale
        case .german: Self.germanLocale
        }
    }

    /// The conventions dates follow: British English ("Tue 3 Dec") or German.
    public var dateLocale: Locale {
        switch self {
        case .english: Self.britishLocale
        case .german: Self.germanLocale
        }
    }

    /// The character between groups of three digits: "," or ".".
    public var groupingSeparator: Character {
        switch self {
        case .english: ","
        case .german: "."
        }
    }

    /// The character before the cents: "." or ",".
    public var decimalSeparator: Character {
        switch self {
        case .english: "."
        case .german: ","
        }
    }

    private static let englishLocale = Locale(identifier: "en_US")
    private static let britishLocale = Locale(identifier: "en_GB")
    private static let germanLocale = Locale(identifier: "de_DE")
}

/// One choice of the language switch: `{"id", "name", "pressed", "lang"}`.
public struct LanguageChoice: ViewValue, Equatable, Sendable {
    /// The language.
    public let language: KioskLanguage
    /// Whether it is the session's language.
    public let selected: Bool

    /// Every language the kiosk speaks, `selected` marked.
    public static func all(selected: KioskLanguage) -> [LanguageChoice] {
        KioskLanguage.allCases.map { LanguageChoice(language: $0, selected: $0 == selected) }
    }

    public var viewJSON: JSON {
        [
            "id": .string(language.rawValue), "name": .string(language.name), "lang": .string(language.rawValue),
            "pressed": .string(String(selected)),
        ]
    }
}
