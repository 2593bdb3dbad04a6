"""The kiosk with the keyboard alone, as someone who cannot use a mouse (or a screen
reader user) meets it: focus never falls to <body> after an action, Escape closes a
dialog, Tab stays inside an open dialog, aria-invalid is a state (not the message), and
only the bid and the count are live regions (not the ticking clock). Through the latency
proxy, at 0 and 150 ms one way.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from conftest import LATENCIES
from test_kiosk import cents, dialog, listings, lot_page, money

FOCUS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return 'body';
  return (el.closest('#footlight-modal') ? 'modal ' : 'page ') + el.tagName.toLowerCase() + (el.id ? '#' + el.id : '');
}"""


def focus(app) -> str:
    return app.page.evaluate(FOCUS)


def tab_to(app, locator, limit: int = 40):
    """Presses Tab until `locator` has focus (at most `limit` times)."""
    for _ in range(limit):
        if locator.evaluate("(el) => el === document.activeElement"):
            return
        app.page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {locator} in {limit} presses; focus is on {focus(app)}")


@pytest.mark.parametrize("delay", LATENCIES)
def test_sign_in_and_bid_with_the_keyboard_alone(visit, through, delay):
    app, _ = visit(through(delay))
    keyboard = app.page.keyboard
    tab_to(app, listings(app).get_by_role("button", name="Sign in"))
    keyboard.press("Enter")
    form = dialog(app, "Sign in")
    expect(form.get_by_label("Email")).to_be_focused()
    keyboard.type("ada@example.com", delay=20)
    keyboard.press("Tab")
    keyboard.type("lovelace1843", delay=20)
    keyboard.press("Enter")
    expect(app.page.locator("#footlight-modal")).to_be_hidden()
    expect(listings(app).locator(".account-name")).to_contain_text("Ada Lovelace")
    assert focus(app) != "body", "focus fell to <body> when the dialog closed"

    tab_to(app, listings(app).locator(".lot-open").nth(5))
    keyboard.press("Enter")
    page = lot_page(app)
    expect(page).to_be_visible()
    assert focus(app) != "body"
    minimum = cents(page.locator("#bid-hint").inner_text())
    tab_to(app, page.get_by_label("Your bid"))
    keyboard.type(money(minimum), delay=20)
    submit = page.get_by_role("button", name="Place bid")
    tab_to(app, submit)
    keyboard.press("Space")  # the button goes disabled while the bid is placed
    expect(page.locator(".message")).to_have_text(f"Your bid of ${minimum / 100:,.2f} is the highest bid.")
    app.wait_settled()
    assert focus(app) != "body", "focus fell to <body> when Place bid was disabled"


@pytest.mark.parametrize("delay", LATENCIES)
def test_escape_closes_the_dialog_after_its_button_was_disabled(visit, through, delay):
    app, _ = visit(through(delay))
    opener = listings(app).get_by_role("button", name="Sign in")
    opener.click()
    form = dialog(app, "Sign in")
    form.get_by_label("Email").fill("ada@example.com")
    form.get_by_label("Password").fill("not the password")
    button = form.get_by_role("button", name="Sign in")
    button.focus()
    app.page.keyboard.press("Enter")  # submitting: the focused button is disabled meanwhile
    expect(form.get_by_role("alert")).to_have_text("Sign-in failed: the email or the password is not right.")
    assert focus(app).startswith("modal"), focus(app)
    app.page.keyboard.press("Escape")
    expect(app.page.locator("#footlight-modal")).to_be_hidden()
    expect(opener).to_be_focused()


def test_tab_and_shift_tab_stay_in_an_open_dialog(visit, through):
    app, _ = visit(through(0.0))
    listings(app).get_by_role("button", name="Sign in").click()
    expect(dialog(app, "Sign in").get_by_label("Email")).to_be_focused()
    for key in ["Tab"] * 8 + ["Shift+Tab"] * 8:
        app.page.keyboard.press(key)
        assert focus(app).startswith("modal"), f"after {key}: focus on {focus(app)}"


def test_aria_invalid_is_a_state_and_only_bids_are_announced(visit, through):
    app, _ = visit(through(0.0), "/lots/lot-2")
    page = lot_page(app)
    field = page.get_by_label("Your bid")
    field.fill("abc")
    error = page.locator("#bid-amount-error")
    expect(error).to_be_visible()
    expect(field).to_have_attribute("aria-invalid", "true")
    assert "bid-amount-error" in field.get_attribute("aria-describedby").split()
    field.fill("")
    expect(field).not_to_have_attribute("aria-invalid", "true")
    live = "(el) => el.closest('[aria-live]')?.getAttribute('aria-live') ?? null"
    assert page.locator(".lot-current").evaluate(live) == "polite"
    assert page.locator(".lot-count").evaluate(live) == "polite"
    assert page.locator(".lot-time").evaluate(live) is None, "the countdown must not be a live region"
