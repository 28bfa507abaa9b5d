"""Checks that bytes are text citegraph can store exactly, and nothing else."""

from __future__ import annotations

import codecs

from ..errors import InvalidDocument

UTF8_BOM = b"\xef\xbb\xbf"
_OTHER_BOMS = {
    b"\x00\x00\xfe\xff": "UTF-32",
    b"\xff\xfe\x00\x00": "UTF-32",
    b"\xfe\xff": "UTF-16",
    b"\xff\xfe": "UTF-16",
}
_SLICE = 1 << 20


def stored_text(data: bytes, label: str) -> bytes:
    """Return the bytes to store for a text document, or raise `InvalidDocument`.

    The bytes are kept exactly (line endings, typographic quotes, emphasis marks), except that a
    leading UTF-8 byte order mark is dropped: it is an encoding signature, not text, and byte
    offsets count from the first character after it.
    """
    if not data:
        raise InvalidDocument(f"{label}: the file is empty (0 bytes); nothing to store")
    for bom, encoding in _OTHER_BOMS.items():
        if data.startswith(bom):
            raise InvalidDocument(
                f"{label}: the text is {encoding} (it starts with a {encoding} byte order mark); "
                "citegraph stores UTF-8 only: convert it first, e.g. iconv -f "
                f"{encoding} -t UTF-8"
            )
    if data.startswith(UTF8_BOM):
        data = data[len(UTF8_BOM) :]
        if not data:
            raise InvalidDocument(f"{label}: the file is empty (only a byte order mark)")
    nul = data.find(b"\x00")
    if nul >= 0:
        raise InvalidDocument(
            f"{label}: looks like a binary file, not text (a NUL byte at offset {nul})"
        )
    _check_utf8(data, label)
    if not data.strip():
        raise InvalidDocument(f"{label}: the file holds only whitespace; nothing to store")
    return data


def _check_utf8(data: bytes, label: str) -> None:
    # Decoded slice by slice and thrown away, so a 50 MB file never exists twice as str.
    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    view = memoryview(data)
    for start in range(0, len(data), _SLICE):
        try:
            decoder.decode(view[start : start + _SLICE], final=start + _SLICE >= len(data))
        except UnicodeDecodeError as exc:
            offset = start + exc.start
            raise InvalidDocument(
                f"{label}: not valid UTF-8 at byte {offset} (a binary file, or text in another "
                "encoding? convert it to UTF-8 first)"
            ) from None
