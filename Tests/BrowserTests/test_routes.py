"""The kiosk's HTTP routes in Chromium, over https, where libwebsockets speaks HTTP/2 (ALPN
"h2"): the lots as JSON, and a lot's bids as CSV, refused until the visitor signs in on the
page, then streamed. The simulated bidder puts bids on the lots meanwhile."""

import subprocess

import pytest
from playwright.sync_api import expect

from conftest import WAIT_MS, _running_server


@pytest.fixture(scope="module")
def h2_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("routes-tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=60)
    with _running_server(tmp_path_factory, "routes", "--app", "auction", "--tls-certificate", str(cert),
                         "--tls-key", str(key), "--simulated-bidder", "--bid-interval", "0.05",
                         scheme="https") as server:
        yield server


FETCH = """async (path) => {
    const response = await fetch(path);
    const text = await response.text();
    const entry = performance.getEntriesByName(new URL(path, location.href).href).pop();
    return {status: response.status, type: response.headers.get("content-type"), text,
            protocol: entry ? entry.nextHopProtocol : null};
}"""


def test_json_and_a_signed_in_csv_over_http2(browser, h2_server):
    context = browser.new_context(ignore_https_errors=True, viewport={"width": 1100, "height": 900})
    try:
        page = context.new_page()
        page.goto(h2_server.url + "/", timeout=WAIT_MS)
        page.wait_for_function("() => window.footlight && window.footlight.state().joined", timeout=WAIT_MS)

        lots = page.evaluate(FETCH, "/api/lots")
        assert lots["status"] == 200 and lots["type"] == "application/json" and lots["protocol"] == "h2"
        # The lot is chosen from the same listing that shows its bids (two fetches once
        # disagreed in CI: the second listed no lot with 3 bids; not understood yet).
        lot = None
        for _ in range(WAIT_MS // 100):
            listed = page.evaluate("async () => (await fetch('/api/lots')).json()")
            lot = next((lot for lot in listed if lot["bidCount"] >= 3 and not lot["isClosed"]), None)
            if lot:
                break
            page.wait_for_timeout(100)
        assert lot, listed

        refused = page.evaluate(FETCH, f"/lots/{lot['id']}/bids.csv")
        assert refused["status"] == 403, refused

        kiosk = page.locator("section.footlight-stage:has(> .kiosk)")
        kiosk.get_by_role("button", name="Sign in").click()
        form = page.get_by_role("dialog", name="Sign in")
        form.get_by_label("Email").fill("ada@example.com")
        form.get_by_label("Password").fill("lovelace1843")
        form.get_by_label("Password").press("Enter")
        expect(kiosk.locator(".account-name")).to_contain_text("Ada Lovelace", timeout=WAIT_MS)

        csv = page.evaluate(FETCH, f"/lots/{lot['id']}/bids.csv")
        assert csv["status"] == 200 and csv["type"] == "text/csv; charset=utf-8" and csv["protocol"] == "h2"
        lines = csv["text"].split("\r\n")
        assert lines[0] == "bid,placed_at,amount,amount_cents,bidder" and lines[-1] == ""
        assert len(lines) - 2 >= lot["bidCount"], (len(lines), lot["bidCount"])
        assert [line.split(",", 1)[0] for line in lines[1:-1]] == [str(n) for n in range(1, len(lines) - 1)]
    finally:
        context.close()
