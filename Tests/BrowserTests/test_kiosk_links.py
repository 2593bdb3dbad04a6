"""A link to the profile while signed out offers signing in, then opens the profile."""

import re

from playwright.sync_api import expect

from test_kiosk import dialog, listings, open_kiosk  # noqa: F401 (open_kiosk: a fixture)


def test_a_profile_link_signed_out_offers_sign_in_then_the_profile(open_kiosk):
    app = open_kiosk("/profile")
    form = dialog(app, "Sign in")
    expect(form).to_be_visible()
    expect(app.page.get_by_role("heading", name="Nothing here")).to_have_count(0)
    app.screenshot("kiosk-profile-link-signed-out")
    form.get_by_label("Email").fill("ada@example.com")
    form.get_by_label("Password").fill("lovelace1843")
    form.get_by_role("button", name="Sign in").click()
    profile = app.page.locator("section.footlight-stage:has(> .profile)")
    expect(profile.get_by_role("heading", name="Ada Lovelace")).to_be_visible()
    expect(app.page).to_have_url(re.compile(r"/profile$"))
    assert app.unexpected_errors() == []
