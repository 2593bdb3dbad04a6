"""A user's normal journey through every stage of the demo in one page: no console errors,
no uncaught exceptions, no binding errors reported to the server, no requests off the machine.

(Every other test also fails on console errors it does not declare; the only declared ones
are Chromium's "WebSocket connection … failed" lines while test_reconnect keeps the server
unreachable on purpose.)
"""

import re

from playwright.sync_api import expect

from conftest import FORM


def test_normal_journey_logs_no_errors(open_app, server):
    log_before = server.log.read_text(errors="replace") if server.log.exists() else ""
    app = open_app()
    page = app.page

    # The root page: all three root stages, nothing else.
    state = app.state()
    assert set(state["documents"]) == {"counter", "signup", "lots", FORM}, state["documents"].keys()
    assert state["connected"] and state["joined"] and state["lastSeq"] >= 3
    for stage in ("counter", "signup", "lots"):
        expect(app.stage(stage)).to_be_visible()
    expect(page.locator("#footlight-banner")).to_have_text("")
    expect(page.locator("#footlight-modal")).to_be_hidden()
    app.screenshot("root")

    counter = app.stage("counter")
    counter.get_by_role("button", name="Add one").click()
    expect(counter.locator("p.count")).to_have_text("Count: 1")
    counter.get_by_role("button", name="About Footlight").click()
    dialog = page.get_by_role("dialog", name="About Footlight")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_have_count(0)

    signup = app.stage("signup")
    signup.get_by_label("Email").press_sequentially("carol@example")
    expect(signup.locator("#signup-email-error")).to_be_visible()
    signup.get_by_label("Email").press_sequentially(".com")
    expect(signup.locator("#signup-email-error")).to_be_hidden()
    signup.get_by_label("Password").press_sequentially("long enough")
    signup.get_by_role("button", name="Sign up").click()
    expect(signup.locator(".message")).to_have_text("Welcome, Carol!")

    lots = app.stage("lots")
    lots.locator("li.row").nth(1).get_by_role("textbox").press_sequentially("a note")
    lots.get_by_role("button", name="Shuffle").click()
    lots.get_by_role("button", name="Reverse").click()
    app.wait_settled()
    lots.locator("li.row").nth(0).get_by_role("button", name=re.compile("^Open")).click()
    expect(page).to_have_url(re.compile(r"/lots/lot-\d$"))
    page.go_back()
    expect(page).to_have_url(app.base + "/")
    expect(lots).to_be_visible()
    app.wait_settled()

    assert app.errors == [], app.errors
    assert app.blocked == [], app.blocked
    log_after = server.log.read_text(errors="replace") if server.log.exists() else ""
    new_log = log_after[len(log_before):]
    # At --log-level warning a page's binding report or a refused event would show here.
    assert new_log.strip() == "", new_log
