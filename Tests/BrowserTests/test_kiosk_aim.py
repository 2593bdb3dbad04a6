"""A live reorder under the pointer (lists.js's aim guard): a bid arriving between pointerdown and
click moves the row pressed away, and the click still opens the lot the visitor pressed on."""

from playwright.sync_api import expect

from test_kiosk import cents, listings, lot_page, money, open_kiosk, segment, sign_in_as_ada  # noqa: F401


def test_a_bid_reordering_the_list_mid_click_opens_the_lot_pressed(open_kiosk):
    watcher = open_kiosk()
    bidder = open_kiosk()
    segment(watcher, "Highest bid").click()
    watcher.wait_settled()
    rows = listings(watcher).locator(".lot")
    aimed = rows.nth(1).locator(".lot-title").inner_text()
    below = rows.nth(2).locator(".lot-title").inner_text()
    above = cents(rows.nth(1).locator(".lot-bid strong").inner_text())

    # The visitor presses on the second row's lot...
    box = rows.nth(1).locator(".lot-open").bounding_box()
    watcher.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    watcher.page.mouse.down()

    # ...while another visitor outbids it on the row below, which takes its place under the pointer.
    sign_in_as_ada(bidder)
    listings(bidder).locator(".lot-open", has_text=below).click()
    page = lot_page(bidder)
    expect(page.get_by_role("heading", name=below)).to_be_visible()
    amount = max(cents(page.locator("#bid-hint").inner_text()), above + 100_00)
    page.get_by_label("Your bid").fill(money(amount))
    page.get_by_role("button", name="Place bid").click()
    expect(rows.nth(1).locator(".lot-title")).to_have_text(below)
    expect(rows.nth(2).locator(".lot-title")).to_have_text(aimed)

    watcher.page.mouse.up()
    expect(lot_page(watcher).get_by_role("heading", name=aimed)).to_be_visible()
    watcher.screenshot("kiosk-aimed-lot")
    assert watcher.unexpected_errors() == []
