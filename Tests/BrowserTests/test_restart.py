"""A restart the visitor does not see, and a duplicated tab, in a real browser: the page tells a
server that lost its session what it shows, and the server rebuilds it (Protocol.md, "Rebuilding
a session")."""

import json
import os
import re
import signal

from playwright.sync_api import expect

from conftest import Proxy, _running_server
from test_kiosk import FAILED_HANDSHAKE, cents, dialog, listings, lot_page, money, open_kiosk, sign_in_as_ada  # noqa: F401 (a fixture)

TYPING_DELAY_MS = 80  # a person typing


def test_a_restart_keeps_the_screen_the_sign_in_and_what_was_typed(open_app, tmp_path_factory):
    """Killed with SIGKILL and started again on its port and data directory, the kiosk shows
    each page as it was: a signed-in visitor's lot with the amount typed, and a signed-out
    visitor's sign-up dialog with the email typed. Both pages go on working."""
    data = tmp_path_factory.mktemp("restart-data")
    with _running_server(tmp_path_factory, "restart-1", "--app", "auction", data_dir=data, killed_by_test=True) as first:
        bidder = open_app(base=first.url, root_stages=("listings",))
        newcomer = open_app(base=first.url, path="/lots/lot-5", root_stages=("listings",))
        for app in (bidder, newcomer):
            # The pages notice the kill and redial the dead port until the server is back.
            app.allow_errors(r"ERR_CONNECTION_REFUSED")

        sign_in_as_ada(bidder)
        listings(bidder).locator(".lot-open", has_text="Night Ferry").click()
        amount = lot_page(bidder).get_by_label("Your bid")
        amount.press_sequentially("1234", delay=TYPING_DELAY_MS)
        expect(lot_page(bidder).get_by_role("button", name="Place bid")).to_be_visible()

        lot_page(newcomer).get_by_role("button", name="Sign in to bid").click()
        form = dialog(newcomer, "Create an account to bid")
        form.get_by_label("Email").press_sequentially("grace@example.com", delay=TYPING_DELAY_MS // 4)
        for app in (bidder, newcomer):
            app.wait_settled()
        tokens = [app.page.evaluate("sessionStorage.getItem('footlight.token')") for app in (bidder, newcomer)]

        os.kill(first.process.pid, signal.SIGKILL)
        first.process.wait(5)
        port = first.port

    with _running_server(tmp_path_factory, "restart-2", "--app", "auction", data_dir=data, port=port):
        for app in (bidder, newcomer):
            app.wait_for("(s) => s.joined && s.unacknowledged === 0", timeout=20_000)

        # The bidder: the lot, signed in, the amount typed.
        expect(lot_page(bidder).get_by_role("heading", name="Night Ferry")).to_be_visible()
        expect(bidder.page).to_have_url(re.compile(r"/lots/lot-6$"))
        expect(amount).to_have_value("1234")
        expect(lot_page(bidder).get_by_role("button", name="Place bid")).to_be_visible()
        expect(bidder.page.locator("#footlight-banner")).to_have_text("")
        bidder.screenshot("restart-lot-after")

        # The newcomer: still signed out, the sign-up dialog open over the lot, the email typed.
        form = dialog(newcomer, "Create an account to bid")
        expect(form).to_be_visible()
        expect(form.get_by_label("Email")).to_have_value("grace@example.com")
        expect(lot_page(newcomer).get_by_role("heading", name="Mountain Pass in October")).to_be_attached()
        expect(newcomer.page.locator("#footlight-banner")).to_have_text("")  # nothing typed was lost
        newcomer.screenshot("restart-dialog-after")

        for app, token in zip((bidder, newcomer), tokens):
            assert app.page.evaluate("sessionStorage.getItem('footlight.token')") != token, "a new, rebuilt session"

        # Both work on the new server: the dialog closes with Escape, the amount is edited.
        form.get_by_label("Email").press("Escape")
        expect(newcomer.page.locator("#footlight-modal")).to_be_hidden()
        amount.press("End")
        amount.press_sequentially("0", delay=TYPING_DELAY_MS)
        expect(lot_page(bidder).locator("#bid-amount-error")).to_be_hidden()
        bidder.wait_settled()
        assert bidder.page.evaluate("window.footlight.state().documents")  # documents are live
        expect(amount).to_have_value("12340")


def test_a_bid_made_while_the_server_restarts_goes_to_the_rebuilt_lot(open_app, tmp_path_factory):
    """Enter in the bid form while the page reconnects to a server that was killed: the bid was
    written to no socket, so the old server cannot have taken it, and the page sends it to the
    lot the restarted server rebuilt, which places it (the page once marked it "not sent")."""
    data = tmp_path_factory.mktemp("restart-bid-data")
    with _running_server(tmp_path_factory, "restart-bid-1", "--app", "auction", data_dir=data, killed_by_test=True) as first:
        app = open_app(base=first.url, root_stages=("listings",))
        app.allow_errors(r"ERR_CONNECTION_REFUSED")
        sign_in_as_ada(app)
        listings(app).locator(".lot-open", has_text="Night Ferry").click()
        page = lot_page(app)
        expect(page.get_by_role("button", name="Place bid")).to_be_visible()
        minimum = cents(page.locator("#bid-hint").inner_text())
        app.wait_settled()

        os.kill(first.process.pid, signal.SIGKILL)
        first.process.wait(5)
        port = first.port
        app.wait_for("(s) => !s.joined")
        amount = page.get_by_label("Your bid")
        amount.fill(money(minimum))
        amount.press("Enter")
        assert app.state()["unacknowledged"] >= 2, "the amount and the bid wait, written to no socket"

    with _running_server(tmp_path_factory, "restart-bid-2", "--app", "auction", data_dir=data, port=port):
        app.wait_for("(s) => s.joined && s.unacknowledged === 0", timeout=20_000)
        expect(page.locator(".message")).to_have_text(f"Your bid of ${minimum / 100:,.2f} is the highest bid.")
        expect(app.page.locator("#footlight-banner")).to_have_text("")
        expect(page.locator("form.bid-form")).not_to_have_class(re.compile(r"footlight-not-sent"))
        app.screenshot("restart-bid-placed")


def test_an_email_typed_while_reconnecting_goes_with_the_rebuild(open_app, tmp_path_factory):
    """The email, typed while the page is cut off, still waits in its debounce (300 ms) when the
    page reaches a server that lost the session (another node here): it goes with what the page
    shows, so the rebuilt dialog has it, and nothing goes late to the form the rebuild replaced
    (the page once sent it there, after the rebuild, and the dialog came back empty)."""
    with (
        _running_server(tmp_path_factory, "node-1", "--app", "auction") as first,
        _running_server(tmp_path_factory, "node-2", "--app", "auction") as second,
    ):
        proxy = Proxy(first.port)
        try:
            app = open_app(base=proxy.url, path="/lots/lot-5", root_stages=("listings",))
            app.allow_errors(FAILED_HANDSHAKE)
            lot_page(app).get_by_role("button", name="Sign in to bid").click()
            expect(dialog(app, "Create an account to bid").get_by_label("Email")).to_be_focused()
            app.wait_settled()
            token = app.state()["token"]

            proxy.up = False
            assert proxy.cut() >= 1
            app.wait_for("(s) => !s.connected")
            proxy.upstream_port = second.port  # the next connection reaches the other node
            dialog(app, "Create an account to bid").get_by_label("Email").fill("grace@example.com")
            proxy.up = True
            app.page.evaluate("dispatchEvent(new Event('online'))")  # the page dials at once
            app.wait_for("(s) => s.joined && s.unacknowledged === 0")
            assert app.state()["token"] != token, "a new session, rebuilt"

            form = dialog(app, "Create an account to bid")
            expect(form.get_by_label("Email")).to_have_value("grace@example.com")
            # Queued when the socket opened, it went again to the rebuilt dialog, by host: not lost.
            expect(app.page.locator("#footlight-banner")).to_have_text("")
            app.page.wait_for_timeout(500)  # past the debounce: nothing is sent late
            expect(form.get_by_label("Email")).to_have_value("grace@example.com")
            # The rebuilt form took over the element: focus stayed, and typing goes on in it.
            expect(form.get_by_label("Email")).to_be_focused()
            app.page.keyboard.type(".uk", delay=TYPING_DELAY_MS)
            app.wait_settled()
            expect(form.get_by_label("Email")).to_have_value("grace@example.com.uk")
            assert app.wait_for(
                "(s) => Object.values(s.documents).some((d) => d.email === 'grace@example.com.uk')"
            ), "the rebuilt session has what was typed"
            app.screenshot("rebuild-typed-while-reconnecting")
        finally:
            proxy.close()


def test_a_duplicated_tab_gets_a_session_of_its_own(open_kiosk):
    """"Duplicate tab" copies sessionStorage, the session's token with it. The copy finds a token
    and no address left by a page that unloaded, so it rebuilds a session of its own from the copied
    page instead of taking the original's over (which closed the original with 4000): both work."""
    app = open_kiosk()
    listings(app).locator(".lot-open", has_text="Night Ferry").click()
    amount = lot_page(app).get_by_label("Your bid")
    amount.press_sequentially("777", delay=TYPING_DELAY_MS)
    # Sent (after its debounce) and consumed: the page keeps it as the stage's value.
    app.wait_for("(s) => s.unacknowledged === 0 && Object.values(s.documents).some((d) => d.amount === '777')")
    original = app.page.evaluate("sessionStorage.getItem('footlight.token')")
    storage = app.page.evaluate("JSON.stringify(Object.fromEntries(Object.entries(sessionStorage)))")

    copy = app.page.context.new_page()
    copy.on("console", lambda message: message.type == "error" and app.errors.append(message.text))
    # What the browser does for a duplicated tab: the same address, a copy of sessionStorage.
    copy.add_init_script(
        f"if (!sessionStorage.length) for (const [k, v] of Object.entries({json.dumps(json.loads(storage))})) "
        "sessionStorage.setItem(k, v);")
    copy.goto(app.page.url)
    copy.wait_for_function("() => window.footlight && window.footlight.state().joined")
    expect(copy.locator("section.footlight-stage:has(> .lot-page)").get_by_role("heading", name="Night Ferry")) \
        .to_be_visible()
    expect(copy.get_by_label("Your bid")).to_have_value("777")
    mine = copy.evaluate("sessionStorage.getItem('footlight.token')")
    assert mine and mine != original, "a session of its own"

    # Both go on: the original was not taken over, and each edits its own amount.
    amount.press_sequentially("1", delay=TYPING_DELAY_MS)
    copy.get_by_label("Your bid").press("End")  # the restored text came from the server: the caret is at its start
    copy.get_by_label("Your bid").press_sequentially("2", delay=TYPING_DELAY_MS)
    app.wait_settled()
    copy.wait_for_function("() => window.footlight.state().unacknowledged === 0")
    expect(amount).to_have_value("7771")
    expect(copy.get_by_label("Your bid")).to_have_value("7772")
    expect(app.page.locator("#footlight-banner")).to_have_text("")
    assert app.page.evaluate("sessionStorage.getItem('footlight.token')") == original
    app.screenshot("duplicated-tab-original")
