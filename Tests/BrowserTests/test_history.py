"""The address bar and History always match what the kiosk shows: reloads deep in the
stack add no entries, Back then Forward faster than the server answers ends with a true
URL, and a link that names nothing shows a not-found page at that link.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from test_kiosk import listings, lot_page, sign_in_as_ada


def profile(app):
    return app.page.locator("section.footlight-stage:has(> .profile)")


def flight(app):
    return app.page.locator("section.footlight-stage:has(> .flight)")


def history_length(app) -> int:
    return app.page.evaluate("history.length")


def test_reloads_two_levels_deep_add_no_history_entries(visit, through):
    app, _ = visit(through(0.0))
    sign_in_as_ada(app)
    listings(app).locator(".account-name").click()
    profile(app).get_by_role("button", name="Your trip to the auction").click()
    expect(flight(app)).to_be_visible()
    expect(app.page).to_have_url(re.compile(r"/profile/trip$"))
    length = history_length(app)
    for _ in range(3):
        app.page.reload()
        expect(flight(app)).to_be_visible()
        app.wait_settled()
        expect(app.page).to_have_url(re.compile(r"/profile/trip$"))
        assert history_length(app) == length, "a reload added a History entry"
    app.page.go_back()
    expect(profile(app)).to_be_visible()
    expect(app.page).to_have_url(re.compile(r"/profile$"))
    app.page.go_back()
    expect(listings(app)).to_be_visible()
    expect(profile(app)).to_have_count(0)
    expect(app.page).to_have_url(re.compile(r"/$"))


def test_back_then_forward_faster_than_the_server_leaves_a_true_url(visit, through):
    app, _ = visit(through(0.1))
    listings(app).locator(".lot-open").first.click()
    expect(lot_page(app)).to_be_visible()
    app.wait_settled()
    app.page.evaluate("() => { history.back(); setTimeout(() => history.forward(), 50); }")
    app.page.wait_for_timeout(800)  # both moves, the back event and the server's answer
    app.wait_settled()
    app.page.wait_for_timeout(200)  # a correcting History move lands
    if lot_page(app).count() and lot_page(app).is_visible():
        expect(app.page).to_have_url(re.compile(r"/lots/[\w-]+$"))
    else:
        expect(listings(app)).to_be_visible()
        expect(app.page).to_have_url(re.compile(r"/$"))
    assert app.page.evaluate("history.state?.footlightDepth | 0") == lot_page(app).count()


def test_a_link_naming_nothing_shows_not_found_there(visit, through):
    app, _ = visit(through(0.0), "/lots/lot-99")
    missing = app.page.locator("section.footlight-stage:has(> .not-found)")
    expect(missing).to_be_visible()
    expect(missing.locator("code")).to_have_text("/lots/lot-99")
    expect(listings(app)).to_be_hidden()
    expect(app.page).to_have_url(re.compile(r"/lots/lot-99$"))
    app.screenshot("kiosk-not-found")
    app.page.go_back()
    expect(listings(app)).to_be_visible()
    expect(missing).to_have_count(0)
    expect(app.page).to_have_url(re.compile(r"/$"))
