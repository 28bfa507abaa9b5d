from __future__ import annotations

import io
import json
import os
import re

import pytest
from pypdf import PdfReader, PdfWriter

from citegraph import InvalidDocument, Workspace
from citegraph.ingest.pdf import extract_pdf, page_of

from conftest import dataset

PDFS = [
    "pdfplumber__federal-register-2020-17221",
    "pdfplumber__issue-982-example_creativity-in-ML_MartinThoma",
    "pdfplumber__scotus-transcript-p1",
    "pypdf__GeoBase_NHNC1_Data_Model_UML_EN",
    "pypdf__Seige_of_Vicksburg_Sample_OCR",
    "pypdf__crazyones",
    "pypdf__pdflatex-outline",
]


def _words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z]{4,}", text))


@pytest.mark.parametrize("stem", PDFS)
def test_page_map_matches_an_independent_extraction(stem: str) -> None:
    """Each page's slice of our text shares its words with pypdf's text of the same page."""
    path = dataset(f"pdfs/{stem}.pdf")
    reference = json.loads(dataset(f"pdfs/{stem}.pages.json").read_text())
    pages = reference["pages"] if isinstance(reference, dict) else reference
    texts = [p["text"] if isinstance(p, dict) else p for p in pages]
    result = extract_pdf(path.read_bytes(), stem)
    assert len(result.page_starts) == len(texts)
    assert result.page_starts[0] == 0
    bounds = [*result.page_starts, len(result.text)]
    for index, theirs in enumerate(texts):
        ours = result.text[bounds[index] : bounds[index + 1]].decode()
        expected = _words(theirs)
        if len(expected) < 10:
            continue
        overlap = len(_words(ours) & expected) / len(expected)
        assert overlap > 0.6, (index + 1, overlap)
        for offset in (bounds[index], bounds[index + 1] - 1):
            assert page_of(result.page_starts, offset) == index + 1


def test_vicksburg_pages_are_pdf_indexes_not_printed_numbers() -> None:
    result = extract_pdf(dataset("pdfs/pypdf__Seige_of_Vicksburg_Sample_OCR.pdf").read_bytes(), "v")
    assert len(result.page_starts) == 6
    first = result.text[: result.page_starts[1]].decode()
    assert "VICKSBURG. 49" in first  # printed page 49 is PDF page 1
    assert page_of(result.page_starts, len(result.text) - 1) == 6


def _pdf(pages: int, text_on: set[int], password: str | None = None) -> bytes:
    writer = PdfWriter()
    source = PdfReader(str(dataset("pdfs/pypdf__crazyones.pdf")))
    for index in range(pages):
        if index in text_on:
            writer.add_page(source.pages[0])
        else:
            writer.add_blank_page(width=612, height=792)
    if password is not None:
        writer.encrypt(user_password=password, owner_password=password)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_image_only_pdf_is_refused() -> None:
    with pytest.raises(InvalidDocument, match="no page of the PDF has a text layer"):
        extract_pdf(_pdf(2, set()), "scan.pdf")


def test_a_page_without_text_gets_a_warning() -> None:
    result = extract_pdf(_pdf(3, {0, 2}), "mixed.pdf")
    assert len(result.warnings) == 1 and "page 2 has no text layer" in result.warnings[0]
    assert len(result.page_starts) == 3


def test_encrypted_pdf_is_refused() -> None:
    with pytest.raises(InvalidDocument, match="encrypted"):
        extract_pdf(_pdf(1, {0}, password="secret"), "locked.pdf")


@pytest.mark.parametrize("data", [b"%PDF-1.7\n garbage", b"not a pdf at all", b"%PDF-"])
def test_corrupt_pdf_is_refused(data: bytes) -> None:
    with pytest.raises(InvalidDocument, match="not a readable PDF"):
        extract_pdf(data, "broken.pdf")


def test_empty_pdf_file_is_refused() -> None:
    with pytest.raises(InvalidDocument, match="empty"):
        extract_pdf(b"", "zero.pdf")


def test_page_furniture_is_kept_but_never_evidence(workspace: Workspace) -> None:
    """The Federal Register's running header and print-shop line repeat on every page: they
    are kept byte for byte, in chunks of their own marked furniture, and no evidence item or
    quote holds them (issue 15: "takeoff from Soekarno-VerDate Sep<11>2014 ...")."""
    scope = workspace.scope(f"furniture{os.getpid()}")
    [result] = scope.ingest(dataset("pdfs/pdfplumber__federal-register-2020-17221.pdf"))
    doc = result.document
    chunks = list(scope.chunks(doc.id))
    stored = scope.stored_text(doc.id)
    assert b"".join(stored[c.start_byte : c.end_byte] for c in chunks) == stored
    furniture = [c for c in chunks if c.furniture]
    assert len(furniture) >= 15  # a header or footer on each of the 15 pages
    assert all(
        "VerDate" in c.text or "Federal Register / Vol." in c.text or "PROPOSALS" in c.text
        for c in furniture
    )
    assert not any("VerDate" in c.text for c in chunks if not c.furniture)
    for question in (
        "When did the Lion Air accident happen?",
        "Where did the Lion Air Flight 610 accident happen?",
        "What is the stall warning system called on the 737?",
    ):
        answer = scope.ask(question)
        assert answer.disposition.value == "answered", answer.detail
        for passage in (*answer.evidence.items, *answer.evidence.context):
            assert "VerDate" not in passage.text and "Federal Register / Vol." not in passage.text
        for citation in answer.citations:
            assert "VerDate" not in citation.quote and "Jkt" not in citation.quote
    stall = scope.ask("What is the stall warning system called on the 737?")
    assert any("stick" in c.quote and "shaker" in c.quote for c in stall.citations)
