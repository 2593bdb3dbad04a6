"""scripts/dev, the development loop, in a real browser (GettingStarted.md, "The development
loop"): the supervisor runs the already-built demo (the gallery) in development mode, watching a
scratch Swift source and a scratch copy of the public folder. Its build is a stand-in that runs the
real compiler on the scratch source alone (`swiftc -typecheck`, about a second), so that a Swift
change goes through the whole loop (watch, build, restart, pages told) quickly; the server it
restarts is the prebuilt binary. The compiler-output parser is tested on its own at the end."""

from __future__ import annotations

import contextlib
import importlib.machinery
import importlib.util
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from conftest import PUBLIC, REPO, WAIT_MS, _die_with_parent, _server_binary, wait_until

DEV = REPO / "scripts" / "dev"
TYPING_DELAY_MS = 40
RECONNECT_SECONDS = 1.0  # the bound on a page joining a restarted server once it listens
GREEN = 'let greeting: String = "Hello"\n'
RED = "let greeting: String = 42\n"  # cannot convert value of type 'Int' to specified type 'String'


def _load_dev():
    """scripts/dev as a module (it has no .py suffix), for its parser."""
    loader = importlib.machinery.SourceFileLoader("footlight_dev", str(DEV))
    spec = importlib.util.spec_from_loader("footlight_dev", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Dev:
    """A running scripts/dev, its scratch folders and what it printed."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.source = folder / "src" / "Greeting.swift"
        self.public = folder / "public"
        self.port = _free_port()
        self.lines: list[str] = []
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self):
        self.source.parent.mkdir(parents=True)
        self.source.write_text(GREEN)
        shutil.copytree(PUBLIC, self.public, ignore=shutil.ignore_patterns("todomvc"))
        command = [
            str(DEV), "--sources", str(self.source.parent), "--public", str(self.public), "--port", str(self.port),
            "--build-command", f"swiftc -typecheck {shlex.quote(str(self.source))}",
            "--binary", str(_server_binary()), "--",
            "--app", "examples", "--public-directory", str(self.public), "--data-dir", str(self.folder / "data"),
            "--turn-budget", "25",
        ]
        self.process = subprocess.Popen(command, cwd=REPO, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True, preexec_fn=_die_with_parent)
        threading.Thread(target=self._read, daemon=True).start()
        self.wait_printed("the server listens", after=0, timeout=60)

    def _read(self):
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def wait_printed(self, text: str, after: int, timeout: float = WAIT_MS / 1000) -> int:
        """Waits for a line holding `text` among those printed from line `after` on; its index."""
        def found():
            return next((i + 1 for i, line in enumerate(self.lines[after:], after) if text in line), None)
        try:
            return wait_until(found, timeout=timeout, message=f"scripts/dev printing {text!r}") - 1
        except AssertionError:
            raise AssertionError(f"scripts/dev did not print {text!r}; it printed:\n" + "\n".join(self.lines[-40:]))

    def save(self, path: Path, text: str):
        """Writes `text` as an editor saves: a new modification time even within the same tick."""
        before = path.stat().st_mtime_ns if path.exists() else 0
        path.write_text(text)
        if path.stat().st_mtime_ns == before:
            os.utime(path, ns=(before + 1_000_000, before + 1_000_000))

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)


@pytest.fixture
def dev(tmp_path):
    if "not in this build" in _help(_server_binary()):
        pytest.skip("the server binary is a release build, which has no development mode")
    instance = Dev(tmp_path)
    try:
        instance.start()
        yield instance
    finally:
        instance.stop()
    assert instance.process.returncode == 0, "scripts/dev exits 0 on Ctrl-C:\n" + "\n".join(instance.lines[-20:])


def _open(open_app, dev, path: str, root_stages=()):
    app = open_app(base=dev.url, path=path, root_stages=root_stages)
    # While the server restarts, the page's redials may meet a closed port.
    app.allow_errors(r"ERR_CONNECTION_REFUSED|WebSocket connection to .* failed")
    return app


def _open_entries(open_app, dev):
    """The gallery's quick entries (a pushed stage at /entries) with a draft typed in its
    recoverable field; the App and the field."""
    app = _open(open_app, dev, "/entries")
    app.wait_for("(s) => s.joined && Object.values(s.documents).some((d) => 'draft' in d)")
    field = app.page.locator("input.new-entry")
    field.press_sequentially("buy milk", delay=TYPING_DELAY_MS)
    app.wait_settled()
    return app, field


def test_a_swift_change_rebuilds_restarts_and_the_page_keeps_its_screen_and_what_was_typed(open_app, dev):
    """A saved Swift file: built, the server restarted, and the open page back on the new server
    without a reload: the pushed stage at its address, the draft typed, the focus; a new session."""
    app, field = _open_entries(open_app, dev)
    token = app.state()["token"]
    app.page.evaluate("window.notReloaded = true")

    mark = len(dev.lines)
    dev.save(dev.source, GREEN.replace("Hello", "Hello again"))
    dev.wait_printed("built in", after=mark)
    dev.wait_printed("the server listens", after=mark, timeout=30)
    listening = time.monotonic()
    app.wait_for("(s, old) => s.joined && s.token !== old && s.unacknowledged === 0", token, timeout=5_000)
    # Told by the development channel, the page redials at once, not after its backoff (after the
    # old server's `bye`, up to 2 s, then up to 4 s).
    rejoined = time.monotonic() - listening
    assert rejoined < RECONNECT_SECONDS, f"the page joined the new server {rejoined:.2f} s after it listened"

    expect(app.page).to_have_url(re.compile(r"/entries$"))
    expect(field).to_have_value("buy milk")
    expect(field).to_be_focused()
    assert app.page.evaluate("window.notReloaded") is True, "the page was not reloaded"
    field.press_sequentially(" and eggs", delay=TYPING_DELAY_MS)
    field.press("Enter")
    expect(app.page.locator("ul.entries li")).to_have_text(["buy milk and eggs"])


def test_a_compile_error_shows_in_an_overlay_with_file_and_line_until_the_build_is_green(open_app, dev):
    """A saved Swift file that does not compile: the old server goes on, and the page shows the
    compiler's message with file:line:column; a page opened then shows it too. Fixed, it goes."""
    app, field = _open_entries(open_app, dev)
    mark = len(dev.lines)
    dev.save(dev.source, RED)
    dev.wait_printed("the build failed", after=mark, timeout=30)

    overlay = app.page.locator("#footlight-dev-overlay")
    expect(overlay).to_be_visible()
    expect(overlay.locator(".footlight-dev-location")).to_have_text([f"{dev.source}:1:24"])
    expect(overlay.locator(".footlight-dev-error")).to_contain_text("cannot convert value of type 'Int'")
    assert app.state()["joined"], "the old server still serves"

    late = _open(open_app, dev, "/entries")
    late.wait_for("(s) => s.joined")
    expect(late.page.locator("#footlight-dev-overlay .footlight-dev-location")).to_have_text([f"{dev.source}:1:24"])

    mark = len(dev.lines)
    dev.save(dev.source, GREEN)
    dev.wait_printed("the server listens", after=mark, timeout=30)
    for page in (app, late):
        expect(page.page.locator("#footlight-dev-overlay")).to_have_count(0)
    app.wait_for("(s) => s.joined && s.unacknowledged === 0", timeout=5_000)
    expect(field).to_have_value("buy milk")


def test_a_server_that_stops_by_itself_is_said_in_the_page_until_a_build_starts_it_again(open_app, dev):
    """The server killed under scripts/dev: open pages say it stopped, with its exit status; the
    next green build starts it again, the overlay goes and the page comes back with its draft."""
    app, field = _open_entries(open_app, dev)
    children = " ".join(path.read_text() for path in Path(f"/proc/{dev.process.pid}/task").glob("*/children"))
    server = int(children.split()[0])
    os.kill(server, signal.SIGKILL)

    overlay = app.page.locator("#footlight-dev-overlay")
    expect(overlay.get_by_role("heading")).to_have_text("The server stopped")
    expect(overlay).to_contain_text("It exited with status -9")
    mark = len(dev.lines)
    dev.save(dev.source, GREEN.replace("Hello", "Hello again"))
    dev.wait_printed("the server listens", after=mark, timeout=30)
    expect(overlay).to_have_count(0)
    app.wait_for("(s) => s.joined && s.unacknowledged === 0", timeout=5_000)
    expect(field).to_have_value("buy milk")


def test_a_template_change_reaches_the_open_page_in_place_keeping_what_was_typed(open_app, dev):
    """A saved page: the open page takes the new template without a reload and without asking the
    server; the draft typed, the focus and the caret stay, and the stage goes on working."""
    app, field = _open_entries(open_app, dev)
    field.press("Home")
    app.page.evaluate("window.notReloaded = true")
    page = dev.public / "index.html"
    html = page.read_text()
    assert "<h2>Quick entries</h2>" in html
    mark = len(dev.lines)
    dev.save(page, html.replace("<h2>Quick entries</h2>", "<h2>Quick entries, edited</h2>"))
    dev.wait_printed("changed index.html", after=mark)

    expect(app.page.get_by_role("heading", name="Quick entries, edited")).to_be_visible()
    expect(field).to_have_value("buy milk")
    expect(field).to_be_focused()
    assert app.page.evaluate("document.activeElement.selectionStart") == 0, "the caret stays"
    assert app.page.evaluate("window.notReloaded") is True, "the page was not reloaded"
    field.press("End")
    field.press("Enter")
    expect(app.page.locator("ul.entries li")).to_have_text(["buy milk"])
    expect(field).to_have_value("")


def test_a_stylesheet_change_reaches_the_open_page_in_place(open_app, dev):
    """A saved stylesheet: loaded again in place (no reload), the draft typed stays."""
    app, field = _open_entries(open_app, dev)
    app.page.evaluate("window.notReloaded = true")
    sheet = next(dev.public.glob("*.css"))
    mark = len(dev.lines)
    dev.save(sheet, sheet.read_text() + "\nh2 { outline: 3px solid rgb(1, 2, 3); }\n")
    dev.wait_printed(f"changed {sheet.name}", after=mark)
    heading = app.page.get_by_role("heading", name="Quick entries")
    expect(heading).to_have_css("outline-color", "rgb(1, 2, 3)")
    expect(field).to_have_value("buy milk")
    assert app.page.evaluate("window.notReloaded") is True, "the page was not reloaded"


def test_a_hook_change_reaches_the_open_page_in_place_in_a_component_keeping_what_was_typed(open_app, dev):
    """A saved hook script: run again, and the stages rendered again, so the hook's new code runs
    on the elements shown (here in the sign-up form, a component placed in its parent's element);
    the email typed stays, and the page was not reloaded."""
    app = _open(open_app, dev, "/", ("counter", "signup", "signup-form-c1"))
    email = app.page.locator("#signup-email")
    email.press_sequentially("ada@exa", delay=TYPING_DELAY_MS)
    app.wait_settled()
    app.page.evaluate("window.notReloaded = true")
    hook = dev.public / "typed-past.js"
    source = hook.read_text()
    assert "h.control = h.el.querySelector" in source
    mark = len(dev.lines)
    dev.save(hook, source.replace("h.control = h.el.querySelector", "h.el.dataset.edited = 'yes';\n      h.control = h.el.querySelector"))
    dev.wait_printed("changed typed-past.js", after=mark)

    field = app.stage("signup-form-c1").locator(".field", has=email)
    expect(field).to_have_attribute("data-edited", "yes")
    expect(email).to_have_value("ada@exa")
    assert app.page.evaluate("window.notReloaded") is True, "the page was not reloaded"
    assert app.page.evaluate("document.querySelectorAll('script[src*=\"typed-past.js\"]').length") == 1
    email.press_sequentially("mple.com", delay=TYPING_DELAY_MS)
    app.wait_for("(s) => s.documents['signup-form-c1']?.email === 'ada@example.com'")  # its events still go


def test_a_hook_that_cannot_run_twice_reloads_the_page_which_keeps_its_screen_and_what_was_typed(open_app, dev):
    """The last resort: a hook script that fails when run again (a top-level `const` declared a
    second time) makes the page reload, and the reload keeps the session: the pushed stage at
    its address and the draft typed."""
    app, field = _open_entries(open_app, dev)
    app.allow_errors(r"devProbe")
    hook = dev.public / "typed-past.js"
    source = hook.read_text()
    dev.save(hook, source + "\nconst devProbe = 1;\n")  # runs again once: fine, declared the first time
    app.wait_for("(s) => document.querySelectorAll('script[src*=\"typed-past.js?\"]').length === 1")
    app.page.evaluate("window.notReloaded = true")
    mark = len(dev.lines)
    dev.save(hook, source + "\nconst devProbe = 2;\n")
    dev.wait_printed("changed typed-past.js", after=mark)
    app.page.wait_for_function("() => window.notReloaded === undefined && window.footlight?.state().joined")

    expect(app.page).to_have_url(re.compile(r"/entries$"))
    expect(app.page.locator("input.new-entry")).to_have_value("buy milk")


def test_a_server_warning_appears_in_the_browser_console(open_app, dev):
    """A line the server logs at warning (here, a binding error the page reports) goes to the
    console of the open pages, as a warning."""
    app = _open(open_app, dev, "/", ("counter",))
    with app.page.expect_console_message(lambda m: "dev-probe-7431" in m.text, timeout=WAIT_MS) as message:
        app.page.evaluate("FootlightTransport.sendReport('', 'dev-probe-7431')")
    assert message.value.type == "warning", message.value.type
    text = message.value.text
    assert text.startswith("footlight server: ") and " warning " in text, text


def _help(binary: Path) -> str:
    text = subprocess.run([str(binary), "--help"], capture_output=True, text=True, timeout=30).stdout
    return " ".join(text.split())


def test_the_help_says_whether_the_build_has_development_mode():
    """--help offers --development and says whether the build has it: a debug build does, a
    release build says "not in this build"."""
    for configuration, says in (("debug", "Debug builds only."), ("release", "not in this build")):
        binary = REPO / ".build" / configuration / "footlight-demo"
        if binary.exists():
            text = _help(binary)
            assert "--development" in text and says in text, f"{binary}: {text}"
    text = _help(_server_binary())
    assert "Debug builds only." in text or "not in this build" in text, text


def test_without_development_mode_pages_get_no_development_script(open_app, server):
    """The ordinary server (no --development): no script tag, and /footlight/dev.js is not there."""
    app = open_app(base=server.url, path="/", root_stages=("counter",))
    assert app.page.locator("script[src='/footlight/dev.js']").count() == 0
    assert app.page.request.get(server.url + "/footlight/dev.js").status == 404


# ---- The compiler's output, read ----------------------------------------------------------------


def test_the_parser_reads_file_line_column_and_message_of_each_error_once():
    dev = _load_dev()
    output = "\n".join([
        "[1/4] Compiling GreeterApp GreetingScene.swift",
        f"{REPO}/Sources/App/Greeting.swift:12:5: error: cannot find 'nmae' in scope",
        "    nmae.send()",
        "    ^~~~",
        f"{REPO}/Sources/App/Greeting.swift:12:5: error: cannot find 'nmae' in scope",  # a second job's copy
        "/elsewhere/Other.swift:3:1: warning: variable 'x' was never used",
        "\x1b[1m/elsewhere/Other.swift:7:20: \x1b[0m\x1b[0;1;31merror: \x1b[0m\x1b[1mexpected ')'\x1b[0m",
        "error: fatalError",
    ])
    assert dev.compiler_errors(output, root=REPO) == [
        {"file": "Sources/App/Greeting.swift", "line": 12, "column": 5, "message": "cannot find 'nmae' in scope"},
        {"file": "/elsewhere/Other.swift", "line": 7, "column": 20, "message": "expected ')'"},
    ]


def test_the_parser_takes_an_error_without_a_column_and_ignores_lines_that_only_look_alike():
    dev = _load_dev()
    output = "\n".join([
        "Package.swift:4:error: bad",  # no space after the colon: not a diagnostic
        "/tmp/a.swift:9: error: undefined symbol",
        "note: see https://example.com:443: error: x",  # a URL's colon is not a file:line
        "12:30:01 error: at a time of day",
    ])
    assert dev.compiler_errors(output, root=REPO) == [
        {"file": "/tmp/a.swift", "line": 9, "column": 0, "message": "undefined symbol"},
    ]


def test_the_parser_keeps_at_most_fifty_errors():
    dev = _load_dev()
    output = "\n".join(f"/a.swift:{n}:1: error: e{n}" for n in range(1, 80))
    errors = dev.compiler_errors(output, root=REPO)
    assert len(errors) == dev.MAX_ERRORS == 50 and errors[-1]["line"] == 50


def test_the_log_level_of_a_server_line():
    dev = _load_dev()
    assert dev.log_level("2026-11-27T23:40:00+0000 warning footlight : the page reports: x\n") == "warning"
    assert dev.log_level("2026-11-27T23:40:00+0000 critical footlight : x") == "critical"
    assert dev.log_level("2026-11-27T23:40:00+0000 info footlight : a warning here") is None
    assert dev.log_level("Footlight demo on http://127.0.0.1:8080/") is None
