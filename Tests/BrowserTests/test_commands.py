"""Client commands in a real browser: the server moves focus and titles the page, and events
declared in Swift run commands in the page with no round trip (ClientCommand)."""

import json

from playwright.sync_api import expect

from test_kiosk import listings, lot_page, open_kiosk  # noqa: F401 (a fixture)

DOCS_URL = "https://www.swift.org/documentation/"


def test_opening_a_lot_titles_the_page_and_focuses_the_bid_field(open_kiosk):
    app = open_kiosk()
    expect(app.page).to_have_title("Footlight Auctions")
    listings(app).locator(".lot-open", has_text="Night Ferry").click()
    expect(app.page).to_have_title("Night Ferry · Footlight Auctions")
    amount = lot_page(app).get_by_label("Your bid")
    expect(amount).to_be_focused()
    amount.press_sequentially("300", delay=80)  # typing goes straight in
    expect(amount).to_have_value("300")
    app.screenshot("commands-lot-titled-and-focused")

    # A reload resumes with the documents mounted again: the title comes back with them.
    app.page.reload()
    expect(lot_page(app).get_by_role("heading", name="Night Ferry")).to_be_visible()
    expect(app.page).to_have_title("Night Ferry · Footlight Auctions")

    # Back on the listings, the page's own title comes back.
    app.page.go_back()
    expect(lot_page(app)).to_have_count(0)
    expect(app.page).to_have_title("Footlight Auctions")

    # A link to the lot does the same: the commands of the stages the app shows as it starts.
    linked = open_kiosk("/lots/lot-6")
    expect(linked.page).to_have_title("Night Ferry · Footlight Auctions")
    expect(lot_page(linked).get_by_label("Your bid")).to_be_focused()


def test_page_only_commands_show_details_and_copy_with_no_event(open_app):
    app = open_app()
    app.page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=app.base)
    sent = []
    app.page.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(json.loads(frame))))
    app.page.reload()
    app.wait_joined()
    app.stage("counter").get_by_role("button", name="About Footlight").click()
    dialog = app.page.get_by_role("dialog", name="About Footlight")
    expect(dialog).to_be_visible()
    app.wait_settled()
    events_before = [message for message in sent if message.get("t") == "event"]

    details = dialog.locator(".about-details")
    toggle = dialog.get_by_role("button", name="How it works")
    expect(details).to_be_hidden()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    toggle.click()
    expect(details).to_be_visible()
    expect(details).to_contain_text("JSON Patch")
    expect(toggle).to_have_attribute("aria-expanded", "true")
    app.screenshot("commands-details-shown")
    toggle.click()
    expect(details).to_be_hidden()
    expect(toggle).to_have_attribute("aria-expanded", "false")

    dialog.get_by_role("button", name="Copy the link").click()
    app.page.wait_for_function(f"() => navigator.clipboard.readText().then((text) => text === {DOCS_URL!r})")

    app.wait_settled()
    assert [message for message in sent if message.get("t") == "event"] == events_before, \
        "the page ran the commands itself: no event went to the server"
    expect(dialog.get_by_role("button", name="How it works")).not_to_have_attribute("aria-busy", "true")
