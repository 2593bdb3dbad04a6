"""The kiosk in the visitor's language, in a real browser: a German browser gets German pages
(its Accept-Language header), and the listings' switch changes every stage's texts and how
money, counts, times and dates are written."""

import re

from playwright.sync_api import expect

from conftest import Proxy, _running_server

from test_history import flight as flight_stage, profile as profile_stage
from test_kiosk import FAILED_HANDSHAKE, dialog, listings, lot_page, open_kiosk  # noqa: F401 (a fixture)

GERMAN_MONEY = re.compile(r"^[0-9]{1,3}(\.[0-9]{3})*,\d\d\u00a0\$$")
ENGLISH_MONEY = re.compile(r"^\$[0-9]{1,3}(,[0-9]{3})*\.\d\d$")


def switch(app, name: str):
    button = listings(app).get_by_role("button", name=name, exact=True)
    button.click()
    expect(button).to_have_attribute("aria-pressed", "true")


def open_lot(app, title: str):
    listings(app).locator(".lot-open", has_text=title).click()
    expect(lot_page(app).get_by_role("heading", name=title)).to_be_visible()


def back(app, label: str):
    app.page.get_by_role("button", name=label).click()


GERMAN_TAGLINE = "Jede Ansicht dieser Seite lebt auf einem Swift-Server; die Seite bindet nur, was er sendet."
ENGLISH_TAGLINE = "Every view on this page lives on a Swift server; the page only binds what it sends."


def check_site(app, lang: str):
    """The page around the stages (its language, header and skip link) speaks `lang`."""
    german = lang == "de"
    expect(app.page.locator("html")).to_have_attribute("lang", lang)
    expect(app.page.locator(".site-header h1")).to_have_text("Footlight Auktionen" if german else "Footlight Auctions")
    expect(app.page.locator(".site-header p")).to_have_text(GERMAN_TAGLINE if german else ENGLISH_TAGLINE)
    expect(app.page.locator(".skip-link")).to_have_text("Zum Inhalt springen" if german else "Skip to content")


def check_german_stages(app):
    """Every kiosk stage a signed-in visitor reaches, in German."""
    page = listings(app)
    expect(page.get_by_role("heading", name="Angebotene Lose")).to_be_visible()
    expect(page.locator("article.kiosk")).to_have_attribute("lang", "de")
    expect(app.page).to_have_title("Footlight Auktionen")
    check_site(app, "de")
    expect(page.get_by_role("button", name="Meiste Gebote")).to_be_visible()
    first = page.locator(".lot").first
    expect(first.locator(".lot-number")).to_have_text("Los 1")
    expect(first.locator(".lot-bid strong")).to_have_text(GERMAN_MONEY)
    # Time left on a lot still open however long the session's kiosk has run (lot 1 closes
    # after 4 minutes, and reads "Beendet" then).
    later = page.locator(".lot").nth(4)
    expect(later.locator(".lot-number")).to_have_text("Los 5")
    expect(later.locator(".lot-time")).to_have_text(re.compile(r"\d+ (Min\.|Std\.|s|T)"))
    expect(first.locator(".art")).to_have_attribute("aria-label", re.compile(r" von "))

    open_lot(app, "Night Ferry")
    lot = lot_page(app)
    expect(app.page).to_have_title("Night Ferry · Footlight Auktionen")
    expect(lot.locator("article")).to_have_attribute("lang", "de")
    check_site(app, "de")
    expect(lot.locator(".lot-medium")).to_have_text("Holzschnitt, 1962")
    expect(lot.locator(".lot-count")).to_have_text(re.compile(r"(Keine Gebote|\d+ Gebote?)$"))
    expect(lot.locator(".lot-current")).to_have_text(GERMAN_MONEY)
    amount = lot.get_by_label("Ihr Gebot")
    amount.press_sequentially("1.250,505", delay=60)  # three decimals: refused, in German
    expect(lot.locator(".field-error")).to_have_text("Höchstens zwei Nachkommastellen (Cent).")
    amount.fill("")
    minimum = lot.locator("#bid-hint span").nth(1).inner_text()
    amount.press_sequentially(minimum.replace("\u00a0$", ""), delay=60)
    submit = lot.get_by_role("button", name="Gebot abgeben")
    expect(submit).to_be_enabled()
    submit.press("Enter")
    expect(lot.locator(".message")).to_have_text(f"Ihr Gebot von {minimum} ist das höchste.")
    expect(lot.locator(".standing")).to_have_text("Sie haben das höchste Gebot.")
    expect(lot.locator(".bid-chart figcaption")).to_contain_text("Gebot")
    app.screenshot("language-german-lot")
    back(app, "Alle Lose")

    listings(app).locator(".account-name").click()
    profile = profile_stage(app)
    expect(profile.get_by_role("button", name="Abmelden")).to_be_visible()
    profile.get_by_role("button", name="Ihre Reise zur Auktion").click()
    flight = flight_stage(app)
    expect(flight.get_by_role("heading", name="Ihre Reise zur Auktion")).to_be_visible()
    expect(flight.locator(".flight-label").first).to_have_text("Abflug")
    expect(flight.locator(".flight-duration")).to_contain_text("Stunden")
    expect(flight.locator(".flight-day").first).to_have_text(re.compile(r"^\w\w\.,? \d+\. \w+\.?$"))
    check_site(app, "de")
    back(app, "Profil")
    back(app, "Alle Lose")


def test_a_german_browser_gets_german_pages_and_the_switch_changes_every_stage(open_kiosk):
    app = open_kiosk(locale="de-DE")
    page = listings(app)
    expect(page.get_by_role("heading", name="Angebotene Lose")).to_be_visible()
    app.screenshot("language-german-listings")

    # Signing in, in German: the dialog, a refusal, then in.
    page.get_by_role("button", name="Anmelden").click()
    form = dialog(app, "Anmelden")
    form.get_by_label("E-Mail").fill("ada@example.com")
    form.get_by_label("Passwort").fill("not her password")
    form.get_by_role("button", name="Anmelden").click()
    expect(form.locator(".message")).to_have_text("Anmeldung fehlgeschlagen: E-Mail oder Passwort stimmt nicht.")
    form.get_by_label("Passwort").fill("lovelace1843")
    form.get_by_role("button", name="Anmelden").click()
    expect(app.page.locator("#footlight-modal")).to_be_hidden()
    expect(page.locator(".account-name")).to_contain_text("Ada Lovelace")

    check_german_stages(app)

    # The switch: English everywhere, at once on the listings, on every stage after.
    switch(app, "English")
    expect(page.get_by_role("heading", name="Lots on offer")).to_be_visible()
    expect(page.locator("article.kiosk")).to_have_attribute("lang", "en")
    expect(app.page).to_have_title("Footlight Auctions")
    check_site(app, "en")
    expect(page.locator(".lot").first.locator(".lot-bid strong")).to_have_text(ENGLISH_MONEY)
    expect(page.get_by_role("button", name="Most bids")).to_be_visible()
    open_lot(app, "Night Ferry")
    lot = lot_page(app)
    expect(lot.locator(".lot-current")).to_have_text(ENGLISH_MONEY)
    expect(lot.locator(".lot-medium")).to_have_text("Woodblock print, 1962")
    expect(lot.locator(".standing")).to_have_text("You have the highest bid.")
    expect(lot.get_by_label("Your bid")).to_be_visible()
    back(app, "All lots")
    listings(app).locator(".account-name").click()
    profile = profile_stage(app)
    profile.get_by_role("button", name="Your trip to the auction").click()
    flight = flight_stage(app)
    expect(flight.locator(".flight-duration")).to_contain_text("hours")
    check_site(app, "en")
    back(app, "Profile")
    back(app, "All lots")

    # And back to German: the switch goes both ways, and the stages follow again.
    switch(app, "Deutsch")
    check_german_stages(app)
    app.screenshot("language-german-again")


def test_a_german_link_that_names_nothing_and_the_sign_up_dialog(open_kiosk):
    lost = open_kiosk("/nowhere", locale="de")
    expect(lost.page.get_by_role("heading", name="Hier ist nichts")).to_be_visible()
    lost.page.get_by_role("button", name="Alle Lose").click()
    expect(listings(lost).get_by_role("heading", name="Angebotene Lose")).to_be_visible()

    app = open_kiosk("/lots/lot-2", locale="de-CH")
    lot_page(app).get_by_role("button", name="Zum Bieten anmelden").click()
    form = dialog(app, "Konto anlegen, um mitzubieten")
    email = form.get_by_label("E-Mail")
    email.press_sequentially("grace@", delay=40)
    expect(form.locator("#signup-email-error")).to_have_text(
        "Geben Sie eine E-Mail-Adresse wie name@example.com ein.")


def test_a_browser_asking_for_another_language_gets_english(open_kiosk):
    app = open_kiosk(locale="fr-FR")
    expect(listings(app).get_by_role("heading", name="Lots on offer")).to_be_visible()
    expect(listings(app).get_by_role("button", name="English", exact=True)).to_have_attribute("aria-pressed", "true")


def test_the_choice_holds_after_a_reload_and_in_a_new_tab(open_kiosk):
    app = open_kiosk(locale="de-DE")
    switch(app, "English")
    app.wait_settled()
    app.page.reload()
    app.wait_joined(("listings",))
    expect(listings(app).get_by_role("heading", name="Lots on offer")).to_be_visible()
    expect(listings(app).get_by_role("button", name="English", exact=True)).to_have_attribute("aria-pressed", "true")
    # A new tab of the same browser (its visitor cookie) opens in English too.
    tab = app.page.context.new_page()
    tab.goto(app.base + "/lots/lot-6")
    expect(tab.get_by_role("button", name="All lots")).to_be_visible()
    expect(tab).to_have_title("Night Ferry · Footlight Auctions")


def test_the_runtime_speaks_the_pages_language_offline_too(through, visit):
    """The banner's texts come from the page (#footlight-texts), in the shown stages' language:
    they are needed most when the server cannot be reached."""
    proxy = through(0.0)
    app, _ = visit(proxy, "/lots/lot-5", locale="de-DE")
    app.allow_errors(FAILED_HANDSHAKE)
    own = app.page.evaluate("() => JSON.parse(document.getElementById('footlight-texts').textContent).de")
    runtime = app.page.evaluate("() => Object.keys(FootlightConstants).filter((k) => k.startsWith('TEXT_'))")
    assert sorted(own) == sorted(runtime), "the page gives every runtime text in German"
    proxy.up = False
    assert proxy.cut() >= 1
    banner = app.page.locator("#footlight-banner")
    expect(banner).to_have_text("Verbindung wird wiederhergestellt…")
    expect(banner).to_have_attribute("lang", "de")
    # A reload that reaches the page but not the server shows no stage: the banner speaks the
    # language the stages spoke before.
    proxy.up = True
    proxy.refuse_websockets = True
    app.page.reload()
    expect(banner).to_have_text("Verbindung wird wiederhergestellt…")
    assert app.page.locator("#footlight-outlet [lang]").count() == 0, "no stage shown"
    proxy.refuse_websockets = False
    app.page.evaluate("dispatchEvent(new Event('online'))")
    app.wait_for("(s) => s.joined && s.unacknowledged === 0")
    expect(banner).to_be_empty()


def test_a_reload_shows_the_page_around_the_stages_in_the_visitors_language_before_any_stage(through, visit):
    """On a slow network the first stage arrives a few round trips after the page is painted; the
    header, the skip link and the document's language are those the visitor last saw, not English,
    until then. Here the server is not reached at all after the reload."""
    proxy = through(0.1)
    app, _ = visit(proxy, "/", locale="de-DE")
    app.allow_errors(FAILED_HANDSHAKE)
    expect(listings(app).get_by_role("heading", name="Angebotene Lose")).to_be_visible()
    check_site(app, "de")
    proxy.refuse_websockets = True
    app.page.reload()
    assert app.page.locator("#footlight-outlet [lang]").count() == 0, "no stage shown"
    check_site(app, "de")
    # And the other way: after the switch to English, a reload keeps English.
    proxy.refuse_websockets = False
    app.page.evaluate("dispatchEvent(new Event('online'))")
    app.wait_joined(("listings",))
    switch(app, "English")
    check_site(app, "en")
    proxy.refuse_websockets = True
    app.page.reload()
    check_site(app, "en")


def test_a_first_german_visit_shows_the_page_around_the_stages_in_german_before_any_stage(open_app,
                                                                                         tmp_path_factory):
    """A first visit has no texts kept: the browser's languages (its Accept-Language) pick the
    header's, before the socket. Here the server's WebSocket is never reached, and the page is
    sent as it is on disk (first content off: with it, the stages come with the page, below)."""
    with _running_server(tmp_path_factory, "kiosk-plain", "--app", "auction", "--no-first-content") as plain:
        proxy = Proxy(plain.port, delay=0.1)
        proxy.refuse_websockets = True
        try:
            app = open_app(base=proxy.url, path=None, root_stages=("listings",), locale="de-DE")
            app.allow_errors(FAILED_HANDSHAKE)
            app.page.goto(proxy.url + "/")
            assert app.page.locator("#footlight-outlet [lang]").count() == 0, "no stage shown"
            check_site(app, "de")
            app.screenshot("kiosk-first-german-frame")
        finally:
            proxy.close()


def test_a_first_german_visit_gets_its_stages_in_german_with_the_page(through, open_app):
    """With first content the page's answer carries the stages, made for the browser's
    languages (the GET's Accept-Language), before the socket: never reached here."""
    proxy = through(0.1)
    proxy.refuse_websockets = True
    app = open_app(base=proxy.url, path=None, root_stages=("listings",), locale="de-DE")
    app.allow_errors(FAILED_HANDSHAKE)
    app.page.goto(proxy.url + "/")
    # The listings' article (its language switch's buttons each say their own).
    expect(app.page.locator("#footlight-outlet article.kiosk")).to_have_attribute("lang", "de")
    check_site(app, "de")
