"""The visitor cookie in a real browser: the page names the visitor with a signed cookie that
scripts cannot read, the browser sends it back on the WebSocket, and every tab and reload of
that browser is the same visitor (a fresh browser context is another)."""

import os
import signal

from playwright.sync_api import expect

from conftest import _running_server


def _visitor_cookies(context):
    return [cookie for cookie in context.cookies() if cookie["name"] == "footlight_visitor"]


def test_the_page_names_one_visitor_per_browser(open_app):
    app = open_app()
    context = app.page.context
    [cookie] = _visitor_cookies(context)
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax" and cookie["path"] == "/"
    assert not cookie["secure"], "plain http: a Secure cookie would never come back"
    assert "footlight_visitor" not in app.page.evaluate("document.cookie"), "scripts cannot read it"

    # A reload and a second tab keep the visitor; the server sets no new cookie for them.
    set_cookies = []

    def record(response):
        if response.request.is_navigation_request():
            set_cookies.append(response.headers.get("set-cookie"))

    context.on("response", record)
    app.page.reload()
    app.wait_joined()
    second = context.new_page()
    second.goto(app.base + "/")
    second.wait_for_function("() => window.footlight && window.footlight.state().joined")
    assert set_cookies == [None, None]
    assert _visitor_cookies(context) == [cookie]

    # Another browser (context) is another visitor.
    other = open_app()
    [other_cookie] = _visitor_cookies(other.page.context)
    assert other_cookie["value"] != cookie["value"]


def test_a_sign_in_belongs_to_the_visitor_in_every_tab_and_across_a_restart(open_app, tmp_path_factory):
    """Signed in once, a visitor is signed in in a new tab, after a reload, and after the
    server is killed and started again on the same data directory (its cookie is still
    signed by the key kept there); signing out signs the visitor out for their next pages."""
    from test_kiosk import listings, sign_in_as_ada

    data = tmp_path_factory.mktemp("visitor-data")
    with _running_server(tmp_path_factory, "visitor-1", "--app", "auction", data_dir=data, killed_by_test=True) as first:
        app = open_app(base=first.url, root_stages=("listings",))
        # The page notices the kill and redials the dead port until it moves on.
        app.allow_errors(r"ERR_CONNECTION_REFUSED")
        expect(listings(app).get_by_role("button", name="Sign in")).to_be_visible()
        sign_in_as_ada(app)
        tab = app.page.context.new_page()
        tab.goto(first.url + "/")
        expect(listings_of(tab).locator(".account-name")).to_contain_text("Ada Lovelace")
        tab.close()
        os.kill(first.process.pid, signal.SIGKILL)
        first.process.wait(5)
    with _running_server(tmp_path_factory, "visitor-2", "--app", "auction", data_dir=data) as second:
        # Cookies belong to the host, not the port: the same browser on the new server.
        app.page.goto(second.url + "/")
        expect(listings(app).locator(".account-name")).to_contain_text("Ada Lovelace")
        app.screenshot("visitor-signed-in-after-restart")
        listings(app).locator(".account-name").click()
        app.page.get_by_role("button", name="Sign out").click()
        expect(listings(app).get_by_role("button", name="Sign in")).to_be_visible()
        app.page.reload()
        expect(listings(app).get_by_role("button", name="Sign in")).to_be_visible()
        # Another browser was never signed in.
        other = open_app(base=second.url, root_stages=("listings",))
        expect(listings(other).get_by_role("button", name="Sign in")).to_be_visible()


def listings_of(page):
    return page.locator("section.footlight-stage:has(> .kiosk)")
