"""The counter stage: clicks, the busy state, independent sessions, the About modal."""

from playwright.sync_api import expect

from conftest import WAIT_MS

DOCS_URL = "https://www.swift.org/documentation/"

# Records every change of the "Add one" button's aria-busy attribute in window.__busy.
OBSERVE_BUSY = """(button) => {
  window.__busy = [];
  new MutationObserver((records) => {
    for (const r of records) window.__busy.push(r.target.getAttribute('aria-busy'));
  }).observe(button, { attributes: true, attributeFilter: ['aria-busy'] });
}"""


def test_add_one_updates_the_count_and_the_busy_state(open_app):
    app = open_app()
    counter = app.stage("counter")
    count = counter.locator("p.count")
    add = counter.get_by_role("button", name="Add one")
    expect(count).to_have_text("Count: 0")
    assert app.state()["documents"]["counter"] == {"count": "Count: 0"}
    add.element_handle().evaluate(OBSERVE_BUSY)

    # The click marks the button busy at once, in the same task, before any reply.
    busy_now = add.evaluate("(button) => (button.click(), button.getAttribute('aria-busy'))")
    assert busy_now == "true"
    expect(add).not_to_have_attribute("aria-busy", "true")  # cleared once the server consumed it
    expect(count).to_have_text("Count: 1")

    add.click()
    add.click()
    expect(count).to_have_text("Count: 3")
    app.wait_settled()
    expect(add).not_to_have_attribute("aria-busy", "true")
    expect(add).not_to_have_class("footlight-busy")
    state = app.state()
    assert state["documents"]["counter"] == {"count": "Count: 3"}
    assert state["unacknowledged"] == 0
    # Each click set aria-busy and each acknowledgement removed it (null: attribute removed).
    changes = app.page.evaluate("() => window.__busy")
    assert "true" in changes and changes[-1] is None, changes


def test_two_browser_contexts_are_independent_sessions(open_app):
    first = open_app()
    second = open_app()
    token_a, token_b = first.state()["token"], second.state()["token"]
    assert token_a and token_b and token_a != token_b

    first.stage("counter").get_by_role("button", name="Add one").click()
    first.stage("counter").get_by_role("button", name="Add one").click()
    expect(first.stage("counter").locator("p.count")).to_have_text("Count: 2")
    first.wait_settled()

    # A click in the second page is a barrier: it shows only its own click, not the first's two.
    second.stage("counter").get_by_role("button", name="Add one").click()
    expect(second.stage("counter").locator("p.count")).to_have_text("Count: 1")
    second.wait_settled()
    assert second.state()["documents"]["counter"]["count"] == "Count: 1"
    assert first.state()["documents"]["counter"]["count"] == "Count: 2"
    expect(first.stage("counter").locator("p.count")).to_have_text("Count: 2")
    assert first.state()["token"] == token_a and second.state()["token"] == token_b


def test_about_modal_opens_docs_and_dismisses(open_app):
    app = open_app()
    page = app.page
    dialog = page.get_by_role("dialog", name="About Footlight")
    expect(dialog).to_have_count(0)
    expect(page.locator("#footlight-modal")).to_be_hidden()

    app.stage("counter").get_by_role("button", name="About Footlight").click()
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Footlight runs this page's logic on the server")
    expect(page.locator("#footlight-modal")).to_be_visible()
    close = dialog.get_by_role("button", name="Close")
    expect(close).to_be_focused()  # the template's autofocus
    assert page.evaluate("() => document.getElementById('footlight-outlet').inert") is True
    about_ids = app.wait_for("(s) => { const ids = Object.keys(s.documents).filter((id) => id.startsWith('about')); return ids.length === 1 && ids; }")
    about_id = about_ids[0]
    assert app.state()["documents"][about_id]["text"].startswith("Footlight runs")
    app.screenshot("modal-open")

    # "docs" makes the server send `open`: a new tab for the documentation (its request is aborted).
    with page.context.expect_page(timeout=WAIT_MS) as new_tab:
        dialog.get_by_role("button", name="Read the docs").click()
    popup = new_tab.value
    popup.wait_for_load_state("domcontentloaded", timeout=WAIT_MS)
    # The new tab asked for the documentation (and was stopped there: it shows an error page).
    assert app.blocked_navigations == [DOCS_URL], app.blocked
    assert app.blocked == [DOCS_URL], app.blocked
    assert popup is not page and popup.opener() == page
    assert popup.url != app.base + "/", popup.url
    popup.close()
    expect(dialog).to_be_visible()  # opening the docs does not dismiss the modal
    assert page.url == app.base + "/"

    close.click()
    expect(dialog).to_have_count(0)
    expect(page.locator("#footlight-modal")).to_be_hidden()
    app.wait_for("(s, id) => !(id in s.documents)", about_id)
    assert page.evaluate("() => document.getElementById('footlight-outlet').inert") is False
    expect(app.stage("counter").get_by_role("button", name="About Footlight")).to_be_focused()  # focus returns
    assert page.url == app.base + "/"

    # Escape (the back button's path: @back) dismisses it too.
    app.stage("counter").get_by_role("button", name="About Footlight").click()
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(page.locator("#footlight-modal")).to_be_hidden()
    app.wait_for("(s) => !Object.keys(s.documents).some((id) => id.startsWith('about')) && s.unacknowledged === 0")
    assert page.url == app.base + "/"
