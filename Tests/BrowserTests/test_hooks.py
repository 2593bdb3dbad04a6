"""JavaScript hooks in a real browser: the kiosk's bid-history chart, a hook on the lot page's
<canvas>, is mounted with the lot, updated as bids arrive (the visitor's and another session's),
told of the visitor's own accepted bids by the server, and destroyed when the lot closes."""

from playwright.sync_api import expect

from test_kiosk import cents, lot_page, listings, open_kiosk, place_minimum_bid, sign_in_as_ada, sign_up  # noqa: F401

# Counts every call the runtime makes to a hook the page registers (each of the four callbacks,
# whether the hook defines it or not): wraps footlight.hook as the runtime defines it.
COUNT_HOOK_CALLS = """
(() => {
  window.hookCalls = [];
  let exports;
  Object.defineProperty(window, 'footlight', {
    configurable: true,
    get: () => exports,
    set(value) {
      const register = value.hook;
      value.hook = (name, callbacks) => register(name, Object.fromEntries(['mounted', 'updated', 'destroyed', 'received'].map(
        (what) => [what, (h, message) => (window.hookCalls.push(`${name}.${what}`), callbacks[what]?.(h, message))]
      )));
      exports = value;
    },
  });
})();
"""


def calls(app, hook: str = "bid-chart") -> list[str]:
    """The calls made to `hook`'s callbacks, in order (each full page also has the page's own
    site-text hook, which these tests leave aside)."""
    return [call for call in app.page.evaluate("window.hookCalls") if call.startswith(hook + ".")]


def test_the_bid_chart_follows_the_lot_and_marks_the_visitors_bids(open_kiosk):
    app = open_kiosk()
    app.page.add_init_script(COUNT_HOOK_CALLS)
    app.page.reload()
    sign_in_as_ada(app)
    listings(app).locator(".lot-open", has_text="Composition in Ochre").click()
    page = lot_page(app)
    expect(page.get_by_role("heading", name="Composition in Ochre")).to_be_visible()
    chart = page.locator(".bid-chart canvas")
    bids = int(page.locator(".lot-count").inner_text().split()[0].replace("No", "0") or 0)
    expect(chart).to_have_attribute("data-drawn", f"{bids}/0")
    assert calls(app) == ["bid-chart.mounted"]

    # The visitor's bid: the chart gets the new point (updated) and marks it (the server's push).
    amount = place_minimum_bid(app)
    expect(chart).to_have_attribute("data-drawn", f"{bids + 1}/1")
    expect(page.locator(".bid-chart figcaption")).to_contain_text(f"${amount / 100:,.2f}.")
    assert sorted(calls(app)) == ["bid-chart.mounted", "bid-chart.received", "bid-chart.updated"]

    # Another session outbids: the point arrives with the lot, not marked.
    other = open_kiosk("/lots/lot-8")
    expect(lot_page(other).get_by_role("heading", name="Composition in Ochre")).to_be_visible()
    lot_page(other).get_by_role("button", name="Sign in to bid").click()
    sign_up(other, "grace")
    place_minimum_bid(other)
    expect(chart).to_have_attribute("data-drawn", f"{bids + 2}/1")
    expect(lot_page(other).locator(".bid-chart canvas")).to_have_attribute("data-drawn", f"{bids + 2}/1")
    app.screenshot("hooks-bid-chart")

    # Back to the listings: the canvas goes, and its hook with it.
    page.get_by_role("button", name="All lots").click()
    expect(lot_page(app)).to_have_count(0)
    assert calls(app).count("bid-chart.destroyed") == 1
    assert calls(app).count("bid-chart.mounted") == 1
