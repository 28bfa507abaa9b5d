"""Large text files are mapped from a private copy: the same chunks as reading them whole, a
snapshot that a later change to the file cannot alter, and pages given back as passes move on."""

from __future__ import annotations

import mmap
from pathlib import Path

import pytest

from citegraph import InvalidDocument, Scope
from citegraph.ingest import mapped
from citegraph.ingest.chunking import chunk_spans
from citegraph.ingest.decode import stored_text
from citegraph.ingest.sources import SourceFile

from conftest import assert_tiles, dataset


@pytest.fixture
def map_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every text file above 1 KB takes the mapped path, so ordinary files exercise it.
    monkeypatch.setattr(mapped, "MAP_ABOVE_BYTES", 1024)
    monkeypatch.setattr(mapped, "RELEASE_STEP", 8 * mmap.PAGESIZE)


def test_a_mapped_file_is_chunked_exactly_as_one_read_whole(
    map_everything: None, tmp_path: Path
) -> None:
    path = dataset("alice/pg11_alice_body.txt")
    whole = path.read_bytes()
    text = mapped.read_file(path, text=True, temp_dir=tmp_path)
    assert isinstance(text, mmap.mmap)
    checked = stored_text(text, path.name)
    assert list(chunk_spans(checked, 2000)) == list(chunk_spans(whole, 2000))
    assert mapped.sha256_of(checked) == mapped.sha256_of(whole)
    assert checked[:] == whole  # read again after its pages were given back
    assert list(tmp_path.iterdir()) == []  # the private copy has no name


def test_ingest_of_a_mapped_file_stores_the_file(map_everything: None, scope: Scope) -> None:
    path = dataset("alice/pg11_alice_body.txt")
    [result] = scope.ingest(path)
    assert_tiles(scope, result.document.id, path.read_bytes())


def test_a_mapped_file_is_a_snapshot(map_everything: None, scope: Scope, tmp_path: Path) -> None:
    original = b"The harbour ledger was copied twice. " * 400
    path = tmp_path / "ledger.txt"
    path.write_bytes(original)
    parsed = scope.parse_file(SourceFile(path=path, name=path.name))
    # Truncated and rewritten after it was read: a mapping of the file itself would fault or
    # store bytes other than those hashed.
    path.write_bytes(b"short")
    [result] = scope.store_parsed([parsed])
    assert_tiles(scope, result.document.id, original)


def test_a_byte_order_mark_is_dropped_from_a_mapped_copy(
    map_everything: None, scope: Scope, tmp_path: Path
) -> None:
    body = "Caf\u00e9 receipts are kept for seven years. ".encode() * 100
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf" + body)
    [result] = scope.ingest(path)
    assert_tiles(scope, result.document.id, body)


def test_bad_mapped_files_are_refused_with_the_same_reasons(
    map_everything: None, scope: Scope, tmp_path: Path
) -> None:
    cases = {
        "nul.txt": (b"a" * 5000 + b"\x00" + b"b" * 10, "NUL byte at offset 5000"),
        "latin1.txt": (b"a" * 6000 + b"caf\xe9 " * 10, "not valid UTF-8 at byte 6003"),
        "blank.txt": (b" \n" * 3000, "only whitespace"),
        "utf16.txt": (b"\xff\xfe" + "text".encode("utf-16-le") * 1000, "UTF-16"),
    }
    for name, (data, reason) in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(InvalidDocument, match=reason):
            scope.ingest(path)
    assert scope.documents() == []
