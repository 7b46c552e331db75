"""Image comparisons shared by the renderer tests."""

from __future__ import annotations

from PIL import Image, ImageChops


def same(a: Image.Image, b: Image.Image) -> bool:
    """Pixel-identical (in RGB) and the same size."""
    return (
        a.size == b.size
        and ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None
    )
