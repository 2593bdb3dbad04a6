"""The kiosk on a phone (390 px wide): the table keeps every lot's bid count."""

import re

from playwright.sync_api import expect

from test_kiosk import listings, open_kiosk, segment  # noqa: F401 (open_kiosk: a fixture)


def test_the_table_at_390_px_shows_the_bid_counts(open_kiosk):
    app = open_kiosk()
    app.page.set_viewport_size({"width": 390, "height": 844})
    segment(app, "Alphabetical").click()
    lots = listings(app)
    expect(lots.locator(".lots")).to_have_attribute("data-layout", "table")
    app.wait_settled()
    for row in lots.locator(".lot").all()[:4]:
        count = row.locator(".lot-count")
        expect(count).to_be_visible()
        expect(count).to_have_text(re.compile(r"\d+ bids?|No bids"))
        expect(row.locator(".lot-time")).to_be_visible()
        expect(row.locator(".lot-bid strong")).to_be_visible()
        # The count sits on the time's line, at the row's end, inside the row.
        box, time, row_box = count.bounding_box(), row.locator(".lot-time").bounding_box(), row.bounding_box()
        assert abs(box["y"] - time["y"]) < 8 and box["x"] + box["width"] <= row_box["x"] + row_box["width"]
    assert app.page.evaluate("document.documentElement.scrollWidth") <= 390
    app.screenshot("kiosk-table-390")
