"""Input races in a real browser through a slow network (100 ms each way, a key every 15 ms):
nothing typed or pressed is lost, merged or brought back (issue 32). The examples app's quick
entries at /entries: a form whose Enter adds an entry and empties the field at once (the event
declares that it sets the slot `draft` to ""), the field's text recoverable, and a password-like
field the server echoes but never keeps."""

import os
import signal

from playwright.sync_api import expect

from conftest import Proxy, _running_server

DELAY = 0.1  # one way, seconds
KEY_MS = 15  # a fast typist
# The entries stage's document, once mounted (after a restart: once rebuilt, holding no entries).
MOUNTED = "(s) => s.joined && s.unacknowledged === 0 && Object.values(s.documents).some((d) => 'secret' in d && d.entries.length === 0)"


def open_entries(open_app, upstream_port):
    """The quick entries through a proxy to `upstream_port` with DELAY; returns (app, proxy)."""
    proxy = Proxy(upstream_port, delay=DELAY)
    app = open_app(base=proxy.url, path="/entries")
    return app, proxy


def parts(app):
    page = app.page
    return page.get_by_label("New entry"), page.get_by_label("Secret"), page.locator("ul.entries > li")


def entries_document(app):
    return next(d for d in app.state()["documents"].values() if "secret" in d)


def test_three_quick_add_and_enter_rounds_lose_nothing(open_app, server):
    app, proxy = open_entries(open_app, server.port)
    try:
        field, _, entries = parts(app)
        field.click()
        for title in ("one", "two", "three"):
            field.press_sequentially(title, delay=KEY_MS)
            field.press("Enter")
        expect(entries).to_have_text(["one", "two", "three"])
        app.wait_settled()
        expect(field).to_have_value("")
        assert entries_document(app)["draft"] == ""
    finally:
        proxy.close()


def test_keys_typed_right_after_enter_never_join_the_previous_value(open_app, server):
    app, proxy = open_entries(open_app, server.port)
    try:
        field, _, entries = parts(app)
        field.click()
        field.press_sequentially("Key by key", delay=KEY_MS)
        field.press("Enter")
        field.press_sequentially("And another", delay=KEY_MS)
        expect(entries).to_have_text(["Key by key"])
        app.wait_settled()
        expect(field).to_have_value("And another")
        assert entries_document(app)["draft"] == "And another"
        field.press("Enter")
        expect(entries).to_have_text(["Key by key", "And another"])
        expect(field).to_have_value("")
    finally:
        proxy.close()


def restarted(tmp_path_factory, open_app, name, before, after):
    """Runs `before(app)` on an examples server, kills it (SIGKILL), starts another on its port
    and runs `after(app)` once the page is rebuilt there."""
    with _running_server(tmp_path_factory, f"{name}-1", "--app", "examples", killed_by_test=True) as first:
        app, proxy = open_entries(open_app, first.port)
        # Between the kill and the start, the proxy finds no server and closes the page's sockets.
        app.allow_errors(r"WebSocket|ERR_CONNECTION")
        before(app)
        app.wait_settled()
        os.kill(first.process.pid, signal.SIGKILL)
        first.process.wait(5)
        port = first.port
    try:
        with _running_server(tmp_path_factory, f"{name}-2", "--app", "examples", port=port):
            app.wait_for(MOUNTED, timeout=20_000)
            after(app)
    finally:
        proxy.close()


def test_a_recoverable_field_cleared_is_not_brought_back_by_a_restart(open_app, tmp_path_factory):
    def before(app):
        field, _, entries = parts(app)
        field.click()
        field.press_sequentially("Milk", delay=KEY_MS)
        field.press("Enter")
        expect(entries).to_have_text(["Milk"])

    def after(app):
        field, _, entries = parts(app)
        expect(entries).to_have_count(0)  # a new server: the entries were the old one's
        app.wait_settled()
        expect(field).to_have_value("")
        assert entries_document(app)["draft"] == ""

    restarted(tmp_path_factory, open_app, "entries-cleared", before, after)


def test_a_password_being_typed_during_a_restart_keeps_its_characters(open_app, tmp_path_factory):
    def before(app):
        _, secret, _ = parts(app)
        secret.click()
        secret.press_sequentially("pass", delay=KEY_MS)

    def after(app):
        _, secret, _ = parts(app)
        # The rebuilt document knows no password: the field being typed in keeps its text, and
        # sends it again, so the server has it too.
        expect(secret).to_have_value("pass")
        secret.press_sequentially("word9", delay=KEY_MS)
        app.wait_settled()
        expect(secret).to_have_value("password9")
        assert entries_document(app)["secret"] == "password9"

    restarted(tmp_path_factory, open_app, "entries-password", before, after)
