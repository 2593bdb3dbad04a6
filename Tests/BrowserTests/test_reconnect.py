"""Losing the WebSocket (not the page): the runtime reconnects, resumes its session with its
token and re-sends the events the server had not consumed, so no click is lost.

The page is loaded through a TCP proxy in this process (conftest.Proxy), so its origin and
Host header are the proxy's and the server's origin check passes; the test cuts the proxy's
connections and, for a while, refuses new ones.
"""

import threading

from playwright.sync_api import expect

from conftest import WAIT_MS

# While the server cannot be reached, Chromium logs each failed WebSocket handshake.
FAILED_HANDSHAKE = r"WebSocket connection to 'ws://127\.0\.0\.1:\d+/ws' failed"


def test_cut_websocket_resumes_without_losing_clicks(open_app, proxy, until):
    app = open_app(base=proxy.url)
    app.allow_errors(FAILED_HANDSHAKE)
    page = app.page
    add = app.stage("counter").get_by_role("button", name="Add one")
    count = app.stage("counter").locator("p.count")
    banner = page.locator("#footlight-banner")
    token = app.state()["token"]
    assert token and app.state()["connected"]
    clicks = 0

    for _ in range(3):
        add.click()
        clicks += 1
    expect(count).to_have_text(f"Count: {clicks}")
    app.wait_settled()

    # 1. The connection drops and cannot come back for a while; clicks go on meanwhile.
    proxy.up = False
    assert proxy.cut() >= 1
    app.wait_for("(s) => !s.connected && !s.joined")
    expect(page.locator("html")).to_have_class("footlight-disconnected")
    expect(banner).to_have_text("Reconnecting…")
    for _ in range(4):
        add.click()
        clicks += 1
    offline = app.state()
    assert offline["unacknowledged"] == 4, offline  # queued, not sent
    assert offline["documents"]["counter"]["count"] == "Count: 3"
    expect(add).to_have_attribute("aria-busy", "true")
    app.screenshot("disconnected-banner")
    until(lambda: proxy.refused >= 1, message="a refused reconnection attempt")

    proxy.up = True
    app.wait_for("(s, n) => s.joined && s.unacknowledged === 0 && s.documents.counter.count === `Count: ${n}`", clicks)
    expect(count).to_have_text(f"Count: {clicks}")
    expect(banner).to_have_text("")
    expect(page.locator("html")).not_to_have_class("footlight-disconnected")
    expect(add).not_to_have_attribute("aria-busy", "true")
    assert app.state()["token"] == token

    # 2. Connections are cut again and again while the user keeps clicking: events in flight
    #    on a dying socket must be re-sent, events already consumed must not count twice.
    stop = threading.Event()
    cuts = []

    def cutter():
        while not stop.wait(0.15):
            cuts.append(proxy.cut())

    connections_before = proxy.accepted
    thread = threading.Thread(target=cutter, daemon=True)
    thread.start()
    try:
        for _ in range(15):
            add.click(timeout=WAIT_MS)
            clicks += 1
            page.wait_for_timeout(40)  # keep clicking across several cuts (well under the rate limit)
    finally:
        stop.set()
        thread.join(2)
    assert sum(cuts) >= 2, cuts  # live connections really were cut while clicking

    app.wait_for("(s, n) => s.joined && s.connected && s.unacknowledged === 0 && s.documents.counter.count === `Count: ${n}`", clicks)
    expect(count).to_have_text(f"Count: {clicks}")
    expect(banner).to_have_text("")
    final = app.state()
    assert final["token"] == token, "a new session started instead of a resume"
    assert final["documents"]["counter"]["count"] == f"Count: {clicks}"
    assert final["unacknowledged"] == 0
    assert proxy.accepted > connections_before, "the page never reconnected"

    # The resumed session is fully live: one more click round-trips.
    add.click()
    clicks += 1
    expect(count).to_have_text(f"Count: {clicks}")
    app.wait_settled()
    assert app.state()["token"] == token
