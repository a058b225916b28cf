"""A PNG's pixel rows a band at a time, so a large PNG is never held whole in memory.

A PNG's pixels are one zlib stream of rows, each row filtered against the one above it.
The stream is inflated a band of rows at a time (`zlib`, capped by `max_length`), and each
band is turned into pixels by Pillow's own PNG row decoder through its public
`Image.frombytes(mode, size, data, "zip", rawmode)`. A band's first row is filtered against
the last row of the band before it, so that row goes in front of the band once more,
unfiltered (filter type 0), and is cut off again after decoding.

Only what Pillow's pixels hold exactly can be put back as that row: non-interlaced PNGs of
8 bits a channel (grey, RGB, palette, grey with alpha, RGBA) and 1-bit grey, which is what
screen captures are. `png_layout` says None for any other PNG, which is then decoded whole.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator
from typing import NamedTuple

from PIL import Image

SIGNATURE = b"\x89PNG\r\n\x1a\n"
# (bit depth, colour type) -> (Pillow mode, raw mode of the rows), where the decoded pixels
# give the raw row back exactly.
_MODES = {
    (1, 0): ("1", "1"),
    (8, 0): ("L", "L"),
    (8, 2): ("RGB", "RGB"),
    (8, 3): ("P", "P"),
    (8, 4): ("LA", "LA"),
    (8, 6): ("RGBA", "RGBA"),
}
_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


class PngLayout(NamedTuple):
    """What it takes to read a PNG's rows: size, modes, bytes a row, the deflated pixels."""

    width: int
    height: int
    mode: str  # Pillow's mode of the decoded pixels
    rawmode: str  # how a row is laid out in the stream
    row_bytes: int  # bytes of one row, without its filter byte
    pixels: bytes  # the IDAT chunks' data, joined: one zlib stream


def png_layout(data: bytes) -> PngLayout | None:
    """The layout of a PNG whose rows can be read in bands, else None (not a PNG, interlaced,
    a bit depth other than 8, or 1 for grey, or chunks that do not add up)."""
    if not data.startswith(SIGNATURE):
        return None
    header: tuple[int, ...] | None = None
    pixels: list[memoryview] = []
    view = memoryview(data)  # chunks are sliced without copies, joined once
    pos = len(SIGNATURE)
    while pos + 8 <= len(data):
        length, kind = struct.unpack_from(">I4s", data, pos)
        body = view[pos + 8 : pos + 8 + length]
        if len(body) < length:
            return None  # truncated: Pillow's whole decode says so in its words
        pos += 12 + length
        if kind == b"IHDR" and length == 13:
            header = struct.unpack(">IIBBBBB", body.tobytes())
        elif kind == b"IDAT":
            pixels.append(body)
        elif kind == b"IEND":
            break
    if header is None or not pixels:
        return None
    width, height, depth, colour, _compression, _filter, interlace = header
    modes = _MODES.get((depth, colour))
    if modes is None or interlace or width < 1 or height < 1:
        return None
    row_bytes = (width * depth * _CHANNELS[colour] + 7) // 8
    return PngLayout(width, height, *modes, row_bytes, b"".join(pixels))


def png_bands(layout: PngLayout, rows: int) -> Iterator[Image.Image]:
    """The image's rows as images of `rows` rows each (the last may be shorter), top down,
    in `layout.mode`. ValueError when the stream ends early or is damaged."""
    stream = zlib.decompressobj()
    pending = layout.pixels
    above = b""  # the last row of the band before, as raw bytes
    line = layout.row_bytes + 1  # a filter byte, then the row
    for top in range(0, layout.height, rows):
        count = min(rows, layout.height - top)
        wanted = count * line
        chunks: list[bytes] = []
        got = 0
        while got < wanted:
            try:
                chunk = stream.decompress(pending, wanted - got)
            except zlib.error as exc:
                raise ValueError(f"damaged pixel data ({exc})") from None
            pending = stream.unconsumed_tail
            if not chunk:
                raise ValueError("the pixel data ends early")
            chunks.append(chunk)
            got += len(chunk)
        filtered = b"".join(chunks)
        if above:
            filtered = b"\0" + above + filtered
        size = (layout.width, count + (1 if above else 0))
        # Stored (level 0): a frame for Pillow's decoder, at the cost of a copy.
        band = Image.frombytes(layout.mode, size, zlib.compress(filtered, 0), "zip", layout.rawmode)
        del filtered
        if above:
            band = band.crop((0, 1, layout.width, size[1]))
        last = band.crop((0, count - 1, layout.width, count))
        above = last.tobytes("raw", layout.rawmode)
        yield band
