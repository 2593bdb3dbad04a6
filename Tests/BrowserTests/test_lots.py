"""The keyed list: reordering keeps the focused input; Open pushes a detail, back pops it."""

import re

import pytest
from playwright.sync_api import expect

from conftest import WAIT_MS

IDS = ["lot-1", "lot-2", "lot-3", "lot-4", "lot-5"]
TITLES = {
    "lot-1": "Harbour at dusk",
    "lot-2": "Blue study",
    "lot-3": "Portrait of a clockmaker",
    "lot-4": "Still life with pears",
    "lot-5": "Mountain pass",
}

# The rows' titles in DOM order.
DOM_TITLES = "() => [...document.querySelectorAll('[data-stage-id=\"lots\"] li.row .row-title')].map((el) => el.textContent)"


def detail_ids(app):
    return [key for key in app.state()["documents"] if key.startswith("detail")]


@pytest.mark.parametrize("index", [1, 2], ids=["2nd-row", "3rd-row"])
def test_reverse_keeps_the_focused_input(open_app, index):
    app = open_app()
    row_id = IDS[index]
    rows = app.stage("lots").locator("li.row")
    expect(rows).to_have_count(5)
    assert app.page.evaluate(DOM_TITLES) == [TITLES[i] for i in IDS]
    note = rows.nth(index).get_by_role("textbox")
    note.click()
    # Mark this very DOM node: the list must move it, never rebuild it.
    note.evaluate("(input) => { input.dataset.probe = 'kept'; input.__probe = 42; }")
    typed = "needs reframing"
    note.press_sequentially(typed)
    expect(note).to_be_focused()

    # Reverse from script so focus stays in the input; the note events may still be in flight.
    app.page.evaluate("() => window.footlight.send('lots', 'reverse')")
    app.wait_for(
        "(s, a) => { const rows = s.documents.lots.rows; return s.unacknowledged === 0 && rows[0].id === 'lot-5'"
        " && rows.find((r) => r.id === a.id).note === a.typed; }",
        {"id": row_id, "typed": typed},
    )
    expected_order = list(reversed(IDS))
    expect(rows.first.locator(".row-title")).to_have_text(TITLES["lot-5"])
    assert app.page.evaluate(DOM_TITLES) == [TITLES[i] for i in expected_order]

    new_index = expected_order.index(row_id)
    focused = app.page.evaluate(
        """() => {
          const el = document.activeElement;
          const row = el && el.closest('li.row');
          if (!row) return { focused: el ? el.outerHTML.slice(0, 120) : null };
          return { probe: el.dataset.probe, expando: el.__probe, value: el.value,
                   caret: [el.selectionStart, el.selectionEnd],
                   position: [...row.parentNode.children].indexOf(row),
                   title: row.querySelector('.row-title').textContent };
        }"""
    )
    assert focused == {
        "probe": "kept", "expando": 42, "value": typed, "caret": [len(typed), len(typed)],
        "position": new_index, "title": TITLES[row_id],
    }, focused
    expect(rows.nth(new_index).get_by_role("textbox")).to_be_focused()
    expect(rows.nth(new_index).get_by_role("textbox")).to_have_value(typed)

    # Typing goes on in the same input, at its new place.
    app.page.keyboard.type("!")
    app.wait_for(
        "(s, a) => s.unacknowledged === 0 && s.documents.lots.rows.find((r) => r.id === a.id).note === a.typed",
        {"id": row_id, "typed": typed + "!"},
    )
    assert app.state()["documents"]["lots"]["rows"][new_index] == {
        "id": row_id, "title": TITLES[row_id], "note": typed + "!"}


def test_reverse_and_shuffle_buttons_reorder_rows_in_place(open_app):
    app = open_app()
    rows = app.stage("lots").locator("li.row")
    expect(rows).to_have_count(5)
    # Tag every row node; reordering must keep all of them.
    app.page.evaluate("() => document.querySelectorAll('[data-stage-id=\"lots\"] li.row').forEach((li, i) => li.__tag = i + 1)")
    app.stage("lots").get_by_role("button", name="Reverse").click()
    expect(rows.first.locator(".row-title")).to_have_text(TITLES["lot-5"])
    assert app.page.evaluate(DOM_TITLES) == [TITLES[i] for i in reversed(IDS)]
    app.stage("lots").get_by_role("button", name="Shuffle").click()
    app.wait_settled()
    order = [row["id"] for row in app.state()["documents"]["lots"]["rows"]]
    assert sorted(order) == IDS
    assert app.page.evaluate(DOM_TITLES) == [TITLES[i] for i in order]
    tags = app.page.evaluate("() => [...document.querySelectorAll('[data-stage-id=\"lots\"] li.row')].map((li) => li.__tag)")
    assert None not in tags and sorted(tags) == [1, 2, 3, 4, 5], f"row nodes were rebuilt: {tags}"


def test_open_pushes_detail_and_back_pops_it(open_app):
    app = open_app()
    page = app.page
    lots = app.stage("lots")
    row = lots.locator("li.row").nth(2)
    row.get_by_role("textbox").fill("ask about the frame")
    app.wait_settled()
    assert page.url == app.base + "/"

    row.get_by_role("button", name=re.compile(r"^Open")).click()
    detail = page.locator('section.footlight-stage[data-stage-id^="detail"]')
    expect(detail).to_be_visible()
    expect(detail.get_by_role("heading", level=2)).to_have_text(TITLES["lot-3"])
    expect(detail.locator("p.note:not(.empty)")).to_have_text("ask about the frame")
    expect(page).to_have_url(app.base + "/lots/lot-3")
    expect(lots).to_be_hidden()
    expect(app.stage("counter")).to_be_hidden()  # only the top of the stack shows
    ids = app.wait_for("(s) => { const ids = Object.keys(s.documents).filter((id) => id.startsWith('detail')); return ids.length === 1 && ids; }")
    assert app.state()["documents"][ids[0]]["title"] == TITLES["lot-3"]
    app.screenshot("detail-pushed")

    page.go_back(timeout=WAIT_MS)
    expect(detail).to_have_count(0)
    expect(lots).to_be_visible()
    expect(app.stage("counter")).to_be_visible()
    expect(page).to_have_url(app.base + "/")
    app.wait_for("(s, id) => !(id in s.documents) && s.unacknowledged === 0", ids[0])
    expect(lots.locator("li.row").nth(2).get_by_role("textbox")).to_have_value("ask about the frame")

    # The detail's own Back button pops it too (the server's pop takes its History entry away).
    lots.locator("li.row").nth(0).get_by_role("button", name=re.compile(r"^Open")).click()
    expect(detail.get_by_role("heading", level=2)).to_have_text(TITLES["lot-1"])
    expect(page).to_have_url(app.base + "/lots/lot-1")
    detail.get_by_role("button", name=re.compile("Back to the list")).click()
    expect(detail).to_have_count(0)
    expect(lots).to_be_visible()
    expect(page).to_have_url(app.base + "/")
    app.wait_for("(s) => !Object.keys(s.documents).some((id) => id.startsWith('detail')) && s.unacknowledged === 0")


def test_deep_link_shows_the_detail(open_app):
    app = open_app(path=None)
    app.goto("/lots/lot-4")
    page = app.page
    detail = page.locator('section.footlight-stage[data-stage-id^="detail"]')
    expect(detail).to_be_visible()
    expect(detail.get_by_role("heading", level=2)).to_have_text(TITLES["lot-4"])
    expect(detail.locator("p.note:visible")).to_have_text("No note yet.")
    expect(page).to_have_url(app.base + "/lots/lot-4")
    expect(app.stage("lots")).to_be_hidden()
    ids = app.wait_for("(s) => { const ids = Object.keys(s.documents).filter((id) => id.startsWith('detail')); return ids.length === 1 && ids; }")
    assert app.state()["documents"][ids[0]]["title"] == TITLES["lot-4"]
    app.screenshot("detail-deep-link")

    # Closing the deep-linked detail shows the list at the app's root address.
    detail.get_by_role("button", name=re.compile("Back to the list")).click()
    expect(detail).to_have_count(0)
    expect(app.stage("lots")).to_be_visible()
    expect(page).to_have_url(app.base + "/")


def test_open_after_back_and_forward_gets_its_own_url(open_app):
    app = open_app()
    page = app.page
    lots = app.stage("lots")
    detail = page.locator('section.footlight-stage[data-stage-id^="detail"]')
    lots.locator("li.row").nth(1).get_by_role("button", name=re.compile(r"^Open")).click()
    expect(page).to_have_url(app.base + "/lots/lot-2")
    page.go_back()
    expect(detail).to_have_count(0)
    expect(page).to_have_url(app.base + "/")
    page.go_forward()
    # The popped detail does not come back: the runtime undoes the Forward step.
    expect(page).to_have_url(app.base + "/")
    expect(detail).to_have_count(0)
    app.wait_settled()

    lots.locator("li.row").nth(2).get_by_role("button", name=re.compile(r"^Open")).click()
    expect(detail.get_by_role("heading", level=2)).to_have_text(TITLES["lot-3"])
    expect(page).to_have_url(app.base + "/lots/lot-3", timeout=2_000)
