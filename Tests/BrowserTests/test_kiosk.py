"""The auction kiosk's main journeys in a real browser: browse, sort, open a lot, sign up,
bid, see another session's bid arrive, the back button, profile and trip, reconnect.

Every page talks to one kiosk server shared by these tests (no simulated bidder), so the
tests read amounts from the page instead of assuming them, and sign up unique addresses.
"""

import itertools
import re
import time

import pytest
from playwright.sync_api import expect

from conftest import Proxy, WAIT_MS, _running_server

FAILED_HANDSHAKE = r"WebSocket connection to 'ws://127\.0\.0\.1:\d+/ws' failed"
_addresses = itertools.count(1)


def unique_email(name: str) -> str:
    return f"{name}+{next(_addresses)}.{time.monotonic_ns()}@example.com"


@pytest.fixture
def open_kiosk(open_app, kiosk):
    """open(path="/", base=kiosk.url, locale=None) → App on the kiosk, joined with its listings."""

    def open_page(path: str = "/", base: str | None = None, locale: str | None = None):
        return open_app(base=base or kiosk.url, path=path, root_stages=("listings",), locale=locale)

    return open_page


def listings(app):
    return app.page.locator("section.footlight-stage:has(> .kiosk)")


def lot_page(app):
    return app.page.locator("section.footlight-stage:has(> .lot-page)")


def dialog(app, title: str):
    return app.page.get_by_role("dialog", name=title)


def cents(text: str) -> int:
    return round(float(re.sub(r"[^0-9.]", "", text)) * 100)


def money(value: int) -> str:
    return f"{value // 100}.{value % 100:02d}"


def segment(app, title: str):
    return listings(app).locator(".segments").get_by_role("button", name=title, exact=True)


def titles_in_dom(app) -> list[str]:
    return app.page.locator(".lot-list .lot-title").all_inner_texts()


def sign_up(app, name: str) -> str:
    """Goes through the sign-up modal (already open) and its welcome step."""
    email = unique_email(name)
    form = dialog(app, "Create an account to bid")
    expect(form).to_be_visible()
    form.get_by_label("Email").fill(email)
    form.get_by_label("Password").fill("correct horse")
    form.get_by_role("button", name="Sign up").click()
    welcome = app.page.get_by_role("dialog", name=f"Welcome aboard, {name.capitalize()}.")
    expect(welcome).to_be_visible()
    app.screenshot("kiosk-welcome")
    welcome.get_by_role("button", name="Continue").click()
    expect(app.page.locator("#footlight-modal")).to_be_hidden()
    return email


def sign_in_as_ada(app):
    """Signs in with the demo account from the listings' "Sign in" button."""
    listings(app).get_by_role("button", name="Sign in").click()
    form = dialog(app, "Sign in")
    expect(form).to_be_visible()
    form.get_by_label("Email").fill("ada@example.com")
    form.get_by_label("Password").fill("lovelace1843")
    form.get_by_role("button", name="Sign in").click()
    expect(app.page.locator("#footlight-modal")).to_be_hidden()
    expect(listings(app).locator(".account-name")).to_contain_text("Ada Lovelace")


def place_minimum_bid(app) -> int:
    """Bids the lot page's minimum; returns the amount in cents once the page confirms it."""
    page = lot_page(app)
    minimum = cents(page.locator("#bid-hint").inner_text())
    page.get_by_label("Your bid").fill(money(minimum))
    submit = page.get_by_role("button", name="Place bid")
    expect(submit).to_be_enabled()
    submit.click()
    expect(page.locator(".message")).to_have_text(
        f"Your bid of ${minimum / 100:,.2f} is the highest bid.")
    return minimum


def test_browse_and_sort(open_kiosk):
    app = open_kiosk()
    lots = listings(app)
    expect(lots.locator(".lot")).to_have_count(12)
    # Each lot is a component of its own (lot-card), in its row.
    expect(lots.locator(".lot > section.footlight-stage .lot-open")).to_have_count(12)
    expect(lots.locator(".lots")).to_have_attribute("data-layout", "grid")
    expect(segment(app, "Grid")).to_have_attribute("aria-pressed", "true")
    first = lots.locator(".lot").first
    expect(first.locator(".lot-number")).to_have_text("Lot 1")
    expect(first.locator(".lot-bid strong")).to_have_text(re.compile(r"^\$[0-9,]+\.\d\d$"))
    expect(first.locator(".lot-time")).to_have_text(re.compile(r"\d+ (min|h|s)"))
    expect(first.locator(".art")).to_have_attribute("aria-label", re.compile(r" by "))
    app.screenshot("kiosk-grid")

    # Mark one row's DOM node: sorting must move it, not rebuild it.
    app.page.evaluate("() => { document.querySelector('.lot-list .lot').__probe = 'kept'; }")
    segment(app, "Alphabetical").click()
    expect(lots.locator(".lots")).to_have_attribute("data-layout", "table")
    expect(segment(app, "Alphabetical")).to_have_attribute("aria-pressed", "true")
    expect(segment(app, "Grid")).to_have_attribute("aria-pressed", "false")
    app.wait_settled()
    titles = titles_in_dom(app)
    assert titles == sorted(titles, key=str.casefold), titles
    assert app.page.evaluate(
        "() => [...document.querySelectorAll('.lot-list .lot')].some((li) => li.__probe === 'kept'"
        " && li.querySelector('.lot-number').textContent === 'Lot 1')")
    expect(lots.locator(".lots-head")).to_be_visible()
    app.screenshot("kiosk-table")

    segment(app, "Highest bid").click()
    app.wait_settled()
    amounts = [cents(text) for text in lots.locator(".lot-bid strong").all_inner_texts()]
    assert amounts == sorted(amounts, reverse=True), amounts
    segment(app, "Lowest bid").click()
    app.wait_settled()
    amounts = [cents(text) for text in lots.locator(".lot-bid strong").all_inner_texts()]
    assert amounts == sorted(amounts), amounts


def test_open_a_lot_and_go_back(open_kiosk):
    app = open_kiosk()
    listings(app).locator(".lot-open", has_text="Night Ferry").click()
    page = lot_page(app)
    expect(page.get_by_role("heading", name="Night Ferry")).to_be_visible()
    expect(app.page).to_have_url(re.compile(r"/lots/lot-6$"))
    expect(listings(app)).to_be_hidden()
    expect(page.locator(".lot-medium")).to_have_text("Woodblock print, 1962")
    expect(page.get_by_role("button", name="Sign in to bid")).to_be_enabled()

    # The browser's back button pops the lot; forward into a popped entry goes back again.
    app.page.go_back()
    expect(listings(app)).to_be_visible()
    expect(lot_page(app)).to_have_count(0)
    expect(app.page).to_have_url(re.compile(r"/$"))

    # The page's own back button does the same.
    listings(app).locator(".lot-open", has_text="Night Ferry").click()
    expect(lot_page(app)).to_be_visible()
    lot_page(app).get_by_role("button", name="All lots").click()
    expect(listings(app)).to_be_visible()
    expect(app.page).to_have_url(re.compile(r"/$"))

    # A deep link (in a new tab: a reload resumes its session as it was) opens the lot over
    # the listings; back returns to them.
    linked = open_kiosk("/lots/lot-2")
    expect(lot_page(linked).get_by_role("heading", name="Blue Study No. 4")).to_be_visible()
    linked.page.go_back()
    expect(listings(linked)).to_be_visible()


def test_a_link_typed_into_a_live_tab_opens_what_it_names(open_kiosk):
    """An address typed or pasted into a tab that has a session opens that address, in a
    session of its own (the old runtime resumed the tab's session and showed its old screen);
    a reload, or the same address again, resumes the session as it was."""
    app = open_kiosk()
    listings(app).locator(".lot-open", has_text="Night Ferry").click()
    expect(lot_page(app).get_by_role("heading", name="Night Ferry")).to_be_visible()
    app.wait_settled()
    first = app.page.evaluate("sessionStorage.getItem('footlight.token')")

    app.page.goto(app.base + "/lots/lot-2")
    expect(lot_page(app).get_by_role("heading", name="Blue Study No. 4")).to_be_visible()
    expect(app.page).to_have_url(re.compile(r"/lots/lot-2$"))
    app.wait_settled()
    second = app.page.evaluate("sessionStorage.getItem('footlight.token')")
    assert second and second != first, "a session of its own"

    app.page.reload()
    expect(lot_page(app).get_by_role("heading", name="Blue Study No. 4")).to_be_visible()
    app.wait_settled()
    assert app.page.evaluate("sessionStorage.getItem('footlight.token')") == second, "a reload resumes"
    app.page.goto(app.base + "/lots/lot-2")
    app.wait_settled()
    assert app.page.evaluate("sessionStorage.getItem('footlight.token')") == second, "the same address resumes"
    expect(lot_page(app).get_by_role("heading", name="Blue Study No. 4")).to_be_visible()


def test_sign_up_from_a_lot_then_bid(open_kiosk):
    app = open_kiosk("/lots/lot-5")
    page = lot_page(app)
    expect(page.get_by_role("heading", name="Mountain Pass in October")).to_be_visible()

    # Validation as you type, formatted, before signing in.
    amount = page.get_by_label("Your bid")
    amount.press_sequentially("12")
    expect(page.locator("#bid-amount-error")).to_have_text(re.compile(r"^Bid at least \$[0-9,]+\.\d\d\.$"))
    expect(amount).to_have_attribute("aria-invalid", re.compile(r".+"))  # any value but "false" is true
    amount.fill("")
    expect(page.locator("#bid-amount-error")).to_be_hidden()

    # Bidding signed out presents the sign-up flow; it returns here afterwards.
    page.get_by_role("button", name="Sign in to bid").click()
    form = dialog(app, "Create an account to bid")
    expect(form).to_be_visible()
    form.get_by_label("Email").press_sequentially("not-an-email")
    expect(form.locator(".field-error").first).to_have_text("Enter an email address like name@example.com.")
    app.screenshot("kiosk-signup-invalid")
    form.get_by_label("Email").fill("")
    name = "grace"
    sign_up(app, name)
    expect(page).to_be_visible()
    expect(page.get_by_role("heading", name="Mountain Pass in October")).to_be_visible()

    bid = place_minimum_bid(app)
    expect(page.locator(".standing")).to_have_text("You have the highest bid.")
    expect(page.locator(".lot-current")).to_have_text(f"${bid / 100:,.2f}")
    expect(page.get_by_label("Your bid")).to_have_value("")
    app.screenshot("kiosk-bid-placed")

    # One submission at a time: a double click places one bid.
    minimum = cents(page.locator("#bid-hint").inner_text())
    before = page.locator(".lot-count").inner_text()
    page.get_by_label("Your bid").fill(money(minimum))
    submit = page.get_by_role("button", name="Place bid")
    expect(submit).to_be_enabled()
    submit.dblclick()
    expect(page.locator(".message")).to_have_text(f"Your bid of ${minimum / 100:,.2f} is the highest bid.")
    app.wait_settled()
    count_before = int(before.split()[0]) if before[0].isdigit() else 0
    expect(page.locator(".lot-count")).to_have_text(f"{count_before + 1} bids")


def test_another_sessions_bid_arrives(open_kiosk):
    bidder = open_kiosk()
    watcher_list = open_kiosk()
    watcher_lot = open_kiosk("/lots/lot-9")
    sign_in_as_ada(bidder)
    listings(bidder).locator(".lot-open", has_text="The Reader").click()
    expect(lot_page(bidder).get_by_role("heading", name="The Reader")).to_be_visible()

    amount = place_minimum_bid(bidder)
    shown = f"${amount / 100:,.2f}"
    row = listings(watcher_list).locator(".lot", has_text="The Reader")
    expect(row.locator(".lot-bid strong")).to_have_text(shown)
    expect(lot_page(watcher_lot).locator(".lot-current")).to_have_text(shown)
    expect(lot_page(watcher_lot).locator("#bid-hint")).not_to_contain_text(shown)
    watcher_lot.screenshot("kiosk-other-session")


def test_signing_out_in_one_tab_signs_the_visitor_out_in_the_others(open_kiosk):
    """The visitor's other tabs start over signed out, each at the address it shows, at once;
    the tab that signed out goes on as it was."""
    app = open_kiosk()
    sign_in_as_ada(app)
    tab = app.page.context.new_page()
    tab.goto(app.base + "/lots/lot-2")
    tab_lot = tab.locator("section.footlight-stage:has(> .lot-page)")
    expect(tab_lot.get_by_role("button", name="Place bid")).to_be_visible()
    expect(tab.locator("section.footlight-stage:has(> .kiosk) .account-name")).to_contain_text("Ada Lovelace")
    token_before = tab.evaluate("window.footlight.state().token")

    listings(app).locator(".account-name").click()
    app.page.get_by_role("button", name="Sign out").click()
    expect(listings(app).get_by_role("button", name="Sign in")).to_be_visible()

    expect(tab_lot.get_by_role("button", name="Sign in to bid")).to_be_visible()
    expect(tab).to_have_url(re.compile(r"/lots/lot-2$"))
    expect(tab_lot).to_be_visible()
    assert tab.evaluate("window.footlight.state().token") not in (None, token_before)
    app.screenshot("kiosk-signed-out-here")
    tab.screenshot(path=str(app.screenshot("kiosk-signed-out-elsewhere")), full_page=True)
    tab.close()


def test_sign_in_instead_wrong_password_then_profile_and_trip(open_kiosk):
    app = open_kiosk()
    listings(app).get_by_role("button", name="Sign in").click()
    signin = dialog(app, "Sign in")
    signin.get_by_role("button", name="Create an account").click()
    signup = dialog(app, "Create an account to bid")
    expect(signup).to_be_visible()
    signup.get_by_role("button", name="Sign in instead").click()
    signin = dialog(app, "Sign in")
    expect(signin).to_be_visible()
    signin.get_by_label("Email").fill("ada@example.com")
    signin.get_by_label("Password").fill("wrong password")
    signin.get_by_role("button", name="Sign in").click()
    expect(signin.get_by_role("alert")).to_have_text("Sign-in failed: the email or the password is not right.")
    app.screenshot("kiosk-signin-refused")
    signin.get_by_label("Password").fill("lovelace1843")
    expect(signin.get_by_role("alert")).to_be_hidden()
    signin.get_by_role("button", name="Sign in").click()
    expect(app.page.locator("#footlight-modal")).to_be_hidden()

    listings(app).locator(".account-name").click()
    profile = app.page.locator("section.footlight-stage:has(> .profile)")
    expect(profile.get_by_role("heading", name="Ada Lovelace")).to_be_visible()
    expect(app.page).to_have_url(re.compile(r"/profile$"))
    profile.get_by_role("button", name=re.compile(r"example\.com.ada")).click()
    app.wait_settled()
    deadline = time.monotonic() + WAIT_MS / 1000
    while "https://example.com/ada" not in app.blocked_navigations and time.monotonic() < deadline:
        app.page.wait_for_timeout(50)
    assert "https://example.com/ada" in app.blocked_navigations, app.blocked_navigations
    app.screenshot("kiosk-profile")

    profile.get_by_role("button", name="Your trip to the auction").click()
    flight = app.page.locator("section.footlight-stage:has(> .flight)")
    expect(flight.locator(".flight-airline")).to_have_text("TAP Air Portugal · TP 1276")
    expect(flight.locator(".flight-duration")).to_contain_text("3 hours, 10 minutes")
    expect(flight.locator(".flight-summary")).to_have_text("14:05 · Lisbon (LIS) → 18:15 · Vienna (VIE)")
    expect(app.page).to_have_url(re.compile(r"/profile/trip$"))
    app.screenshot("kiosk-flight")
    app.page.go_back()
    expect(profile).to_be_visible()
    profile.get_by_role("button", name="Sign out").click()
    expect(listings(app).get_by_role("button", name="Sign in")).to_be_visible()
    expect(app.page).to_have_url(re.compile(r"/$"))


def test_reconnect_keeps_the_session_and_catches_up(open_kiosk, kiosk):
    proxy = Proxy(kiosk.port)
    try:
        app = open_kiosk("/lots/lot-10", base=proxy.url)
        app.allow_errors(FAILED_HANDSHAKE)
        other = open_kiosk()
        sign_in_as_ada(other)
        listings(other).locator(".lot-open", has_text="Salt Marsh").click()
        expect(lot_page(other)).to_be_visible()
        token = app.state()["token"]
        page = lot_page(app)
        page.get_by_label("Your bid").press_sequentially("1")
        app.wait_settled()

        proxy.up = False
        assert proxy.cut() >= 1
        app.wait_for("(s) => !s.connected")
        expect(app.page.locator("html")).to_have_class(re.compile("footlight-disconnected"))
        app.screenshot("kiosk-disconnected")
        amount = place_minimum_bid(other)  # a bid lands while the page is away

        proxy.up = True
        app.wait_for("(s) => s.connected && s.joined", timeout=WAIT_MS * 2)
        assert app.state()["token"] == token
        expect(page.locator(".lot-current")).to_have_text(f"${amount / 100:,.2f}")
        expect(page.get_by_label("Your bid")).to_have_value("1")
        expect(app.page.locator("#footlight-banner")).to_be_empty()
    finally:
        proxy.close()


def test_simulated_bidder_keeps_the_auction_alive(tmp_path_factory, open_app):
    with _running_server(tmp_path_factory, "bidder", "--app", "auction", "--simulated-bidder",
                         "--bid-interval", "0.1") as server:
        app = open_app(base=server.url, root_stages=("listings",))
        app.wait_for(
            "(s) => s.documents.listings.rows.filter((row) => row.bidCount !== 'No bids').length >= 2")
        expect(listings(app).locator(".lot-count", has_text=re.compile(r"\d+ bids?")).first).to_be_visible()
