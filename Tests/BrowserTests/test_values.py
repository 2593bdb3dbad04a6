"""Typed values and comparisons in a real browser: the examples app's /values. A JavaScript
hook's send from a list row carries the row's id (the server reads it as a RowEvent), and
`data-class="selected:filter=='…'"` / `data-show="filter!='all'"` follow the slot."""

from playwright.sync_api import expect

from test_components import TALLIES

# Registers the "pick" hook the values stage's rows name: a click on a row sends "picked" with
# a record of the hook's own, to which the runtime adds the row's id.
REGISTER_PICK = """() => footlight.hook('pick', {
  mounted(h) { h.el.addEventListener('click', () => h.send('picked', { via: 'hook' })); },
})"""


def open_values(open_app):
    app = open_app(path=None)
    app.root_stages = TALLIES
    app.goto("/values")
    app.wait_for("(s) => Object.keys(s.documents).some((id) => id.startsWith('values-'))")
    return app


def test_a_hooks_send_from_a_row_carries_the_rows_id(open_app):
    app = open_values(open_app)
    app.page.evaluate(REGISTER_PICK)
    rows = app.page.locator("ul.value-rows > li")
    expect(rows).to_have_count(3)
    rows.filter(has_text="Pears").click()
    expect(app.page.locator("p.picked")).to_have_text("Picked row-2")
    rows.filter(has_text="Plums").click()
    expect(app.page.locator("p.picked")).to_have_text("Picked row-3")
    assert not [e for e in app.errors if "picked" in e]


def test_data_class_and_data_show_compare_the_filter_with_a_literal(open_app):
    app = open_values(open_app)
    page = app.page
    buttons = {name: page.locator(".values .actions button", has_text=name) for name in ("All", "Active", "Done")}
    filtered = page.locator("p.filtered")

    def selected():
        return [name for name, button in buttons.items() if "selected" in (button.get_attribute("class") or "")]

    expect(buttons["All"]).to_have_class("selected")
    assert selected() == ["All"]
    expect(filtered).to_be_hidden()
    buttons["Active"].click()
    expect(buttons["Active"]).to_have_class("selected")
    expect(buttons["All"]).not_to_have_class("selected")
    expect(filtered).to_be_visible()
    buttons["Done"].click()
    expect(buttons["Done"]).to_have_class("selected")
    assert selected() == ["Done"]
    buttons["All"].click()
    expect(buttons["All"]).to_have_class("selected")
    assert selected() == ["All"]
    expect(filtered).to_be_hidden()
