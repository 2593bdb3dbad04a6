"""Uploads in a real browser: the kiosk's profile picture (Sources/FootlightServer/Runtime/upload.js and
Stage.upload), its progress bar, the server's refusals, and an upload cut on a slow uplink that
goes on from the bytes the server holds.

The pictures are made here (Pillow), of noise, so they do not compress and take time to send."""

import hashlib
import random

import pytest
from PIL import Image
from playwright.sync_api import expect

from test_kiosk import dialog, listings, open_kiosk, sign_up  # noqa: F401 (open_kiosk: a fixture)

# Records each PUT's body size: a resumed upload sends less than the whole file.
RECORD_PUTS = """
  window.footlightPuts = [];
  const fetchFirst = window.fetch;
  window.fetch = (url, options) => {
    if (options?.method === 'PUT') window.footlightPuts.push(options.body.size);
    return fetchFirst(url, options);
  };
"""


@pytest.fixture(scope="module")
def pictures(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pictures")
    rng = random.Random(7)
    made = {}
    for name, side in (("small", 48), ("large", 640)):
        image = Image.new("RGB", (side, side))
        image.putdata([(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(side * side)])
        path = folder / f"{name}.png"
        image.save(path)
        made[name] = path
    # A GIF named .png: the browser declares image/png, its bytes are a GIF's.
    made["gif"] = folder / "animated.png"
    Image.new("RGB", (32, 32), (200, 40, 40)).save(made["gif"], format="GIF")
    made["text"] = folder / "notes.png"
    made["text"].write_text("not a picture\n" * 50)
    made["huge"] = folder / "huge.png"
    made["huge"].write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(3 * 1024 * 1024))
    return made


def profile(app):
    return app.page.locator("section.footlight-stage:has(> .profile)")


def open_profile(app, name: str):
    listings(app).get_by_role("button", name="Sign in").click()
    dialog(app, "Sign in").get_by_role("button", name="Create an account").click()
    sign_up(app, name)
    listings(app).locator(".account-name").click()
    expect(profile(app)).to_be_visible()
    expect(profile(app).locator(".picture img")).to_be_hidden()  # a new account has none


def shown_picture(app) -> bytes:
    """The bytes of the picture the profile shows, fetched as the page sees them."""
    image = profile(app).locator(".picture img")
    app.page.wait_for_function("document.querySelector('.picture img')?.naturalWidth > 0")
    return bytes(app.page.evaluate(
        "async (src) => [...new Uint8Array(await (await fetch(src)).arrayBuffer())]", image.get_attribute("src")))


def profile_through_proxy(through, visit, name: str):
    """A new account's profile, through a proxy of 100 ms latency whose rate the test sets, with
    each PUT's body size recorded."""
    proxy = through(0.1)
    app, _ = visit(proxy)
    app.page.add_init_script(RECORD_PUTS)
    app.page.reload()
    app.wait_joined(("listings",))
    open_profile(app, name)
    return proxy, app


def test_picture_goes_up_and_shows(open_kiosk, pictures):
    app = open_kiosk()
    open_profile(app, "picasso")
    chooser = profile(app).locator("input[type=file]")
    chooser.set_input_files(str(pictures["small"]))
    expect(profile(app).locator(".picture img")).to_be_visible()
    assert shown_picture(app) == pictures["small"].read_bytes()
    expect(profile(app).locator("progress")).to_be_hidden()
    app.screenshot("profile-picture")
    # A reload shows it again: it is the account's.
    app.page.reload()
    expect(profile(app).locator(".picture img")).to_be_visible()
    assert shown_picture(app) == pictures["small"].read_bytes()
    assert app.unexpected_errors() == []


def test_refused_pictures_say_why(open_kiosk, pictures):
    app = open_kiosk()
    open_profile(app, "refused")
    chooser = profile(app).locator("input[type=file]")
    problem = profile(app).locator(".picture .message")
    chooser.set_input_files(str(pictures["huge"]))
    expect(problem).to_have_text("Choose a picture of at most 2 MB.")
    app.allow_errors("415")  # the browser logs the server's refusal of the text's bytes
    chooser.set_input_files(str(pictures["text"]))
    expect(problem).to_have_text("Choose a PNG, JPEG, GIF or WebP picture.")
    expect(profile(app).locator(".picture img")).to_be_hidden()
    # A good one clears the message.
    chooser.set_input_files(str(pictures["small"]))
    expect(profile(app).locator(".picture img")).to_be_visible()
    expect(problem).to_be_hidden()
    assert app.unexpected_errors() == []


def test_cut_upload_goes_on_from_what_the_server_holds(through, visit, pictures):
    """On a slow uplink with 100 ms of latency, the connections are cut while the picture is on
    its way: the page reconnects, asks for a new address, and sends only the rest."""
    proxy, app = profile_through_proxy(through, visit, "patient")
    size = pictures["large"].stat().st_size
    proxy.rate = 200_000  # bytes per second: the picture takes seconds
    profile(app).locator("input[type=file]").set_input_files(str(pictures["large"]))
    bar = profile(app).locator("progress")
    expect(bar).to_be_visible()
    app.page.wait_for_function("Number(document.querySelector('.picture progress')?.value) >= 20", timeout=20_000)
    app.screenshot("profile-picture-progress")
    app.allow_errors("net::ERR_|Failed to fetch|WebSocket")
    assert proxy.cut() >= 2  # the WebSocket and the upload
    proxy.rate = None
    expect(profile(app).locator(".picture img")).to_be_visible(timeout=20_000)
    assert hashlib.sha256(shown_picture(app)).digest() == hashlib.sha256(pictures["large"].read_bytes()).digest()
    puts = app.page.evaluate("window.footlightPuts")
    assert len(puts) >= 2 and puts[0] == size, puts
    assert 0 < puts[-1] < size * 0.8, f"the last request sent {puts[-1]} of {size} bytes"
    expect(bar).to_be_hidden()


def test_gif_named_png_is_taken_by_its_bytes(open_kiosk, pictures):
    app = open_kiosk()
    open_profile(app, "gifted")
    profile(app).locator("input[type=file]").set_input_files(str(pictures["gif"]))
    expect(profile(app).locator(".picture img")).to_be_visible()
    assert shown_picture(app) == pictures["gif"].read_bytes()
    assert profile(app).locator(".picture img").get_attribute("src").endswith(".gif")
    expect(profile(app).locator(".picture .message")).to_be_hidden()
    assert app.unexpected_errors() == []


def test_spent_ticket_asks_for_a_new_one(open_kiosk, pictures):
    """After a connection reset the browser sends the PUT again with the ticket the first one
    spent, and the server answers 403: the page asks for a new address and the picture arrives."""
    app = open_kiosk()
    open_profile(app, "reset")
    refused = []

    def spent_once(route):
        if not refused:
            refused.append(route.request.url)
            route.fulfill(status=403, body="the upload ticket was used or has expired")
        else:
            route.continue_()

    app.page.route("**/_footlight/upload/**", spent_once)
    app.allow_errors("403")
    profile(app).locator("input[type=file]").set_input_files(str(pictures["small"]))
    expect(profile(app).locator(".picture img")).to_be_visible(timeout=10_000)
    assert refused, "the first request was answered 403"
    assert shown_picture(app) == pictures["small"].read_bytes()
    expect(profile(app).locator("progress")).to_be_hidden()
    assert app.unexpected_errors() == []


def test_second_picture_cancels_the_first_and_cancel_stops(through, visit, pictures):
    """On a slow uplink: a second picture chosen while the first is on its way cancels the first,
    which never shows; Cancel stops an upload, hides the bar and says nothing is wrong."""
    proxy, app = profile_through_proxy(through, visit, "changeable")
    app.page.evaluate("""() => {
      window.footlightShown = [];
      new MutationObserver(() => {
        const src = document.querySelector('.picture img')?.getAttribute('src');
        if (src && !window.footlightShown.includes(src)) window.footlightShown.push(src);
      }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['src'] });
    }""")
    proxy.rate = 100_000
    chooser = profile(app).locator("input[type=file]")
    chooser.set_input_files(str(pictures["large"]))
    bar = profile(app).locator("progress")
    expect(bar).to_be_visible()
    app.page.wait_for_function("Number(document.querySelector('.picture progress')?.value) >= 5", timeout=20_000)
    proxy.rate = None
    chooser.set_input_files(str(pictures["small"]))
    expect(profile(app).locator(".picture img")).to_be_visible(timeout=10_000)
    assert shown_picture(app) == pictures["small"].read_bytes()
    assert len(app.page.evaluate("window.footlightShown")) == 1, "the dropped picture never showed"
    expect(profile(app).locator(".picture .message")).to_be_hidden()

    proxy.rate = 100_000
    chooser.set_input_files(str(pictures["large"]))
    expect(bar).to_be_visible()
    cancel = profile(app).get_by_role("button", name="Cancel")
    expect(cancel).to_be_visible()
    app.screenshot("profile-picture-cancel")
    cancel.click()
    expect(bar).to_be_hidden()
    expect(cancel).to_be_hidden()
    expect(profile(app).locator(".picture .message")).to_be_hidden()
    proxy.rate = None
    app.page.wait_for_timeout(500)
    assert shown_picture(app) == pictures["small"].read_bytes(), "the picture kept is still the last one sent"
    assert app.page.evaluate("document.querySelector('.picture input').value") == ""
    app.allow_errors("net::ERR_|Failed to fetch|abort")
    assert app.unexpected_errors() == []
