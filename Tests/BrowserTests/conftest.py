"""Real-browser tests for the Footlight demo: the harness.

The session starts the already-built debug server (`footlight-demo`, found through
`swift build --show-bin-path` or $FOOTLIGHT_DEMO_BIN; nothing is built here) on a free
loopback port, and Debian's headless Chromium through Playwright (no browser download).
Each test opens pages with `open_app`, which gives every page its own browser context
(so its own Footlight session), keeps requests off the network, and collects console
errors and uncaught exceptions: a test fails if any appear that it did not declare.

Every wait is bounded (WAIT_MS), and a watchdog fails a test that runs longer than
TEST_SECONDS in total.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import ConsoleMessage, Page, expect, sync_playwright

REPO = Path(__file__).resolve().parents[2]
# The page and runtime served; another folder (e.g. a copy with a deliberate bug) can be set.
PUBLIC = Path(os.environ.get("FOOTLIGHT_PUBLIC_DIR") or REPO / "Public").resolve()
SCREENSHOTS = REPO / "artifacts" / "screenshots"
WAIT_MS = 10_000  # the bound on every wait for a condition in the page
TEST_SECONDS = 90  # the bound on one whole test (setup and teardown included)
START_SECONDS = 10  # the bound on the server printing its address

expect.set_options(timeout=WAIT_MS)


# ---- Watchdog ------------------------------------------------------------------------------


class TestTimeout(Exception):
    pass


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Fails a test (setup, call and teardown) that takes longer than TEST_SECONDS."""

    def expire(signum, frame):
        raise TestTimeout(f"{item.nodeid} ran longer than {TEST_SECONDS} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(TEST_SECONDS)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# ---- The server ----------------------------------------------------------------------------


def _die_with_parent():
    """Runs in the server's child process: the kernel kills it if pytest dies first."""
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _server_binary() -> Path:
    override = os.environ.get("FOOTLIGHT_DEMO_BIN")
    if override:
        binary = Path(override)
    else:
        try:
            bin_path = subprocess.run(
                ["swift", "build", "--show-bin-path"], cwd=REPO, capture_output=True, text=True, timeout=60, check=True
            ).stdout.strip()
        except (OSError, subprocess.SubprocessError) as error:
            pytest.exit(f"cannot ask swift for the build directory ({error}); set FOOTLIGHT_DEMO_BIN", returncode=2)
        binary = Path(bin_path) / "footlight-demo"
    if not os.access(binary, os.X_OK):
        pytest.exit(f"no server binary at {binary}: run `swift build --product footlight-demo` first", returncode=2)
    return binary


@dataclass
class Server:
    process: subprocess.Popen
    port: int
    log: Path
    scheme: str = "http"

    @property
    def url(self) -> str:
        return f"{self.scheme}://127.0.0.1:{self.port}"

    def log_tail(self, lines: int = 40) -> str:
        """The log's last `lines`; for a server that crashed, its crash report from the
        start (the reason and the crashed thread's frames come first)."""
        with contextlib.suppress(OSError):
            log = self.log.read_text(errors="replace").splitlines()
            starts = [i for i, line in enumerate(log) if "💣" in line or "Fatal error" in line]
            if starts:
                return "\n".join(log[starts[0]:starts[0] + 80])
            return "\n".join(log[-lines:])
        return ""


# A turn of app code may take this long (ms) before the loop moves on without it.
DEBUG_TURN_BUDGET_MS = 25


@contextlib.contextmanager
def _running_server(tmp_path_factory, name: str, *options: str, scheme: str = "http", data_dir: Path | None = None,
                    killed_by_test: bool = False, port: int = 0):
    """Starts footlight-demo with `options` on a free loopback port, or `port` (a restart on
    the port of a server the test killed), serving `scheme` (https with the TLS options),
    keeping its data in `data_dir` (default: a new temporary folder); stops it afterwards
    and fails if it exited early (unless the test killed it)."""
    binary = _server_binary()
    folder = tmp_path_factory.mktemp(name)
    log = folder / "stderr.log"
    with open(log, "wb") as stderr:
        process = subprocess.Popen(
            [str(binary), "--host", "127.0.0.1", "--port", str(port), "--public-directory", str(PUBLIC),
             "--log-level", "warning", "--data-dir", str(data_dir or folder / "data"),
             # The default budget (5 ms) is for release builds; these are debug builds, several
             # times slower, and the first session of a process pays one-time initialisation too.
             "--turn-budget", str(DEBUG_TURN_BUDGET_MS), *options],
            cwd=REPO, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=stderr, text=True,
            preexec_fn=_die_with_parent,
        )
    # Read the address on a thread so that the wait for it is bounded.
    found: dict[str, int] = {}
    ready = threading.Event()

    def read_stdout():
        for line in process.stdout:
            match = re.fullmatch(rf"Footlight demo on {scheme}://127\.0\.0\.1:(\d+)/", line.strip())
            if match and not ready.is_set():
                found["port"] = int(match.group(1))
                ready.set()
        ready.set()  # stdout closed: the server exited

    threading.Thread(target=read_stdout, daemon=True).start()
    ready.wait(START_SECONDS)
    instance = Server(process, found.get("port", 0), log, scheme)
    try:
        if "port" not in found:
            status = process.poll()
            pytest.fail(f"the server printed no address within {START_SECONDS} s (exit status {status}):\n"
                        f"{instance.log_tail()}")
        yield instance
        if not killed_by_test and process.poll() is not None:
            # Keep the whole log (pytest removes old temporary folders) beside the screenshots.
            kept = REPO / "artifacts" / "server-logs" / f"{folder.name}.log"
            kept.parent.mkdir(parents=True, exist_ok=True)
            with contextlib.suppress(OSError):
                shutil.copyfile(log, kept)
            pytest.fail(f"the server exited during the tests (status {process.poll()}; log kept at {kept}):\n"
                        f"{instance.log_tail()}")
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)


@pytest.fixture(scope="session")
def server(tmp_path_factory) -> Server:
    """The examples app (one feature of the runtime per scene)."""
    with _running_server(tmp_path_factory, "examples", "--app", "examples") as instance:
        yield instance


@pytest.fixture(scope="session")
def kiosk(tmp_path_factory) -> Server:
    """The auction kiosk, without the simulated bidder (every bid comes from a test)."""
    with _running_server(tmp_path_factory, "kiosk", "--app", "auction") as instance:
        yield instance


# ---- A TCP proxy whose connections the tests can cut ----------------------------------------


class Proxy:
    """Forwards 127.0.0.1:port to the server byte for byte (so Host and Origin match the
    page's own origin). `delay` (seconds, settable at any time) holds every chunk that long
    in each direction, in order, as a network with that one-way latency would. `cut()`
    closes every connection at once; while `down`, new connections are accepted and closed
    at once, so the page cannot reconnect; with `refuse_websockets`, only WebSocket
    upgrades (`GET /ws`) are, so the page itself still loads; with `hold_websockets`, WebSocket
    upgrades wait, unanswered, until `release()` forwards them. `rate` (bytes per second,
    settable at any time; None for no limit) slows each direction of each connection to it,
    as a slow uplink would."""

    def __init__(self, upstream_port: int, delay: float = 0.0, rate: int | None = None):
        self.upstream_port = upstream_port
        self.delay = delay
        self.rate = rate
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.2)
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.pairs: set[tuple[socket.socket, socket.socket]] = set()
        self.up = True
        self.refuse_websockets = False
        self.hold_websockets = False
        self.held: list[socket.socket] = []  # WebSocket upgrades waiting for release()
        self.accepted = 0  # connections forwarded
        self.refused = 0  # connections closed at once while down
        self.closed = False
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _accept(self):
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except (TimeoutError, socket.timeout):
                continue
            except OSError:
                return
            if not self.up or (self.refuse_websockets and _is_websocket_request(client)):
                self.refused += 1
                _hard_close(client)
                continue
            if self.hold_websockets and _is_websocket_request(client):
                with self.lock:
                    self.held.append(client)
                continue
            self._forward(client)

    def _forward(self, client: socket.socket):
        try:
            upstream = socket.create_connection(("127.0.0.1", self.upstream_port), timeout=5)
            upstream.settimeout(None)
        except OSError:
            _hard_close(client)
            return
        pair = (client, upstream)
        with self.lock:
            self.pairs.add(pair)
            self.accepted += 1
        for source, target in (pair, pair[::-1]):
            threading.Thread(target=self._pump, args=(source, target, pair), daemon=True).start()

    def release(self) -> int:
        """Stops holding WebSocket upgrades and forwards those held; returns how many."""
        with self.lock:
            self.hold_websockets = False
            held, self.held = self.held, []
        for client in held:
            self._forward(client)
        return len(held)

    def _pump(self, source, target, pair):
        # Chunks wait in a bounded queue until due; a full queue stops reading (backpressure).
        outbox: queue.Queue = queue.Queue(maxsize=256)
        threading.Thread(target=self._deliver, args=(outbox, target, pair), daemon=True).start()
        try:
            while data := source.recv(16384 if self.rate else 65536):
                if self.rate:
                    time.sleep(len(data) / self.rate)
                self._put(outbox, pair, (time.monotonic() + self.delay, data))
        except OSError:
            pass
        self._put(outbox, pair, None)  # the end: the pair closes once everything is delivered

    def _put(self, outbox: queue.Queue, pair, item):
        while pair in self.pairs:
            with contextlib.suppress(queue.Full):
                return outbox.put(item, timeout=0.2)

    def _deliver(self, outbox: queue.Queue, target, pair):
        try:
            while pair in self.pairs:
                with contextlib.suppress(queue.Empty):
                    item = outbox.get(timeout=0.2)
                    if item is None:
                        break
                    due, data = item
                    if (wait := due - time.monotonic()) > 0:
                        time.sleep(wait)
                    target.sendall(data)
        except OSError:
            pass
        self._close_pair(pair)

    def _close_pair(self, pair):
        with self.lock:
            self.pairs.discard(pair)
        for sock in pair:
            _hard_close(sock)

    def cut(self) -> int:
        """Closes every open connection; returns how many there were."""
        with self.lock:
            pairs = list(self.pairs)
        for pair in pairs:
            self._close_pair(pair)
        return len(pairs)

    def close(self):
        self.closed = True
        self.listener.close()
        self.cut()
        for client in self.held:
            _hard_close(client)
        self.thread.join(2)


def _is_websocket_request(client: socket.socket) -> bool:
    """Whether the connection's first request (peeked at, left in place) is for /ws."""
    client.settimeout(2)
    try:
        return client.recv(8, socket.MSG_PEEK).startswith(b"GET /ws")
    except OSError:
        return False
    finally:
        with contextlib.suppress(OSError):
            client.settimeout(None)


def _hard_close(sock: socket.socket):
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        sock.close()


@pytest.fixture
def proxy(server):
    instance = Proxy(server.port)
    yield instance
    instance.close()


# ---- The kiosk through a slow network -------------------------------------------------------

LATENCIES = [0.0, 0.15]  # one way, seconds: loopback, and a slow network through the Proxy


class Frames:
    """The Footlight messages a page sent, parsed, over every WebSocket it opened."""

    def __init__(self, page):
        self.sent: list[dict] = []
        self.sockets = 0
        page.on("websocket", self._opened)

    def _opened(self, socket):
        self.sockets += 1
        socket.on("framesent", lambda payload: self.sent.append(json.loads(payload)))

    def events(self, name: str | None = None) -> list[dict]:
        return [m for m in self.sent if m.get("t") == "event" and name in (None, m.get("name"))]


@pytest.fixture
def through(kiosk):
    """through(delay) → a Proxy to the kiosk with that one-way delay; closed afterwards."""
    proxies: list[Proxy] = []

    def make(delay: float) -> Proxy:
        proxies.append(Proxy(kiosk.port, delay=delay))
        return proxies[-1]

    yield make
    for proxy in proxies:
        proxy.close()


@pytest.fixture
def visit(open_app):
    """visit(proxy, path="/", clock=False, locale=None) → (App, Frames): the kiosk through `proxy`,
    frames recorded from the start."""

    def open_page(proxy: Proxy, path: str = "/", clock: bool = False, locale: str | None = None):
        app = open_app(base=proxy.url, path=None, root_stages=("listings",), locale=locale)
        frames = Frames(app.page)
        if clock:
            app.page.clock.install()
        app.goto(path)
        return app, frames

    return open_page



# ---- The browser ---------------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser():
    executable = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(
            executable_path=executable,
            args=[
                "--no-sandbox",
                # Belt and braces with the request routing below: nothing leaves the machine.
                "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
            ],
            timeout=30_000,
        )
        yield instance
        instance.close()


def _is_local(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme not in ("http", "https", "ws", "wss") or parts.hostname == "127.0.0.1"


# The examples app's sign-up form: a component of the stage "signup", the first one placed.
FORM = "signup-form-c1"


@dataclass
class App:
    """One page of the demo in its own browser context, with what it logged."""

    page: Page
    base: str
    errors: list[str] = field(default_factory=list)  # console errors and uncaught exceptions
    allowed: list[re.Pattern] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)  # requests to other hosts, aborted
    blocked_navigations: list[str] = field(default_factory=list)  # those loading a page (a tab's)
    root_stages: tuple[str, ...] = ("counter", "signup", "lots", FORM)  # what a join shows

    def goto(self, path: str = "/"):
        self.page.goto(self.base + path, timeout=WAIT_MS)
        self.wait_joined(self.root_stages)

    def state(self) -> dict:
        return self.page.evaluate("() => window.footlight.state()")

    def wait_for(self, condition: str, arg=None, timeout: int = WAIT_MS):
        """Waits until the JS function `condition(state, arg)` is truthy; `state` is
        window.footlight.state() at that moment. Returns the condition's value."""
        script = f"(arg) => {{ const state = window.footlight && window.footlight.state(); return state && ({condition})(state, arg); }}"
        return self.page.wait_for_function(script, arg=arg, timeout=timeout).json_value()

    def wait_joined(self, stages=("counter", "signup", "lots", FORM)):
        """Waits for the session: joined, nothing unacknowledged, `stages` mounted."""
        self.wait_for(
            "(s, stages) => s.joined && s.unacknowledged === 0 && stages.every((id) => id in s.documents)",
            list(stages),
        )

    def wait_settled(self):
        """Waits until every event sent is consumed by the server and the page is joined."""
        self.wait_for("(s) => s.connected && s.joined && s.unacknowledged === 0")

    def stage(self, stage_id: str):
        return self.page.locator(f'section.footlight-stage[data-stage-id="{stage_id}"]')

    def allow_errors(self, pattern: str):
        """Declares console errors matching `pattern` as expected in this test."""
        self.allowed.append(re.compile(pattern))

    def unexpected_errors(self) -> list[str]:
        return [e for e in self.errors if not any(p.search(e) for p in self.allowed)]

    def screenshot(self, name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True, timeout=WAIT_MS)
        return path


@pytest.fixture
def open_app(browser, server):
    """Returns open(base=server.url, path="/", locale=None) → App, each in a fresh browser context.
    After the test, fails it if any page logged an error it did not allow."""
    apps: list[App] = []
    contexts = []

    def open_page(base: str = server.url, path: str | None = "/", root_stages=None, locale: str | None = None) -> App:
        # `locale` sets the browser's language, and with it the Accept-Language header.
        options = {"locale": locale} if locale else {}
        context = browser.new_context(viewport={"width": 1100, "height": 900}, **options)
        context.set_default_timeout(WAIT_MS)
        context.set_default_navigation_timeout(WAIT_MS)
        contexts.append(context)
        app = App(context.new_page(), base)
        if root_stages is not None:
            app.root_stages = tuple(root_stages)

        def block(route):
            app.blocked.append(route.request.url)
            if route.request.is_navigation_request():
                app.blocked_navigations.append(route.request.url)
            route.abort()

        context.route(lambda url: not _is_local(url), block)
        app.page.on("console", lambda m: _record_console(app, m))
        app.page.on("pageerror", lambda error: app.errors.append(f"pageerror: {error}"))
        apps.append(app)
        if path is not None:
            app.goto(path)
        return app

    yield open_page

    problems = []
    for app in apps:
        unexpected = app.unexpected_errors()
        if unexpected:
            problems.append(f"{app.base}: " + "\n  ".join(unexpected))
    for context in contexts:
        with contextlib.suppress(Exception):
            context.close()
    if problems:
        pytest.fail("unexpected console errors:\n  " + "\n  ".join(problems))


def _record_console(app: App, message: ConsoleMessage):
    if message.type == "error":
        location = message.location or {}
        where = f" ({location.get('url', '')}:{location.get('lineNumber', '')})" if location.get("url") else ""
        app.errors.append(f"console.error: {message.text}{where}")


def wait_until(predicate, timeout: float = WAIT_MS / 1000, interval: float = 0.02, message: str = "condition"):
    """Polls a Python predicate (for state outside the page), bounded by `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {message}")
        time.sleep(interval)


@pytest.fixture
def until():
    return wait_until
