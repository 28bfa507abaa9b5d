"""Checks that bytes are text citegraph can store exactly, and nothing else."""

from __future__ import annotations

import codecs
import re

from ..errors import InvalidDocument
from .mapped import TextBuffer, release, slices

UTF8_BOM = b"\xef\xbb\xbf"
_OTHER_BOMS = {
    b"\x00\x00\xfe\xff": "UTF-32",
    b"\xff\xfe\x00\x00": "UTF-32",
    b"\xfe\xff": "UTF-16",
    b"\xff\xfe": "UTF-16",
}
_SLICE = 1 << 20
_NOT_SPACE = re.compile(rb"[^ \t\n\r\f\v]")


def stored_text(data: TextBuffer, label: str) -> TextBuffer:
    """Return the bytes to store for a text document, or raise `InvalidDocument`.

    The bytes are kept exactly (line endings, typographic quotes, emphasis marks), except that a
    leading UTF-8 byte order mark is dropped: it is an encoding signature, not text, and byte
    offsets count from the first character after it.
    """
    if not data:
        raise InvalidDocument(f"{label}: the file is empty (0 bytes); nothing to store")
    head = data[:4]
    for bom, encoding in _OTHER_BOMS.items():
        if head.startswith(bom):
            raise InvalidDocument(
                f"{label}: the text is {encoding} (it starts with a {encoding} byte order mark); "
                "citegraph stores UTF-8 only: convert it first, e.g. iconv -f "
                f"{encoding} -t UTF-8"
            )
    if head.startswith(UTF8_BOM):
        data = bytes(data[len(UTF8_BOM) :])  # a mapped copy never starts with one
        if not data:
            raise InvalidDocument(f"{label}: the file is empty (only a byte order mark)")
    for start in range(0, len(data), _SLICE):
        nul = data.find(b"\x00", start, start + _SLICE)
        if nul >= 0:
            raise InvalidDocument(
                f"{label}: looks like a binary file, not text (a NUL byte at offset {nul})"
            )
        release(data, start + _SLICE)
    _check_utf8(data, label)
    if not _NOT_SPACE.search(data):
        raise InvalidDocument(f"{label}: the file holds only whitespace; nothing to store")
    release(data, len(data))
    return data


def _check_utf8(data: TextBuffer, label: str) -> None:
    # Decoded slice by slice and thrown away, so a 50 MB file never exists twice as str.
    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    for start, piece in slices(data, _SLICE):
        try:
            decoder.decode(piece, final=start + _SLICE >= len(data))
        except UnicodeDecodeError as exc:
            offset = start + exc.start
            raise InvalidDocument(
                f"{label}: not valid UTF-8 at byte {offset} (a binary file, or text in another "
                "encoding? convert it to UTF-8 first)"
            ) from None
