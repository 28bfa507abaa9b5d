"""Acceptance: each bad input gets a clear error, and the store is left exactly as it was."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter

import citegraph
from citegraph import Scope, Workspace

from conftest import dataset


def _snapshot(scope: Scope) -> list[tuple[str, ...]]:
    scope.documents()  # creates the scope's graph and indexes if it is new
    rows = scope.graph.ro_query("MATCH (n) RETURN labels(n)[0], n.id, n.sha256 ORDER BY n.id")
    return [tuple(str(x) for x in row) for row in rows]


def _encrypted_pdf() -> bytes:
    writer = PdfWriter()
    writer.add_page(PdfReader(str(dataset("pdfs/pypdf__crazyones.pdf"))).pages[0])
    writer.encrypt(user_password="s3cret", owner_password="s3cret")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


BAD_FILES = {
    "invalid-utf8.txt": (lambda: b"caf\xe9\n", "not valid UTF-8 at byte 3"),
    "zero.txt": (lambda: b"", "empty"),
    "image.txt": (lambda: b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x01", "binary"),
    "corrupt.pdf": (lambda: b"%PDF-1.4\n1 0 obj broken", "not a readable PDF"),
    "encrypted.pdf": (_encrypted_pdf, "encrypted"),
    "notes.docx": (lambda: b"PK\x03\x04", "unsupported file type"),
}


@pytest.mark.parametrize("filename", sorted(BAD_FILES))
def test_bad_file_is_refused_and_nothing_changes(
    scope: Scope, tmp_path: Path, filename: str
) -> None:
    scope.ingest(b"An earlier document that must survive.", name="keep.txt")
    before = _snapshot(scope)
    make, message = BAD_FILES[filename]
    path = tmp_path / filename
    path.write_bytes(make())
    with pytest.raises(citegraph.InvalidDocument, match=message):
        scope.ingest(path)
    with pytest.raises(citegraph.InvalidDocument, match=message):
        scope.ingest(path.read_bytes(), name=filename)
    assert _snapshot(scope) == before
    if filename.endswith(".docx"):
        return  # its bytes are fine as text; only the suffix is refused
    # The same content sent as a new version of an existing document leaves the old one.
    kind = "application/pdf" if filename.endswith(".pdf") else "text/plain"
    with pytest.raises(citegraph.InvalidDocument, match=message):
        scope.ingest(path.read_bytes(), name="keep.txt", media_type=kind)
    assert _snapshot(scope) == before


def test_missing_path_is_refused_before_anything_is_read(scope: Scope, tmp_path: Path) -> None:
    good = tmp_path / "good.txt"
    good.write_text("fine")
    before = _snapshot(scope)
    with pytest.raises(citegraph.InputNotFound, match="no-such-file"):
        scope.ingest(tmp_path / "no-such-file.md")
    assert _snapshot(scope) == before


def test_folder_stops_at_the_first_bad_file_keeping_whole_documents(
    scope: Scope, tmp_path: Path
) -> None:
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "a.txt").write_text("first, fine")
    (folder / "b.txt").write_bytes(b"\xff\xfe\xfd")
    (folder / "c.txt").write_text("third, fine")
    with pytest.raises(citegraph.InvalidDocument, match=r"b\.txt"):
        scope.ingest(folder)
    assert [d.name for d in scope.documents()] == ["mixed/a.txt"]


HOSTILE_SCOPES = [
    "",
    "it's",
    'say "hi"',
    "{braces}",
    "a}) MATCH (n) DETACH DELETE n //",
    "x' OR 1=1 --",
    "FLUSHALL\r\nPING",
    "name with space",
    "dots.are.out",
    "-leading-dash",
    "ünïcode",
    "a" * 65,
    "citegraph:other",
]


@pytest.mark.parametrize("name", HOSTILE_SCOPES)
def test_hostile_scope_names_are_refused(workspace: Workspace, name: str) -> None:
    graphs_before = workspace.store.list_graphs()
    with pytest.raises(citegraph.InvalidScopeName, match="invalid scope name"):
        workspace.scope(name)
    assert workspace.store.list_graphs() == graphs_before


def test_safe_scope_names_work(workspace: Workspace) -> None:
    for name in ("a", "Team_1", "proj-2026", "x" * 64):
        assert workspace.scope(name).name == name


def test_hostile_document_names_are_stored_as_data(scope: Scope) -> None:
    name = "x'}) MATCH (n) DETACH DELETE n // \" $param `tick` \\"
    scope.ingest(b"plain text", name=name, media_type="text/plain")
    scope.ingest(b"another", name="other.txt")
    assert sorted(d.name for d in scope.documents()) == sorted([name, "other.txt"])
    assert scope.document(name).name == name
