from __future__ import annotations

import pytest

from citegraph import InvalidDocument
from citegraph.ingest.decode import stored_text


def test_bytes_are_kept_exactly() -> None:
    data = "Line one\r\n“Curly” and 'straight' -- _emphasis_ *bold*\rend\n".encode()
    assert stored_text(data, "x") == data


def test_utf8_bom_is_dropped_and_nothing_else() -> None:
    assert stored_text(b"\xef\xbb\xbfhello\r\n", "x") == b"hello\r\n"


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        (b"", "empty"),
        (b"\xef\xbb\xbf", "empty"),
        (b"   \n\t ", "only whitespace"),
        (b"caf\xe9 au lait", "not valid UTF-8 at byte 3"),
        (b"ok" * 1_000_000 + b"\xff", "not valid UTF-8 at byte 2000000"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"),
        ("hello".encode("utf-16"), "UTF-16"),
        (b"\xff\xfe\x00\x00h\x00\x00\x00", "UTF-32"),
        (b"truncated \xe2\x80", "not valid UTF-8 at byte 10"),
    ],
)
def test_bad_text_is_refused_with_a_reason(data: bytes, fragment: str) -> None:
    with pytest.raises(InvalidDocument, match=fragment):
        stored_text(data, "x")
