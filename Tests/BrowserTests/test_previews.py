"""Stage previews: every kiosk stage shown with a fixed view document and no Director
(StagePreview, `footlight-demo --app previews`), screenshotted in Chromium and compared with
its golden image in Tests/Previews (golden.py). A preview that no longer looks as it did
fails with the screenshot and a diff image in artifacts/previews."""

import io
import subprocess

import pytest
from PIL import Image

import golden
from conftest import REPO, _running_server, _server_binary

GOLDENS = REPO / "Tests" / "Previews"
FAILURES = REPO / "artifacts" / "previews"


def preview_names() -> list[str]:
    names = subprocess.run(
        [str(_server_binary()), "--list-previews"], capture_output=True, text=True, timeout=30, check=True
    ).stdout.split()
    assert names, "the demo lists no previews"
    return names


@pytest.fixture(scope="session")
def previews(tmp_path_factory):
    with _running_server(tmp_path_factory, "previews", "--app", "previews") as instance:
        yield instance


@pytest.fixture
def shoot(open_app, previews):
    """shoot(name) → the PNG of preview `name`, once its stage is shown and drawn."""
    app = open_app(base=previews.url, path=None)

    def screenshot(name: str) -> bytes:
        app.page.goto(f"{previews.url}/previews/{name}")
        app.wait_for("(s) => s.joined && s.unacknowledged === 0 && Object.keys(s.documents).length > 0")
        assert "not-found" not in app.state()["documents"] or name == "not-found", f"no preview {name}"
        app.page.evaluate("() => document.fonts.ready")
        app.page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        return app.page.screenshot(full_page=True, animations="disabled", caret="hide")

    return screenshot


@pytest.mark.parametrize("name", preview_names())
def test_preview_looks_as_its_golden(shoot, name):
    comparison = golden.compare(shoot(name), GOLDENS / f"{name}.png", FAILURES, name)
    assert comparison.problem is None, comparison.problem


def test_every_golden_is_a_preview():
    names = set(preview_names())
    stale = sorted(path.stem for path in GOLDENS.glob("*.png") if path.stem not in names)
    assert not stale, f"golden images with no preview: {stale}"


@pytest.mark.skipif(golden.UPDATING, reason="compares with the goldens")
def test_a_changed_look_fails_with_a_diff_and_noise_does_not(shoot, tmp_path):
    # Another state of the same template is a different look: the comparison fails and
    # saves the screenshot and the diff.
    closed = shoot("lot-closed")
    assert Image.open(io.BytesIO(closed)).size == Image.open(GOLDENS / "lot.png").size, "pick two of one size"
    comparison = golden.compare(closed, GOLDENS / "lot.png", tmp_path, "lot-as-closed")
    assert comparison.problem is not None and comparison.differing > golden.PIXEL_TOLERANCE
    assert (tmp_path / "lot-as-closed.actual.png").exists()
    diff = Image.open(tmp_path / "lot-as-closed.diff.png")
    assert (220, 0, 0) in {color for _, color in diff.convert("RGB").getcolors(maxcolors=1 << 24)}

    # One short label gone (painted over in its card's white) is a different look too.
    image = Image.open(GOLDENS / "lot.png").convert("RGB")
    label = image.copy()
    label.paste((255, 255, 255), (543, 420, 600, 436))  # most of "Starting bid" above the amount
    missing = io.BytesIO()
    label.save(missing, format="PNG")
    assert golden.compare(missing.getvalue(), GOLDENS / "lot.png", tmp_path, "lot-label").problem is not None

    # The golden itself with a few pixels off by a little, and a handful off by a lot,
    # still matches: the tolerance absorbs anti-aliasing.
    image = Image.open(GOLDENS / "lot.png").convert("RGB")
    pixels = image.load()
    for x in range(0, image.size[0], 7):
        red, green, blue = pixels[x, 10]
        pixels[x, 10] = (min(red + 30, 255), green, blue)
    for x in range(20):
        pixels[x, 20] = (0, 255, 0)
    noisy = io.BytesIO()
    image.save(noisy, format="PNG")
    assert golden.compare(noisy.getvalue(), GOLDENS / "lot.png", tmp_path, "lot-noisy").problem is None
