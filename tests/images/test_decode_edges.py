"""Decoding at its edges: the room to show an image, the reasons in words, only the formats
the app shows, one-pixel images, the pixel limit met exactly, long thin images reduced as
Pillow's own resize reduces them, a JPEG drafted at the box's scale, and rows too wide."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from PIL import Image, ImageChops
from tests.api.image_servers import png_bytes

from screen_analysis.images.decode import ImageDecodeError, fit, prepare


def _reason(data: bytes, box: tuple[int, int], **options: int) -> str:
    with pytest.raises(ImageDecodeError) as refused:
        prepare(data, box, **options)
    assert str(refused.value) == refused.value.reason
    return refused.value.reason


def _encoded(image: Image.Image, kind: str, **options: object) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, kind, **options)
    return buffer.getvalue()


@pytest.mark.parametrize("box", [(0, 10), (10, 0), (-1, -1)])
def test_no_room_is_said_before_anything_is_read(box: tuple[int, int]) -> None:
    assert _reason(b"not even an image", box) == "no room to show it"


def test_each_refusal_has_its_reason() -> None:
    from screen_analysis.demo.images import huge_png

    assert _reason(b"<html></html>", (10, 10)) == "not an image"
    assert _reason(png_bytes()[:60], (10, 10)) == "damaged image"
    assert _reason(_encoded(Image.new("RGB", (4, 4)), "BMP"), (10, 10)) == "not an image"
    assert _reason(huge_png(20_000, 20_000), (10, 10)) == "too large (decompression bomb)"
    assert _reason(huge_png(7_000, 7_000), (10, 10)) == "too large (7000×7000 pixels)"


def test_the_pixel_limit_met_exactly_is_decoded() -> None:
    data = png_bytes((100, 100))
    assert prepare(data, (10, 10), max_pixels=10_000).size == (10, 10)
    assert _reason(data, (10, 10), max_pixels=9_999) == "too large (100×100 pixels)"


@pytest.mark.parametrize("size", [(1, 1), (1, 50), (50, 1)])
def test_an_image_one_pixel_wide_or_high_is_shown(size: tuple[int, int]) -> None:
    assert prepare(png_bytes(size), (1, 1)).size == (1, 1)
    assert prepare(png_bytes(size), (20, 20)).size == fit(size, (20, 20))


@pytest.mark.parametrize("size", [(3000, 200), (200, 3000), (600, 5), (5, 600)])
@pytest.mark.parametrize("box", [(100, 100), (300, 90)])
def test_long_thin_images_come_out_as_pillows_own_resize_makes_them(
    size: tuple[int, int], box: tuple[int, int]
) -> None:
    noise = Image.effect_noise(size, 64).convert("RGB")
    ours = prepare(_encoded(noise, "PNG"), box)
    theirs = noise.resize(fit(size, box), Image.Resampling.LANCZOS, reducing_gap=3.0)
    assert ImageChops.difference(ours, theirs).getbbox() is None


def test_a_box_nearly_as_large_as_a_large_image_is_filled() -> None:
    """4 megapixels and a bit into an 1100-pixel box: the reduction the canvas bound asks
    for (2) is more than the box leaves room for (2001 // 1100 = 1), so none is made."""
    image = Image.new("RGB", (2001, 2001), (200, 30, 60))
    assert prepare(_encoded(image, "PNG"), (1100, 1100)).size == (1100, 1100)


def test_a_jpeg_is_drafted_at_the_scale_of_its_box() -> None:
    data = _encoded(Image.effect_noise((1600, 1200), 64).convert("RGB"), "JPEG", quality=90)
    box = (100, 100)
    reference = Image.open(io.BytesIO(data))
    target = fit(reference.size, box)
    reference.draft("RGB", target)
    theirs = reference.convert("RGB").resize(target, Image.Resampling.LANCZOS, reducing_gap=3.0)
    ours = prepare(data, box)
    assert ours.size == target and ImageChops.difference(ours, theirs).getbbox() is None


def _png_header_only(
    width: int,
    height: int,
    depth: int = 8,
    colour: int = 0,
    interlace: int = 0,
    *,
    before: bytes = b"",
    after: bytes = b"",
) -> bytes:
    """A PNG declaring `width`×`height` pixels (8-bit grey unless told), with 1 KiB of rows;
    `before` goes before its IDAT, `after` after its IEND."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body)
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, interlace)
    palette = chunk(b"PLTE", bytes(range(6))) if colour == 3 else b""
    rows = zlib.compress(b"\x00" * 1024)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + palette
        + before
        + chunk(b"IDAT", rows)
        + chunk(b"IEND", b"")
        + after
    )


def test_rows_too_wide_to_read_a_band_of_are_refused_before_any_pixel() -> None:
    width = 64 * 1024 * 1024 // 4 + 1  # one band row would take more than 64 MiB
    assert _reason(_png_header_only(width, 1), (100, 100)) == f"too large (rows of {width} pixels)"
    exact = 64 * 1024 * 1024 // 4  # one band row of exactly 64 MiB is read (and found short)
    assert _reason(_png_header_only(exact, 1), (100, 100)) == "damaged image"


def test_a_band_of_rows_reduced_together_counts_every_row() -> None:
    """9 million pixels wide, 6 high, into a 100-pixel box: rows are reduced four at a
    time, and four such rows are more than a band may take."""
    width = 9_000_000
    data = _png_header_only(width, 6)
    says = _reason(data, (100, 100), max_pixels=10**8)
    assert says == f"too large (rows of {width} pixels)"


WHOLE = "too large to decode whole"


@pytest.mark.parametrize(
    ("declared", "says"),
    [
        # (width, height, bit depth, colour type): interlaced, so decoded whole. 36 MP at
        # the one byte a pixel of 1-bit grey, grey and palette; 2 bytes of 16-bit grey;
        # 4 of RGB: within 64 MiB the decode goes ahead (and finds the rows missing).
        ((8000, 4500, 1, 0), "damaged image"),
        ((8000, 4500, 8, 0), "damaged image"),
        ((8000, 4500, 8, 3), "damaged image"),
        ((6000, 4000, 16, 0), "damaged image"),
        ((4096, 4096, 8, 2), "damaged image"),  # 64 MiB met exactly
        ((4096, 4097, 8, 2), f"{WHOLE} (4096×4097 pixels)"),
        ((4500, 4000, 8, 4), f"{WHOLE} (4500×4000 pixels)"),  # grey and alpha: 4 bytes
    ],
)
def test_a_whole_decode_counts_the_bytes_its_mode_takes(
    declared: tuple[int, int, int, int], says: str
) -> None:
    """What may be decoded whole is counted in the bytes Pillow holds a pixel of that mode
    in, before any pixel is read: a 36-megapixel grey screenshot is shown, not refused."""
    assert _reason(_png_header_only(*declared, interlace=1), (100, 100)) == says


def _text(body: bytes) -> bytes:
    return (
        struct.pack(">I", len(body))
        + b"tEXt"
        + body
        + struct.pack(">I", zlib.crc32(b"tEXt" + body))
    )


@pytest.mark.parametrize(
    ("declared", "options"),
    [
        ((4500, 4000), {"before": _text(b"Software\0shot")}),  # 13 bytes, as an IHDR
        ((4500, 4000), {"before": _text(b"Comment\0" + b"x" * 40)}),
        ((4500, 4000), {"after": b"\xff\xff\xff\xffjunk"}),  # bytes after IEND
        ((1, 17_000_000), {}),  # one pixel wide
    ],
)
def test_a_large_png_is_read_in_bands_whatever_its_other_chunks(
    declared: tuple[int, int], options: dict[str, bytes]
) -> None:
    """An RGB PNG of 18 or 17 megapixels is more than may be decoded whole (72 MB): read in
    bands it goes ahead (and finds its rows missing), whatever chunks it carries besides,
    and one pixel wide too."""
    data = _png_header_only(*declared, colour=2, **options)  # type: ignore[arg-type]
    assert _reason(data, (100, 100)) == "damaged image"


def test_an_image_fits_the_narrower_side_of_its_box() -> None:
    assert prepare(png_bytes((200, 100)), (50, 100)).size == fit((200, 100), (50, 100)) == (50, 25)
    assert prepare(png_bytes((100, 200)), (100, 50)).size == (25, 50)


def test_a_chunk_declaring_more_than_2_gib_is_a_damaged_image() -> None:
    data = _encoded(Image.effect_noise((60, 40), 64).convert("RGB"), "PNG")
    huge = b"\x80\x00\x00\x00zzZz" + bytes(8)  # 2^31 bytes declared, 8 there
    assert _reason(data[:-12] + huge + data[-12:], (30, 20)) == "damaged image"
