import Footlight
import FootlightJSON

/// The fixed texts of one stage's template in one language, by key: a stage binds them
/// to its slot `t`, and the template names them (`data-text="t.title"`). The key `lang`
/// holds the language's tag, for the template's `lang` attribute.
///
/// Made once per language: every session in that language shares the same JSON.
public struct PageText: ViewValue, Equatable, Sendable {
    /// The texts by key.
    public let texts: [String: String]
    public let viewJSON: JSON

    /// `texts` in the language `language`.
    public init(_ language: KioskLanguage, _ texts: [String: String]) {
        var texts = texts
        texts["lang"] = language.rawValue
        self.texts = texts
        let members = texts.sorted { $0.key < $1.key }.map { ($0.key, JSON.string($0.value)) }
        viewJSON = .object(JSONObject(uniqueKeysWithValues: members))
    }

    public subscript(key: String) -> String? { texts[key] }

    public static func == (lhs: PageText, rhs: PageText) -> Bool { lhs.texts == rhs.texts }
}

extension Stage {
    /// Binds the fixed texts of this stage's template, `page` of the strings of the
    /// session's `language`, to `slot` (`t` unless said otherwise).
    func bindTexts(
        _ page: KeyPath<KioskStrings, PageText> & Sendable, language: AnyPublisher<KioskLanguage, Never>,
        to slot: String = "t"
    ) {
        bind(language.removeDuplicates().map { $0.strings[keyPath: page] }, to: slot)
    }

    /// Binds the texts of the page around the stages (``KioskStrings/sitePage``) to the
    /// slot `site`: a full page's template hands them to the `site-text` hook, which
    /// sets the header, the skip link and the document's language.
    func bindSiteTexts(language: AnyPublisher<KioskLanguage, Never>) {
        bindTexts(\.sitePage, language: language, to: "site")
    }
}
