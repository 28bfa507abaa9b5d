"""Hostile quotes and texts get an answer, not a hang or a crash (timings: bench/quotes.py)."""

from __future__ import annotations

import pytest

from citegraph import Citation, NotFoundReason, Scope, TextOrigin, cite, locate, locate_in
from citegraph.text.fold import FoldedText

from conftest import dataset

MB = 2**20


def test_a_one_megabyte_quote_in_a_ten_megabyte_text() -> None:
    text = "ab " * (10 * MB // 3)
    quote = "ab " * (MB // 3)
    match = locate(quote, text)
    assert match.found and match.start_byte == 0
    assert not locate(quote + "c", text).found


def test_a_periodic_text_and_a_near_miss_quote() -> None:
    text = "a" * (10 * MB)
    match = locate("a" * MB + "b", text)
    assert not match.found and match.reason is NotFoundReason.NOT_IN_TEXT


@pytest.mark.parametrize(
    ("quote", "reason"),
    [
        ("..." * 5000, NotFoundReason.ONLY_ELISIONS),
        ("a ... " * 5000 + "a", NotFoundReason.TOO_MANY_ELISIONS),
        (" \n\t" * 100_000, NotFoundReason.EMPTY),
        ("_*" * 100_000, NotFoundReason.EMPTY),
        ("abc\ud800def", NotFoundReason.NOT_TEXT),
        ("\udfff", NotFoundReason.NOT_TEXT),
    ],
)
def test_degenerate_quotes_are_refused_with_a_reason(quote: str, reason: NotFoundReason) -> None:
    match = locate(quote, "some ordinary text " * 1000)
    assert not match.found and match.reason is reason


def test_a_text_full_of_forgiven_marks() -> None:
    text = ("_*" * 50_000) + "needle" + (" \n" * 50_000) + ("—" * 50_000) + "end"
    match = locate("needle --end", text)
    assert match.found
    assert match.text.startswith("needle") and match.text.endswith("end")
    assert match.start_byte == 100_000


def test_bytes_that_are_not_utf8_are_an_error_not_a_miss() -> None:
    with pytest.raises(UnicodeDecodeError):
        locate("x", b"\xff\xfe")


def test_a_prepared_text_gives_the_same_answers() -> None:
    text = dataset("alice/pg11_alice_body.txt").read_text()
    prepared = FoldedText(text)
    for quote in ("Curiouser and curiouser!", "I beg your pardon", "not in the book at all"):
        assert locate_in(quote, prepared) == locate(quote, text)


def test_citations_carry_document_offsets_pages_and_origin(scope: Scope) -> None:
    [pdf] = scope.ingest(dataset("pdfs/pypdf__Seige_of_Vicksburg_Sample_OCR.pdf"))
    doc = scope.document(pdf.document.id)
    stored = scope.stored_text(doc.id)
    chunks = list(scope.chunks(doc.id))
    last = chunks[-1]
    words = " ".join(last.text.split()[5:12])
    citation = cite(words, last, doc)
    assert isinstance(citation, Citation)
    assert stored[citation.start_byte : citation.end_byte].decode() == citation.quote
    assert citation.page == citation.end_page == 6
    assert citation.chunk_id == last.id and citation.grounding.value == "source"
    assert citation.text_origin is None
    missing = cite("words that are nowhere in this chunk", last, doc)
    assert not missing.found

    origin = TextOrigin("transcript", "call-0412.wav", "whisper large-v3")
    [spoken] = scope.ingest(b"We agreed to ship the fix on Friday.", name="call.txt", origin=origin)
    chunk = next(iter(scope.chunks(spoken.document.id)))
    said = cite("ship the fix on Friday", chunk, spoken.document)
    assert isinstance(said, Citation)
    assert said.text_origin == origin and said.page is None
