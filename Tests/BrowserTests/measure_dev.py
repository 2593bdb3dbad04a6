"""Measures scripts/dev's loop (README, "The development loop"): from saving a file to an open
page showing the change, in Debian's Chromium, through the real supervisor and the real build.

- Swift: the gallery's counter text (Sources/Examples/Gallery/CounterDirector.swift) edited, then
  `swift build --product footlight-demo` (debug, incremental: the Gallery module and the link),
  the server restarted, the page reconnected and rebuilt, showing the new text.
- Template: the counter's heading edited in a scratch copy of Public/index.html, the page taking
  it in place.

    python3 Tests/BrowserTests/measure_dev.py [RUNS]     # default 3; prints each run and the medians

Not a test (pytest collects test_*.py only). It edits the repository's CounterDirector.swift and
puts it back afterwards, building once more.
"""

from __future__ import annotations

import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parents[2]
DIRECTOR = REPO / "Sources/Examples/Gallery/CounterDirector.swift"
ORIGINAL = 'count.map { "Count: \\($0)" }'


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def main(runs: int):
    scratch = Path(tempfile.mkdtemp(prefix="measure-dev-"))
    public = scratch / "public"
    shutil.copytree(REPO / "Public", public)
    port = free_port()
    lines: list[str] = []
    source = DIRECTOR.read_text()
    assert ORIGINAL in source
    process = subprocess.Popen(
        [str(REPO / "scripts/dev"), "--port", str(port), "--public", str(public), "--",
         "--app", "examples", "--public-directory", str(public), "--data-dir", str(scratch / "data")],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    threading.Thread(target=lambda: [lines.append(line) for line in process.stdout], daemon=True).start()
    try:
        deadline = time.monotonic() + 600
        while not any("the server listens" in line for line in lines):
            assert time.monotonic() < deadline and process.poll() is None, "".join(lines[-30:])
            time.sleep(0.1)
        swift, builds, template = [], [], []
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=["--no-sandbox"])
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{port}/")
            page.wait_for_selector("p.count")
            for run in range(1, runs + 1):
                text = f"Count (edit {run}): "
                mark = len(lines)
                started = time.monotonic()
                DIRECTOR.write_text(source.replace(ORIGINAL, f'count.map {{ "{text}\\($0)" }}'))
                page.wait_for_function(f"document.querySelector('p.count')?.textContent.startsWith({text!r})",
                                       timeout=600_000, polling=20)
                swift.append(time.monotonic() - started)
                # The build's own time, as scripts/dev printed it ("dev: built in 4.1 s").
                builds.append(float(next(line.split()[3] for line in lines[mark:] if "dev: built in" in line)))

                heading = f"Counter (edit {run})"
                html = (public / "index.html").read_text()
                started = time.monotonic()
                (public / "index.html").write_text(_retitle(html, heading))
                page.wait_for_function(f"[...document.querySelectorAll('h2')].some((h) => h.textContent === {heading!r})",
                                       timeout=60_000, polling=20)
                template.append(time.monotonic() - started)
                print(f"run {run}: Swift {swift[-1]:.2f} s (the build {builds[-1]:.1f} s), "
                      f"template {template[-1] * 1000:.0f} ms", flush=True)
            browser.close()
        print(f"median of {runs}: Swift {statistics.median(swift):.2f} s (range {min(swift):.2f}-{max(swift):.2f}; "
              f"the build {statistics.median(builds):.1f} s), "
              f"template {statistics.median(template) * 1000:.0f} ms "
              f"(range {min(template) * 1000:.0f}-{max(template) * 1000:.0f})")
    finally:
        DIRECTOR.write_text(source)
        process.send_signal(signal.SIGINT)
        process.wait(60)
        shutil.rmtree(scratch, ignore_errors=True)
        # The binary built from the file as it is again.
        subprocess.run(["swift", "build", "--product", "footlight-demo"], cwd=REPO, check=False)


def _retitle(html: str, heading: str) -> str:
    """The page with the counter's heading (the first <h2> after its template) replaced."""
    start = html.index('<template data-stage="counter">')
    at = html.index("<h2>", start)
    end = html.index("</h2>", at)
    return html[:at] + f"<h2>{heading}" + html[end:]


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
