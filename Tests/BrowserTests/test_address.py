"""A stage's address as its Director's state, in a real browser through a 100 ms latency proxy:
filter links change the URL without a new stage, Back and Forward come back as the address
input, a deep link and a reload open the filter, and a restart restores it. And the deep-stack
restart race: what is typed while a restarted server rebuilds a stack of notes reaches the top
note, nothing refused as `unknown-stage` or lost (Protocol.md, "Rebuilding a session")."""

import os
import re
import signal

from playwright.sync_api import expect

from conftest import Frames, Proxy, _running_server

LATENCY = 0.1  # one way, seconds
ROOTS = ("counter", "signup", "lots")


def tasks(app):
    return app.page.locator('section.footlight-stage[data-stage-id^="tasks"]')


def stage_count(app) -> int:
    return app.page.locator(".footlight-stage").count()


def test_filters_are_addresses_of_one_stage(open_app, server):
    proxy = Proxy(server.port, delay=LATENCY)
    try:
        app = open_app(base=proxy.url, path=None, root_stages=ROOTS)
        frames = Frames(app.page)
        app.goto("/tasks")
        shown = tasks(app).locator(".shown")
        expect(shown).to_have_text("Write the docs, Plan the launch, Test the filters")
        stages = stage_count(app)

        tasks(app).get_by_role("link", name="Active").click()
        expect(shown).to_have_text("Write the docs, Test the filters")
        expect(app.page).to_have_url(re.compile(r"/tasks/active$"))
        tasks(app).get_by_role("link", name="Completed").click()
        expect(shown).to_have_text("Plan the launch")
        expect(app.page).to_have_url(re.compile(r"/tasks/completed$"))
        app.wait_settled()
        assert stage_count(app) == stages, "no new stage for a filter"
        assert tasks(app).count() == 1

        # Back: the previous filter, in the same stage; Forward again.
        app.page.go_back()
        expect(app.page).to_have_url(re.compile(r"/tasks/active$"))
        expect(shown).to_have_text("Write the docs, Test the filters")
        app.page.go_back()
        expect(shown).to_have_text("Write the docs, Plan the launch, Test the filters")
        expect(app.page).to_have_url(re.compile(r"/tasks$"))
        app.page.go_forward()
        expect(shown).to_have_text("Write the docs, Test the filters")
        app.wait_settled()
        assert [m["value"] for m in frames.events("@address")] == ["/tasks/active", "/tasks", "/tasks/active"]
        assert stage_count(app) == stages and tasks(app).count() == 1

        # A reload opens the filter the address names, in one stage.
        app.page.reload()
        app.wait_joined(ROOTS)
        expect(shown).to_have_text("Write the docs, Test the filters")
        expect(tasks(app).locator(".filter")).to_have_text("active")
        assert tasks(app).count() == 1

        # Back past the stage's first address goes where it went before: the stage closes.
        app.page.go_back()
        app.page.go_back()
        expect(tasks(app)).to_have_count(0)
        assert app.unexpected_errors() == []
    finally:
        proxy.close()


def test_a_deep_link_opens_a_filter_and_an_unknown_one_is_replaced(open_app, server):
    proxy = Proxy(server.port, delay=LATENCY)
    try:
        app = open_app(base=proxy.url, path="/tasks/completed", root_stages=ROOTS)
        expect(tasks(app).locator(".shown")).to_have_text("Plan the launch")
        expect(app.page).to_have_url(re.compile(r"/tasks/completed$"))
        unknown = open_app(base=proxy.url, path="/tasks/nowhere", root_stages=ROOTS)
        expect(tasks(unknown).locator(".filter")).to_have_text("all")
        expect(unknown.page).to_have_url(re.compile(r"/tasks$"), timeout=5_000)
    finally:
        proxy.close()


def test_a_restart_restores_the_filter(open_app, tmp_path_factory):
    data = tmp_path_factory.mktemp("address-restart-data")
    with _running_server(tmp_path_factory, "address-1", "--app", "examples", data_dir=data, killed_by_test=True) as first:
        proxy = Proxy(first.port, delay=LATENCY)
        try:
            app = open_app(base=proxy.url, path="/tasks", root_stages=ROOTS)
            app.allow_errors(r"ERR_CONNECTION_REFUSED|WebSocket")
            tasks(app).get_by_role("link", name="Completed").click()
            expect(app.page).to_have_url(re.compile(r"/tasks/completed$"))
            app.wait_settled()
            os.kill(first.process.pid, signal.SIGKILL)
            first.process.wait(5)
            app.wait_for("(s) => !s.joined")
            with _running_server(tmp_path_factory, "address-2", "--app", "examples", data_dir=data) as second:
                proxy.upstream_port = second.port
                app.page.evaluate("dispatchEvent(new Event('online'))")
                app.wait_for("(s) => s.joined && s.unacknowledged === 0", timeout=20_000)
                expect(tasks(app).locator(".shown")).to_have_text("Plan the launch")
                expect(app.page).to_have_url(re.compile(r"/tasks/completed$"))
                assert tasks(app).count() == 1
                tasks(app).get_by_role("link", name="Active").click()
                expect(tasks(app).locator(".shown")).to_have_text("Write the docs, Test the filters")
        finally:
            proxy.close()


def test_typing_while_a_deep_stack_is_rebuilt_reaches_the_top_note(open_app, tmp_path_factory):
    """Three notes pushed (/notes/1 … /notes/3); the server is killed and started again; the
    visitor types into the top note while the page reconnects and the new server rebuilds it
    from its address. Every key reaches the rebuilt top note: the page once rebuilt a lower
    note in its place and showed a dead top note that refused what was typed."""
    data = tmp_path_factory.mktemp("deep-restart-data")
    with _running_server(tmp_path_factory, "deep-1", "--app", "examples", data_dir=data, killed_by_test=True) as first:
        proxy = Proxy(first.port, delay=LATENCY)
        try:
            app = open_app(base=proxy.url, path="/tasks", root_stages=ROOTS)
            app.allow_errors(r"ERR_CONNECTION_REFUSED|WebSocket|not-rebuilt")
            tasks(app).get_by_role("button", name="Open a note").click()
            for number in (1, 2):
                note = app.page.locator(".footlight-stage:not([hidden]) .note")
                expect(note.get_by_role("heading")).to_have_text(f"Note {number}")
                note.get_by_role("link", name="Next note").click()
            top = app.page.locator(".footlight-stage:not([hidden]) .note")
            expect(top.get_by_role("heading")).to_have_text("Note 3")
            expect(app.page).to_have_url(re.compile(r"/notes/3$"))
            field = top.get_by_label("Note")
            field.press_sequentially("before", delay=15)
            app.wait_settled()

            os.kill(first.process.pid, signal.SIGKILL)
            first.process.wait(5)
            app.wait_for("(s) => !s.joined")
            with _running_server(tmp_path_factory, "deep-2", "--app", "examples", data_dir=data) as second:
                proxy.upstream_port = second.port
                field.press_sequentially(" during", delay=15)
                app.page.evaluate("dispatchEvent(new Event('online'))")
                # Typing on while the page joins and the rebuilt stack is mounted.
                field.press_sequentially(" the rebuild and after", delay=15)
                app.wait_for("(s) => s.joined && s.unacknowledged === 0", timeout=20_000)
                text = "before during the rebuild and after"
                expect(field).to_have_value(text)
                app.wait_for("(s, text) => Object.values(s.documents).some((d) => d.text === text)", text)
                expect(top.get_by_role("heading")).to_have_text("Note 3")
                expect(app.page.locator("[data-stage-id^='~']")).to_have_count(0)
                expect(app.page.locator(".footlight-not-sent")).to_have_count(0)
                expect(app.page.locator("#footlight-banner")).to_have_text("")
                assert not [e for e in app.errors if "unknown-stage" in e], app.errors
        finally:
            proxy.close()


def test_signing_out_in_one_tab_keeps_what_others_typed_and_their_urls_true(open_app, kiosk):
    """Signed in, one tab shows the trip (/profile/trip), another a lot with a bid typed; a third
    signs out. The app starts the other tabs' sessions over (close 4002): the lot keeps the bid
    typed, the trip tab's address matches what it shows, and both say what happened. (The trip tab
    once showed "Nothing here" at /profile, and the lot lost the amount, with nothing said.)"""
    from test_kiosk import listings, lot_page, sign_in_as_ada

    trip = open_app(base=kiosk.url, path="/", root_stages=("listings",))
    sign_in_as_ada(trip)
    listings(trip).locator(".account-name").click()
    trip.page.locator(".footlight-stage:not([hidden])").get_by_role("button", name=re.compile("trip", re.I)).click()
    expect(trip.page).to_have_url(re.compile(r"/profile/trip$"))
    trip.wait_settled()

    lot = trip.page.context.new_page()
    lot.goto(kiosk.url + "/lots/lot-6")
    amount = lot.locator("section.footlight-stage:has(> .lot-page)").get_by_label("Your bid")
    amount.press_sequentially("1234", delay=30)
    lot.wait_for_function("() => window.footlight.state().unacknowledged === 0")

    other = trip.page.context.new_page()
    other.goto(kiosk.url + "/profile")
    other.get_by_role("button", name="Sign out").click()

    for page in (trip.page, lot):
        expect(page.locator("#footlight-banner")).to_have_text("This page started over after a change in another tab.")
    expect(amount).to_have_value("1234")
    expect(lot).to_have_url(re.compile(r"/lots/lot-6$"))
    lot_heading = lot.locator("section.footlight-stage:has(> .lot-page)").get_by_role("heading").first
    expect(lot_heading).to_be_visible()
    # The trip tab shows what its address names for a visitor signed out: the profile's link
    # offers sign-in (the dialog over the listings), and the address bar still names the profile,
    # as a reload of it shows the same.
    trip.allow_errors(r"not-rebuilt")
    trip.wait_settled()
    dialog = trip.page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("button", name=re.compile("sign in", re.I)).first).to_be_visible()
    expect(trip.page).to_have_url(re.compile(r"/profile(/trip)?$"))
    trip.page.reload()
    trip.wait_settled()
    expect(trip.page.get_by_role("dialog")).to_be_visible()
