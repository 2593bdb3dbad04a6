"""Components in a real browser: the examples app's tallies (one component per row of a list,
each with its own count, its template including another) and the kiosk's sign-up form (one
component in a dialog, which takes focus where it asks for it)."""

import pytest
from playwright.sync_api import expect

from conftest import LATENCIES
from test_kiosk import dialog, listings, open_kiosk  # noqa: F401

TALLIES = ("counter", "signup", "lots")


def open_tallies(open_app):
    app = open_app(path=None)
    app.root_stages = TALLIES
    app.goto("/tallies")
    app.wait_for("(s) => Object.keys(s.documents).filter((id) => id.startsWith('tally-c')).length === 3")
    return app


def rows(app):
    return app.page.locator("ul.tallies > li")


def row(app, label: str):
    return rows(app).filter(has=app.page.locator(".label", has_text=label))


def components(app) -> dict:
    """The tally components' documents, by instance id."""
    return {k: v for k, v in app.state()["documents"].items() if k.startswith("tally-c")}


def test_a_list_of_components_counts_row_by_row_and_keeps_each_row_when_moved(open_app):
    app = open_tallies(open_app)
    page = app.page
    tallies = next(k for k in app.state()["documents"] if k.startswith("tallies-"))
    # The list holds ids; each row holds its component, whose template included another.
    assert app.state()["documents"][tallies] == {"items": [{"id": f"tally-{n}"} for n in (1, 2, 3)]}
    expect(rows(app)).to_have_count(3)
    expect(rows(app).locator("section.footlight-stage")).to_have_count(3)
    expect(page.locator("ul.tallies [data-include]")).to_have_count(0)
    expect(rows(app).locator("output.count")).to_have_text(["0", "0", "0"])
    expect(rows(app).locator(".label")).to_have_text(["Apples", "Pears", "Plums"])

    # Each component takes its own events: two clicks count in Pears alone.
    pears = row(app, "Pears")
    pears.get_by_role("button", name="Pears").click()
    pears.get_by_role("button", name="Pears").click()
    expect(pears.locator("output.count")).to_have_text("2")
    expect(rows(app).locator("output.count")).to_have_text(["0", "2", "0"])
    app.wait_settled()
    assert sorted(doc["count"] for doc in components(app).values()) == [0, 0, 2]
    assert app.state()["documents"][tallies]["items"][1] == {"id": "tally-2"}, "the list did not change"

    # Reversed: the rows move with their components, elements and counts and all.
    pears.locator("section.footlight-stage").evaluate("(el) => { el.dataset.marked = 'yes'; }")
    page.get_by_role("button", name="Reverse").click()
    expect(rows(app).locator(".label")).to_have_text(["Plums", "Pears", "Apples"])
    expect(rows(app).locator("output.count")).to_have_text(["0", "2", "0"])
    expect(row(app, "Pears").locator("section.footlight-stage")).to_have_attribute("data-marked", "yes")

    # A row removed takes its component with it; one added brings a new one.
    page.get_by_role("button", name="Remove the first").click()
    expect(rows(app).locator(".label")).to_have_text(["Pears", "Apples"])
    app.wait_for("(s) => Object.keys(s.documents).filter((id) => id.startsWith('tally-c')).length === 2")
    page.get_by_role("button", name="Add a tally").click()
    expect(rows(app).locator(".label")).to_have_text(["Pears", "Apples", "Tally 4"])
    expect(rows(app).locator("output.count")).to_have_text(["2", "0", "0"])
    row(app, "Tally 4").get_by_role("button", name="Tally 4").click()
    expect(row(app, "Tally 4").locator("output.count")).to_have_text("1")
    app.wait_settled()
    assert sorted(doc["label"] for doc in components(app).values()) == ["Apples", "Pears", "Tally 4"]
    assert app.errors == []


def test_an_event_binding_around_a_component_is_its_parents(open_app):
    app = open_tallies(open_app)
    # The first row's own element gets a click binding of the list stage's ("reverse").
    rows(app).first.evaluate("(li) => li.setAttribute('data-on-click', 'reverse')")
    # A click on the tally's +1 is the tally's alone: it counts, and nothing is reversed.
    row(app, "Apples").get_by_role("button", name="Apples").click()
    expect(row(app, "Apples").locator("output.count")).to_have_text("1")
    app.wait_settled()
    expect(rows(app).locator(".label")).to_have_text(["Apples", "Pears", "Plums"])
    # A click on the tally's label (no binding of its own) reaches the row's: the list reverses.
    row(app, "Apples").locator(".label").click()
    expect(rows(app).locator(".label")).to_have_text(["Plums", "Pears", "Apples"])
    app.wait_settled()
    assert app.errors == []


def test_a_components_events_are_its_own_and_back_removes_them_all(open_app):
    app = open_tallies(open_app)
    page = app.page
    # Typing in a component's field is that component's event (the list stage declares none).
    name = row(app, "Plums").get_by_role("textbox", name="Name")
    name.press_sequentially("mine")
    app.wait_for("(s) => Object.values(s.documents).some((doc) => doc.label === 'Plums' && doc.name === 'mine')")
    assert [doc["name"] for doc in components(app).values()].count("mine") == 1
    # Back pops the list and its components; the page shows the roots again.
    page.go_back()
    expect(page.locator("ul.tallies")).to_have_count(0)
    app.wait_for("(s) => !Object.keys(s.documents).some((id) => id.startsWith('tally'))")
    app.wait_settled()
    assert app.errors == []


def test_the_sign_up_form_takes_focus_in_its_dialog_and_its_events_go_to_it(open_kiosk):
    app = open_kiosk()
    listings(app).get_by_role("button", name="Sign in").click()
    dialog(app, "Sign in").get_by_role("button", name="Create an account").click()
    signup = dialog(app, "Create an account to bid")
    expect(signup).to_be_visible()
    # The form is a component placed in the dialog; its email field asked for focus.
    expect(signup.locator("section.footlight-stage form")).to_have_count(1)
    expect(signup.get_by_label("Email")).to_be_focused()
    app.page.keyboard.type("grace@")
    expect(signup.locator("#signup-email-error")).to_be_visible()
    form = app.wait_for("(s) => Object.keys(s.documents).find((id) => id.startsWith('signup-form-c'))")
    app.wait_for("(s, form) => s.documents[form].email === 'grace@'", form)
    # The dialog's own button still works from beside its component.
    signup.get_by_role("button", name="Sign in instead").click()
    expect(dialog(app, "Sign in")).to_be_visible()
    app.wait_for("(s, form) => !(form in s.documents)", form)
    assert app.errors == []


@pytest.mark.parametrize("delay", LATENCIES)
def test_back_goes_after_the_input_still_waiting_in_a_component(visit, through, delay):
    """Typed into the sign-up form (a component in the dialog, its email debounced 300 ms),
    then at once the browser's Back: the email reaches the server before the dialog's
    @back, as it was done (a click elsewhere blurs the field, which sends it anyway)."""
    app, frames = visit(through(delay))
    listings(app).get_by_role("button", name="Sign in").click()
    dialog(app, "Sign in").get_by_role("button", name="Create an account").click()
    signup = dialog(app, "Create an account to bid")
    expect(signup.get_by_label("Email")).to_be_focused()
    app.page.keyboard.type("grace@example.com", delay=40)
    app.page.go_back()
    expect(app.page.locator("#footlight-modal")).to_be_hidden()
    sent = [(m["name"], m.get("value")) for m in frames.events() if m["name"] in ("email", "@back")]
    assert sent[-2:] == [("email", "grace@example.com"), ("@back", None)], sent
    assert app.errors == []
