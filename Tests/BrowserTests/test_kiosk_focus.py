"""Focus after the kiosk's actions lands on a control, never on the whole screen: the profile's
button after signing in (the "Sign in" button it replaces is hidden), the bid field after Place
bid (its button is disabled while the bid is on its way)."""

from playwright.sync_api import expect

from test_kiosk import listings, lot_page, open_kiosk, place_minimum_bid, sign_in_as_ada  # noqa: F401

FOCUSED = "() => { const el = document.activeElement; return el.id || el.className || el.tagName; }"


def test_signing_in_leaves_focus_on_the_profiles_button(open_kiosk):
    app = open_kiosk()
    sign_in_as_ada(app)
    expect(listings(app).locator(".account-name")).to_be_focused()
    app.screenshot("kiosk-signed-in-focus")
    assert app.unexpected_errors() == []


def test_place_bid_leaves_focus_on_the_bid_field(open_kiosk):
    app = open_kiosk()
    sign_in_as_ada(app)
    listings(app).locator(".lot-open").first.click()
    page = lot_page(app)
    expect(page.get_by_label("Your bid")).to_be_focused()
    place_minimum_bid(app)
    app.wait_settled()
    assert app.page.evaluate(FOCUSED) == "bid-amount"
    assert app.unexpected_errors() == []
