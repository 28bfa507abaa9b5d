"""A PDF whose page tree is broken is a clean error for that file, never a traceback or a 500,
and a folder ingest reports it as a row and goes on (security review, issue 11, item 6)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import citegraph
from citegraph import InvalidDocument, Workspace
from citegraph.ingest.pdf import extract_pdf
from citegraph.ingest.pdf_guard import PdfLimits, extract_pdf_guarded

from helpers import cli


def _pdf(objects: list[bytes]) -> bytes:
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    trailer = f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
    return out + trailer.encode()


PAGE = (
    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R "
    b"/Resources << /Font << /F1 5 0 R >> >> >>"
)
CONTENT = b"<< /Length 44 >>\nstream\nBT /F1 12 Tf 20 100 Td (Hello world) Tj ET\nendstream"
FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
# The page tree lists itself among its own kids.
CYCLIC = _pdf(
    [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>",
        PAGE,
        CONTENT,
        FONT,
    ]
)
GOOD = _pdf(
    [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        PAGE,
        CONTENT,
        FONT,
    ]
)


def test_a_cyclic_page_tree_is_an_invalid_document() -> None:
    assert extract_pdf(GOOD, "good.pdf").text.decode().strip() == "Hello world"
    with pytest.raises(InvalidDocument, match="pdf-unreadable"):
        extract_pdf(CYCLIC, "cyclic.pdf")


def test_the_api_answers_422_not_500(workspace: Workspace, tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from citegraph.surfaces.http import TokenFile, create_app

    tokens = TokenFile(tmp_path / "tokens.json")
    token = tokens.create(["pdfs"], "read,write")
    client = TestClient(create_app(workspace, tokens))
    reply = client.post(
        "/v1/documents",
        data={"scope": "pdfs"},
        files=[("file", ("cyclic.pdf", CYCLIC, "application/pdf"))],
        headers={"Authorization": f"Bearer {token}"},
    )
    assert reply.status_code == 422, reply.text
    assert reply.json()["error"]["code"] == "invalid_document"
    assert "pdf-unreadable" in reply.json()["error"]["message"]
    assert workspace.scope("pdfs").documents() == []


def test_a_folder_ingest_reports_the_bad_pdf_and_goes_on(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a-cyclic.pdf").write_bytes(CYCLIC)
    (folder / "b-good.pdf").write_bytes(GOOD)
    (folder / "c-notes.txt").write_text("The tide tables are in the blue ledger.\n")
    done = cli("ingest", str(folder), "--home", str(tmp_path / "home"), "--json")
    assert done.returncode == 1, done.stderr  # something failed: said by the exit code
    assert "Traceback" not in done.stderr
    report = json.loads(done.stdout)
    assert [e["name"] for e in report["errors"]] == ["in/a-cyclic.pdf"]
    assert "pdf-unreadable" in report["errors"][0]["message"]
    assert sorted(r["document"]["name"] for r in report["results"]) == [
        "in/b-good.pdf",
        "in/c-notes.txt",
    ]


def _bomb(megabytes: int) -> bytes:
    """A page whose content stream inflates from a few hundred KB to `megabytes` MB."""
    import zlib

    stream = b"BT /F1 12 Tf 20 100 Td (Hello world) Tj ET\n" + b" " * (megabytes * 1024 * 1024)
    packed = zlib.compress(stream, 9)
    return _pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            PAGE,
            f"<< /Length {len(packed)} /Filter /FlateDecode >>\nstream\n".encode()
            + packed
            + b"\nendstream",
            FONT,
        ]
    )


def test_a_decompression_bomb_is_refused_and_leaves_the_reader_unharmed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 5: read in a child process that limits its own memory (here 200 MB against a
    stream that inflates to 300 MB): that file is refused, this process never holds it."""
    import resource

    bomb = _bomb(300)
    assert len(bomb) < 400_000
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(InvalidDocument, match="pdf-too-large"):
        extract_pdf_guarded(bomb, "bomb.pdf", PdfLimits(memory_mb=200))
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert after - before < 50_000  # KB: the 300 MB never came into this process
    monkeypatch.setenv("CITEGRAPH_PDF_MEMORY_MB", "200")  # the setting reaches the reader
    with citegraph.open(tmp_path / "home") as workspace:
        assert workspace.settings.pdf_memory_mb == 200
        scope = workspace.scope("bombs")
        with pytest.raises(InvalidDocument, match="pdf-too-large"):
            scope.ingest(bomb, name="bomb.pdf")
        scope.ingest(GOOD, name="good.pdf")  # the next PDF reads as usual
        assert [d.name for d in scope.documents()] == ["good.pdf"]


def test_a_pdf_with_too_many_pages_is_refused() -> None:
    two = GOOD.replace(b"/Kids [3 0 R] /Count 1", b"/Kids [3 0 R 3 0 R] /Count 2")
    with pytest.raises(InvalidDocument, match="pdf-too-large: 2 pages"):
        extract_pdf_guarded(two, "two.pdf", PdfLimits(max_pages=1))
    assert extract_pdf_guarded(GOOD, "good.pdf", PdfLimits(max_pages=1)).page_starts == (0,)
