"""Golden screenshots: compares a screenshot with a committed golden image within a
tolerance and, when they differ, saves the screenshot and a diff image beside the other
artifacts and says where. With FOOTLIGHT_UPDATE_PREVIEWS=1 it writes the golden instead
(review the new images before committing them)."""

import io
import os
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageChops, ImageOps

# A pixel differs when one of its channels differs by more than this (0–255): anti-aliasing
# of the same text varies by less.
CHANNEL_TOLERANCE = 48
# The most differing pixels a matching screenshot may have: fewer than a short word's (a
# label gone missing changes a few hundred), more than stray anti-aliasing.
PIXEL_TOLERANCE = 64

UPDATING = os.environ.get("FOOTLIGHT_UPDATE_PREVIEWS") == "1"


@dataclass
class Comparison:
    """What a comparison found: `problem` is None when the screenshot matches."""

    problem: str | None
    differing: int = 0
    pixels: int = 0


def compare(png: bytes, golden: Path, failures: Path, name: str) -> Comparison:
    """Compares the screenshot `png` with the image at `golden`. A mismatch saves
    `failures/<name>.actual.png` and, for images of one size, `failures/<name>.diff.png`
    (the screenshot faded, the differing pixels red)."""
    actual = Image.open(io.BytesIO(png)).convert("RGB")
    if UPDATING:
        golden.parent.mkdir(parents=True, exist_ok=True)
        actual.save(golden, optimize=True)
        return Comparison(None)
    failures.mkdir(parents=True, exist_ok=True)
    saved = failures / f"{name}.actual.png"
    if not golden.exists():
        actual.save(saved)
        return Comparison(f"{name}: no golden image at {golden} (the screenshot is at {saved}; "
                          "FOOTLIGHT_UPDATE_PREVIEWS=1 writes it)")
    expected = Image.open(golden).convert("RGB")
    if expected.size != actual.size:
        actual.save(saved)
        return Comparison(f"{name}: the screenshot is {actual.size[0]}×{actual.size[1]}, the golden "
                          f"{expected.size[0]}×{expected.size[1]} (screenshot: {saved})")
    # Per pixel, the largest difference of a channel; then which exceed the tolerance.
    channels = ImageChops.difference(actual, expected).split()
    largest = channels[0]
    for channel in channels[1:]:
        largest = ImageChops.lighter(largest, channel)
    mask = largest.point(lambda value: 255 if value > CHANNEL_TOLERANCE else 0)
    differing = mask.histogram()[255]
    pixels = actual.size[0] * actual.size[1]
    if differing <= PIXEL_TOLERANCE:
        return Comparison(None, differing, pixels)
    actual.save(saved)
    faded = ImageOps.grayscale(actual).point(lambda value: 160 + value * 95 // 255).convert("RGB")
    faded.paste((220, 0, 0), mask=mask)
    diff = failures / f"{name}.diff.png"
    faded.save(diff)
    return Comparison(f"{name}: {differing} of {pixels} pixels differ (tolerance {PIXEL_TOLERANCE}); "
                      f"screenshot {saved}, diff {diff}", differing, pixels)
