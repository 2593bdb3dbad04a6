#!/usr/bin/env python3
"""Bytes on the wire for the kiosk's page in Debian's headless Chromium: a first visit
(empty cache) and a revisit (same browser profile), as Chromium's network events count
them (encoded body and headers of every HTTP response; the WebSocket is not counted),
with gzip accepted and with it refused (Accept-Encoding: identity), in one run.

    scripts/runtime-wire.py PATH-TO-footlight-demo

Prints a Markdown table. Used by `scripts/bench runtime`.
"""

from __future__ import annotations

import atexit
import re
import shutil
import subprocess
import sys
import tempfile
import threading

from playwright.sync_api import sync_playwright

WAIT_MS = 15_000


def start(binary: str) -> tuple[subprocess.Popen, int]:
    # The kiosk's database in a folder of its own, removed when the program ends.
    data = tempfile.mkdtemp(prefix="footlight-wire-")
    atexit.register(shutil.rmtree, data, ignore_errors=True)
    process = subprocess.Popen(
        [binary, "--host", "127.0.0.1", "--port", "0", "--public-directory", "Public", "--log-level", "warning",
         "--data-dir", data],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, text=True)
    found: dict[str, int] = {}
    ready = threading.Event()

    def read():
        for line in process.stdout:
            match = re.fullmatch(r"Footlight demo on http://127\.0\.0\.1:(\d+)/", line.strip())
            if match and not ready.is_set():
                found["port"] = int(match.group(1))
                ready.set()
        ready.set()

    threading.Thread(target=read, daemon=True).start()
    ready.wait(10)
    if "port" not in found:
        process.kill()
        sys.exit("runtime-wire: the demo server printed no address within 10 s")
    return process, found["port"]


def visit(page, client, url: str) -> dict:
    """Loads `url` until the page has joined; returns {requests, bytes, cached}."""
    responses: dict[str, dict] = {}

    def received(event):
        response = event["response"]
        if response["url"].startswith("http"):
            responses[event["requestId"]] = {"url": response["url"], "bytes": 0,
                                             "cached": response.get("fromDiskCache") or response.get("fromMemoryCache")}

    def finished(event):
        if event["requestId"] in responses:
            responses[event["requestId"]]["bytes"] = event["encodedDataLength"]

    served_from_cache: set[str] = set()

    def from_cache(event):
        served_from_cache.add(event["requestId"])

    events = {"Network.responseReceived": received, "Network.loadingFinished": finished,
              "Network.requestServedFromCache": from_cache}
    for name, handler in events.items():
        client.on(name, handler)
    page.goto(url, timeout=WAIT_MS)
    page.wait_for_function("() => window.footlight && window.footlight.state().joined", timeout=WAIT_MS)
    page.wait_for_timeout(300)  # late loadingFinished events
    for name, handler in events.items():
        client.remove_listener(name, handler)
    for request_id in served_from_cache & responses.keys():
        responses[request_id]["cached"] = True
    fetched = [r for r in responses.values() if not r["cached"]]
    return {"requests": len(responses), "fetched": len(fetched), "bytes": sum(r["bytes"] for r in responses.values()),
            "urls": sorted("/" + r["url"].split("/", 3)[-1] for r in fetched)}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    process, port = start(sys.argv[1])
    url = f"http://127.0.0.1:{port}/"
    rows = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                                                 args=["--no-sandbox"])
            for encoding in ("gzip accepted", "identity only"):
                context = browser.new_context()
                page = context.new_page()
                client = context.new_cdp_session(page)
                client.send("Network.enable")
                if encoding == "identity only":
                    client.send("Network.setExtraHTTPHeaders", {"headers": {"Accept-Encoding": "identity"}})
                for name in ("first visit", "revisit"):
                    result = visit(page, client, url)
                    rows.append((encoding, name, result))
                context.close()
            browser.close()
    finally:
        process.terminate()
        process.wait(5)
    print("| Accept-Encoding | visit | responses | fetched (not from cache) | bytes on the wire | fetched |")
    print("| --- | --- | ---: | ---: | ---: | --- |")
    for encoding, name, result in rows:
        print(f"| {encoding} | {name} | {result['requests']} | {result['fetched']} | {result['bytes']:,} | "
              f"{', '.join(result['urls']) or '–'} |")


if __name__ == "__main__":
    main()
