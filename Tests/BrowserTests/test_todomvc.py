"""TodoMVC (`footlight-demo --app todomvc`) in Chromium, per tastejs's app spec, with its
standard markup: each visitor's list, live in every tab of theirs, kept in SQLite across a
reload and a restart; filters at real addresses. Typing at 15 ms a key, also through the
100 ms latency proxy (issue 32)."""

import os
import signal

import pytest
from playwright.sync_api import expect

from conftest import REPO, Proxy, _running_server

KEY_MS = 15  # a fast typist
DELAY = 0.1  # one way, seconds, through the proxy
TODOMVC_PUBLIC = str(REPO / "Public" / "todomvc")


@pytest.fixture(scope="module")
def todomvc(tmp_path_factory):
    with _running_server(tmp_path_factory, "todomvc", "--app", "todomvc", "--public-directory", TODOMVC_PUBLIC) as s:
        yield s


@pytest.fixture
def open_todos(open_app, todomvc):
    """open_todos(base=server's url, path="/", context_of=None) → App: a visitor's TodoMVC page
    (a new visitor unless `context_of` names an App whose browser context, and so cookie, it shares)."""

    def open_page(base=None, path="/", context_of=None):
        if context_of is not None:
            page = context_of.page.context.new_page()
            page.goto((base or todomvc.url) + path)
            page.wait_for_function("() => window.footlight?.state().joined")
            return page
        return open_app(base=base or todomvc.url, path=path, root_stages=("todoapp",))

    return open_page


def add(page, *titles):
    field = page.locator(".new-todo")
    for title in titles:
        field.press_sequentially(title, delay=KEY_MS)
        field.press("Enter")


def titles(page):
    return page.get_by_test_id("todo-title")


def settled(page):
    page.wait_for_function("() => { const s = window.footlight.state(); return s.joined && s.unacknowledged === 0; }")


def test_an_empty_list_hides_main_and_footer_and_the_new_field_has_focus(open_todos):
    app = open_todos()
    page = app.page
    expect(page.locator("h1")).to_have_text("todos")
    new = page.locator("input.new-todo")
    expect(new).to_have_attribute("placeholder", "What needs to be done?")
    expect(new).to_be_focused()
    expect(page.locator(".main")).to_be_hidden()
    expect(page.locator("footer.footer")).to_be_hidden()


def test_enter_adds_a_trimmed_title_as_text_and_empties_the_field(open_todos):
    page = open_todos().page
    add(page, "  Buy milk  ", "   ", "Write <b>tests</b>")
    expect(titles(page)).to_have_text(["Buy milk", "Write <b>tests</b>"])
    expect(page.locator(".todo-list b")).to_have_count(0)  # text, never markup
    expect(page.locator(".new-todo")).to_have_value("")
    expect(page.get_by_test_id("todo-count")).to_have_text("2 items left")
    expect(page.locator(".main")).to_be_visible()
    expect(page.locator("footer.footer")).to_be_visible()
    expect(page.get_by_test_id("todo-item")).to_have_count(2)


def test_the_spec_markup(open_todos):
    page = open_todos().page
    add(page, "One")
    expect(page.locator("input#toggle-all.toggle-all")).to_have_count(1)
    expect(page.locator("label[for=toggle-all]")).to_have_text("Mark all as complete")
    item = page.locator("ul.todo-list > li").first
    for selector in ("input.toggle", "label", "button.destroy", "input.edit"):
        expect(item.locator(selector)).to_have_count(1)
    expect(item.locator("input.edit")).to_have_attribute("aria-label", "Edit")
    expect(page.locator("span.todo-count strong")).to_have_text("1")
    links = page.locator("ul.filters a")
    expect(links).to_have_text(["All", "Active", "Completed"])
    assert [links.nth(i).get_attribute("href") for i in range(3)] == ["/", "/active", "/completed"]
    expect(page.locator("ul.filters a.selected")).to_have_text("All")


def test_toggling_counts_and_clear_completed(open_todos):
    page = open_todos().page
    add(page, "One", "Two", "Three")
    count = page.get_by_test_id("todo-count")
    expect(count).to_have_text("3 items left")
    clear = page.locator("button.clear-completed")
    expect(clear).to_be_hidden()
    page.locator(".toggle").nth(1).check()
    expect(page.get_by_test_id("todo-item").nth(1)).to_have_class("completed")
    expect(count).to_have_text("2 items left")
    expect(clear).to_be_visible()
    expect(clear).to_have_text("Clear completed")
    page.locator(".toggle").nth(0).check()
    expect(count).to_have_text("1 item left")
    clear.click()
    expect(titles(page)).to_have_text(["Three"])
    expect(clear).to_be_hidden()


def test_toggle_all_marks_every_item_and_follows_them(open_todos):
    page = open_todos().page
    add(page, "One", "Two")
    toggle_all = page.locator("#toggle-all")
    page.locator("label[for=toggle-all]").click()
    expect(page.locator("li.completed")).to_have_count(2)
    expect(toggle_all).to_be_checked()
    page.locator(".toggle").first.uncheck()
    expect(toggle_all).not_to_be_checked()
    page.locator("label[for=toggle-all]").click()
    expect(page.locator("li.completed")).to_have_count(2)
    page.locator("label[for=toggle-all]").click()
    expect(page.locator("li.completed")).to_have_count(0)
    expect(page.get_by_test_id("todo-count")).to_have_text("2 items left")


def test_destroy_removes_the_item(open_todos):
    page = open_todos().page
    add(page, "One", "Two")
    item = page.get_by_test_id("todo-item").first
    item.hover()
    item.locator("button.destroy").click()
    expect(titles(page)).to_have_text(["Two"])
    item = page.get_by_test_id("todo-item").first
    item.hover()
    item.locator("button.destroy").click()
    expect(page.locator(".main")).to_be_hidden()


def test_double_click_edits_enter_and_blur_save_escape_discards_empty_removes(open_todos):
    page = open_todos().page
    add(page, "One", "Two", "Three")
    items = page.get_by_test_id("todo-item")
    # Enter saves, trimmed; the other controls hide while editing.
    titles(page).nth(0).dblclick()
    expect(items.nth(0)).to_have_class("editing")
    edit = items.nth(0).locator("input.edit")
    expect(edit).to_be_focused()
    expect(edit).to_have_value("One")
    expect(items.nth(0).locator(".toggle")).to_be_hidden()
    edit.fill("")
    edit.press_sequentially("  Uno  ", delay=KEY_MS)
    edit.press("Enter")
    expect(titles(page).nth(0)).to_have_text("Uno")
    expect(page.locator("li.editing")).to_have_count(0)
    # Blur saves.
    titles(page).nth(1).dblclick()
    edit = items.nth(1).locator("input.edit")
    expect(edit).to_be_focused()
    edit.press_sequentially(" too", delay=KEY_MS)
    page.locator("h1").click()
    expect(titles(page).nth(1)).to_have_text("Two too")
    expect(page.locator("li.editing")).to_have_count(0)
    # Escape discards, and the next edit starts from the title.
    titles(page).nth(2).dblclick()
    edit = items.nth(2).locator("input.edit")
    expect(edit).to_be_focused()
    edit.press_sequentially(" nope", delay=KEY_MS)
    edit.press("Escape")
    expect(page.locator("li.editing")).to_have_count(0)
    settled(page)
    expect(titles(page).nth(2)).to_have_text("Three")
    titles(page).nth(2).dblclick()
    expect(items.nth(2).locator("input.edit")).to_have_value("Three")
    # An empty title removes the item.
    items.nth(2).locator("input.edit").fill("")
    items.nth(2).locator("input.edit").press("Enter")
    expect(titles(page)).to_have_text(["Uno", "Two too"])


def test_filters_are_addresses_of_one_stage_with_back_and_deep_links(open_todos, todomvc):
    app = open_todos()
    page = app.page
    add(page, "Active one", "Done one")
    page.locator(".toggle").nth(1).check()
    expect(page.locator("li.completed")).to_have_count(1)
    selected = page.locator("ul.filters a.selected")
    page.get_by_role("link", name="Active").click()
    expect(page).to_have_url(todomvc.url + "/active")
    expect(titles(page)).to_have_text(["Active one"])
    expect(selected).to_have_text("Active")
    page.get_by_role("link", name="Completed").click()
    expect(page).to_have_url(todomvc.url + "/completed")
    expect(titles(page)).to_have_text(["Done one"])
    # Ten filter clicks later, still one stage (and one toggle-all).
    for name in ["All", "Active", "Completed"] * 3 + ["All"]:
        page.get_by_role("link", name=name, exact=True).click()
    expect(page).to_have_url(todomvc.url + "/")
    settled(page)
    expect(page.locator(".footlight-stage")).to_have_count(1)
    expect(page.locator("#toggle-all")).to_have_count(1)
    # Back goes to the filter before, in the same stage.
    page.go_back()
    expect(page).to_have_url(todomvc.url + "/completed")
    expect(selected).to_have_text("Completed")
    expect(titles(page)).to_have_text(["Done one"])
    page.go_forward()
    expect(selected).to_have_text("All")
    # A deep link, and a reload, open the filter.
    page.goto(todomvc.url + "/active")
    expect(selected).to_have_text("Active")
    expect(titles(page)).to_have_text(["Active one"])
    page.reload()
    expect(selected).to_have_text("Active")
    expect(titles(page)).to_have_text(["Active one"])
    app.screenshot("todomvc-active")


def test_the_list_is_the_visitors_live_in_every_tab_and_kept_across_a_reload(open_todos):
    app = open_todos()
    page = app.page
    add(page, "Shared")
    other = open_todos(context_of=app)
    expect(titles(other)).to_have_text(["Shared"])
    add(other, "From the second tab")
    expect(titles(page)).to_have_text(["Shared", "From the second tab"])
    page.locator(".toggle").first.check()
    expect(other.locator("li.completed")).to_have_count(1)
    page.reload()
    expect(titles(page)).to_have_text(["Shared", "From the second tab"])
    # Another visitor has a list of their own.
    stranger = open_todos()
    expect(stranger.page.locator(".main")).to_be_hidden()


def test_quick_typing_through_a_slow_network_loses_and_merges_nothing(open_todos, todomvc):
    proxy = Proxy(todomvc.port, delay=DELAY)
    try:
        app = open_todos(base=proxy.url)
        page = app.page
        field = page.locator(".new-todo")
        field.click()
        # Three quick add-and-Enter rounds, then keys right after Enter.
        add(page, "one", "two", "three")
        field.press_sequentially("Key by key", delay=KEY_MS)
        field.press("Enter")
        field.press_sequentially("And another", delay=KEY_MS)
        expect(titles(page)).to_have_text(["one", "two", "three", "Key by key"])
        expect(field).to_have_value("And another")
        field.press("Enter")
        expect(titles(page)).to_have_text(["one", "two", "three", "Key by key", "And another"])
        expect(field).to_have_value("")
        # An edit at speed through the proxy.
        titles(page).nth(0).dblclick()
        edit = page.get_by_test_id("todo-item").nth(0).locator("input.edit")
        expect(edit).to_be_focused()
        edit.press("End")
        edit.press_sequentially(" more", delay=KEY_MS)
        edit.press("Enter")
        expect(titles(page).nth(0)).to_have_text("one more")
        app.screenshot("todomvc-typed")
    finally:
        proxy.close()


def test_the_list_survives_a_restart(open_todos, tmp_path_factory):
    data = tmp_path_factory.mktemp("todomvc-restart-data")
    options = ("--app", "todomvc", "--public-directory", TODOMVC_PUBLIC)
    with _running_server(tmp_path_factory, "todomvc-1", *options, data_dir=data, killed_by_test=True) as first:
        proxy = Proxy(first.port)
        try:
            app = open_todos(base=proxy.url)
            page = app.page
            add(page, "Before the restart")
            page.locator(".toggle").first.check()
            settled(page)
            os.kill(first.process.pid, signal.SIGKILL)
            first.process.wait(5)
            with _running_server(tmp_path_factory, "todomvc-2", *options, data_dir=data, port=first.port):
                # The same page, its session rebuilt on the new process; the same visitor.
                app.allow_errors("WebSocket|ERR_CONNECTION|not-rebuilt")
                add(page, "After it")
                expect(titles(page)).to_have_text(["Before the restart", "After it"])
                expect(page.locator("li.completed")).to_have_count(1)
                page.reload()
                expect(titles(page)).to_have_text(["Before the restart", "After it"])
        finally:
            proxy.close()


def test_back_to_an_entry_of_another_page_load_shows_its_filter(open_todos, todomvc):
    app = open_todos()
    page = app.page
    add(page, "Active one", "Done one")
    page.locator(".toggle").nth(1).check()
    expect(page.locator("li.completed")).to_have_count(1)
    settled(page)
    selected = page.locator("ul.filters a.selected")
    # An address typed in the bar loads the page again, in the same tab (the same session).
    page.goto(todomvc.url + "/completed")
    expect(selected).to_have_text("Completed")
    expect(titles(page)).to_have_text(["Done one"])
    # Back loads the earlier entry's page: it shows that entry's filter, and its address stays.
    page.go_back()
    expect(selected).to_have_text("All")
    expect(titles(page)).to_have_text(["Active one", "Done one"])
    settled(page)
    expect(page).to_have_url(todomvc.url + "/")
    page.go_forward()
    expect(selected).to_have_text("Completed")
    settled(page)
    expect(page).to_have_url(todomvc.url + "/completed")
