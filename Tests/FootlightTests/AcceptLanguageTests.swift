import Footlight
import Testing

@Suite struct AcceptLanguageTests {
    @Test("Ranges are read with their qualities, best first, ties in the header's order")
    func reading() {
        let header = AcceptLanguage("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.9, *;q=0.5")
        #expect(header.ranges.map(\.tag) == ["fr-ch", "fr", "de", "en", "*"])
        #expect(header.ranges.map(\.quality) == [1, 0.9, 0.9, 0.8, 0.5])
        #expect(header.refused.isEmpty)
    }

    @Test(
        "The best range that takes a supported language wins: exact, shortened or extended, any case",
        arguments: [
            ("de-AT,de;q=0.9,en;q=0.8", "de"),
            ("en-GB,en;q=0.9", "en"),
            ("fr-FR, fr;q=0.9, de;q=0.7, en;q=0.6", "de"),
            ("EN-us", "en"),
            ("DE", "de"),
            ("pt", "pt-BR"),
            ("es, *;q=0.1", "en"),
        ])
    func matching(header: String, expected: String) {
        #expect(AcceptLanguage(header).bestMatch(among: ["en", "de", "pt-BR"]) == expected)
    }

    @Test("Nothing matches: no header, other languages only, or every language refused")
    func noMatch() {
        #expect(AcceptLanguage(nil).bestMatch(among: ["en", "de"]) == nil)
        #expect(AcceptLanguage("").bestMatch(among: ["en", "de"]) == nil)
        #expect(AcceptLanguage("fr, ja;q=0.5").bestMatch(among: ["en", "de"]) == nil)
        #expect(AcceptLanguage("de;q=0, en;q=0").bestMatch(among: ["en", "de"]) == nil)
        #expect(AcceptLanguage("en;q=0, *").bestMatch(among: ["en", "de"]) == "de")
        #expect(AcceptLanguage("*;q=0").bestMatch(among: ["en", "de"]) == nil)
        #expect(AcceptLanguage("de-CH, de;q=0, en;q=0.5").bestMatch(among: ["en", "de"]) == "en")
    }

    @Test(
        "Malformed entries are skipped, the rest still count",
        arguments: [
            "de;q=2, en", "de;q=abc, en", "de;q=0.12345, en", "d e, en", "de_DE, en", "de;;, en",
            "123, en", "de-toolongsubtag, en", "de;level=1, en", ";q=1, en", "de-, en",
        ])
    func malformed(header: String) {
        #expect(AcceptLanguage(header).ranges.map(\.tag) == ["en"])
    }

    @Test("A hostile header is read only so far: the first 32 entries of its first KiB")
    func bounded() {
        let many = Array(repeating: "fr", count: 40).joined(separator: ",") + ",de"
        #expect(AcceptLanguage(many).ranges.count == 32)
        #expect(AcceptLanguage(many).bestMatch(among: ["de"]) == nil)
        let long = String(repeating: " ", count: 2_000) + "de"
        #expect(AcceptLanguage(long).ranges.isEmpty)
        // An entry cut at the limit is dropped, not read as what is left of it.
        let cut = String(repeating: " ", count: 1_014) + "fr, en;q=0.8"
        #expect(cut.utf8.count > 1_024)
        #expect(AcceptLanguage(cut).ranges.map(\.tag) == ["fr"])
        #expect(AcceptLanguage(cut).refused.isEmpty)
        let invalidUTF8Safe = AcceptLanguage("dé, en")
        #expect(invalidUTF8Safe.ranges.map(\.tag) == ["en"])
    }

    @Test("A session request reads its own header")
    func fromRequest() {
        let request = SessionRequest(headers: ["accept-language": "de-DE,de;q=0.9"])
        #expect(request.acceptLanguage.bestMatch(among: ["en", "de"]) == "de")
        #expect(SessionRequest().acceptLanguage.ranges.isEmpty)
    }
}
