"""A PDF whose page tree is broken is a clean error for that file, never a traceback or a 500,
and a folder ingest reports it as a row and goes on (security review, issue 11, item 6)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citegraph import InvalidDocument, Workspace
from citegraph.ingest.pdf import extract_pdf

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

    from citegraph.server import TokenFile, create_app

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
    assert sorted(r["name"] for r in report["results"]) == ["in/b-good.pdf", "in/c-notes.txt"]
