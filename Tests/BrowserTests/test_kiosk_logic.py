"""The kiosk's own logic as visitors meet it: a bid message that follows the lot when
someone outbids you, addresses copied with a no-break space, a sign-up failure that is
an error and clears on edit, and a long address that wraps instead of widening the page.
Through the latency proxy at 150 ms one way.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from test_kiosk import dialog, listings, lot_page, place_minimum_bid, sign_in_as_ada, sign_up, unique_email


def test_the_bid_message_follows_the_lot_when_someone_outbids_you(visit, through):
    proxy = through(0.15)
    ada, _ = visit(proxy)
    sign_in_as_ada(ada)
    listings(ada).locator(".lot-open", has_text="Night Ferry").click()
    mine = place_minimum_bid(ada)

    rival, _ = visit(proxy, "/lots/lot-6")
    page = lot_page(rival)
    page.get_by_role("button", name="Sign in to bid").click()
    sign_up(rival, "rival")
    theirs = place_minimum_bid(rival)
    assert theirs > mine
    expect(lot_page(ada).locator(".message")).to_have_text(
        f"You were outbid: the highest bid is now ${theirs / 100:,.2f} (yours was ${mine / 100:,.2f}).")
    expect(lot_page(ada).locator(".message")).to_have_class(re.compile(r"\berror\b"))


def test_an_address_with_a_no_break_space_signs_in_and_a_failure_clears_on_edit(visit, through):
    app, _ = visit(through(0.15))
    email = unique_email("nbsp")
    listings(app).get_by_role("button", name="Sign in").click()
    dialog(app, "Sign in").get_by_role("button", name="Create an account").click()
    form = dialog(app, "Create an account to bid")
    form.get_by_label("Email").fill(email + "\u00a0")  # as copied from a web page
    form.get_by_label("Password").fill("correct horse")
    form.get_by_role("button", name="Sign up").click()
    welcome = app.page.get_by_role("dialog", name=re.compile(r"^Welcome aboard"))
    welcome.get_by_role("button", name="Continue").click()
    listings(app).locator(".account-name").click()
    profile = app.page.locator("section.footlight-stage:has(> .profile)")
    profile.get_by_role("button", name="Sign out").click()

    listings(app).get_by_role("button", name="Sign in").click()
    form = dialog(app, "Sign in")
    form.get_by_label("Email").fill(" " + email.replace("@example.com", "@EXAMPLE.com"))  # the domain's case
    form.get_by_label("Password").fill("correct horse")
    form.get_by_role("button", name="Sign in").click()
    expect(app.page.locator("#footlight-modal")).to_be_hidden()
    listings(app).locator(".account-name").click()
    profile.get_by_role("button", name="Sign out").click()

    # Signing up again with that address fails, as an error, until a field is edited.
    listings(app).get_by_role("button", name="Sign in").click()
    dialog(app, "Sign in").get_by_role("button", name="Create an account").click()
    form = dialog(app, "Create an account to bid")
    form.get_by_label("Email").fill(email)
    form.get_by_label("Password").fill("correct horse")
    form.get_by_role("button", name="Sign up").click()
    message = form.locator(".message")
    expect(message).to_have_text("Sign-up failed: that address already has an account.")
    expect(message).to_have_class(re.compile(r"\berror\b"))
    form.get_by_label("Password").press("End")
    form.get_by_label("Password").press_sequentially("!")
    expect(message).to_be_hidden()


def test_a_long_address_wraps_on_a_phone(open_app, kiosk, through):
    proxy = through(0.0)
    app = open_app(base=proxy.url, path=None, root_stages=("listings",))
    app.page.set_viewport_size({"width": 390, "height": 844})
    app.goto("/")
    email = "a.very.long.name." * 12 + unique_email("x")
    assert len(email) < 254
    listings(app).get_by_role("button", name="Sign in").click()
    dialog(app, "Sign in").get_by_role("button", name="Create an account").click()
    form = dialog(app, "Create an account to bid")
    form.get_by_label("Email").fill(email)
    form.get_by_label("Password").fill("correct horse")
    form.get_by_role("button", name="Sign up").click()
    app.page.get_by_role("dialog", name=re.compile(r"^Welcome aboard")).get_by_role("button", name="Continue").click()
    listings(app).locator(".account-name").click()
    profile = app.page.locator("section.footlight-stage:has(> .profile)")
    expect(profile.get_by_text(email)).to_be_visible()
    app.screenshot("kiosk-profile-long-address")
    assert app.page.evaluate("document.documentElement.scrollWidth") <= 390

    # 992 characters are refused by the server, whatever the page sends.
    profile.get_by_role("button", name="Sign out").click()
    listings(app).get_by_role("button", name="Sign in").click()
    dialog(app, "Sign in").get_by_role("button", name="Create an account").click()
    form = dialog(app, "Create an account to bid")
    form.get_by_label("Email").fill("b" * 980 + "@example.com")
    expect(form.locator(".field-error").first).to_have_text("Use at most 254 characters (992 so far).")
    expect(form.get_by_role("button", name="Sign up")).to_be_disabled()
    assert app.page.evaluate("document.documentElement.scrollWidth") <= 390
