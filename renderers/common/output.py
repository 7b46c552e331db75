"""Images out: palette reduction and fast PNG encoding."""

from __future__ import annotations

from io import BytesIO

from PIL import Image


def quantize(image: Image.Image, colours: int = 64, *, sample_step: int = 3) -> Image.Image:
    """``image`` reduced to at most ``colours`` palette entries, no dithering.

    The palette is chosen (fast octree) from every ``sample_step``-th pixel
    in each direction, then the whole image is mapped onto it: about three
    times faster than quantizing every pixel, and as faithful for flat board
    graphics (each colour covers far more than one sampled pixel; thin
    antialiasing shades go to their nearest neighbour).
    """
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    step = max(1, sample_step)
    sample = rgb
    if step > 1 and rgb.width >= 4 * step and rgb.height >= 4 * step:
        sample = rgb.resize((rgb.width // step, rgb.height // step), Image.Resampling.NEAREST)
    palette = sample.quantize(colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    if sample is rgb:
        return palette
    return rgb.quantize(palette=palette, dither=Image.Dither.NONE)


def to_png(image: Image.Image, *, colours: int = 64, compress_level: int = 3) -> bytes:
    """Encode ``image`` as PNG, fast and small.

    An RGB(A) image is first reduced to ``colours`` palette entries without
    dithering (:func:`quantize`: flat board graphics barely change, and the
    file and the encode time roughly halve); a palette image is written as it
    is.  ``optimize`` stays off (it costs several times the encode);
    ``compress_level`` is zlib's (lower is faster and bigger).
    """
    if image.mode != "P":
        image = quantize(image, colours)
    buffer = BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=compress_level)
    return buffer.getvalue()
