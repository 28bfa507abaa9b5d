from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from citegraph.ingest.chunking import chunk_spans

_ALPHABET = st.sampled_from(
    [*"abc XYZ.!?\n\n\t\r", "é", "—", "“", "”", "’", "…", "中", "文", "。", "𝔘", "_", "*"]
)
texts = st.lists(_ALPHABET, min_size=1, max_size=3000).map(lambda cs: "".join(cs).encode())


def _check(data: bytes, spans: list[tuple[int, int]], budget: int) -> None:
    assert spans[0][0] == 0 and spans[-1][1] == len(data)
    for (_, end), (start, _) in itertools.pairwise(spans):
        assert end == start
    for start, end in spans:
        assert 0 < end - start <= budget
        data[start:end].decode("utf-8")  # every cut on a character boundary


@settings(max_examples=300, deadline=None)
@given(texts, st.integers(min_value=4, max_value=600))
def test_chunks_tile_the_text_within_the_budget(data: bytes, budget: int) -> None:
    _check(data, list(chunk_spans(data, budget)), budget)


@settings(max_examples=200, deadline=None)
@given(texts, st.integers(min_value=8, max_value=600), st.lists(st.integers(0, 3000), max_size=6))
def test_forced_breaks_are_respected_unless_the_piece_is_blank(
    data: bytes, budget: int, raw_breaks: list[int]
) -> None:
    breaks = sorted({b for b in raw_breaks if 0 < b < len(data)})
    # only breaks on character boundaries, as page starts always are
    breaks = [b for b in breaks if not 0xC0 > data[b] >= 0x80]
    spans = list(chunk_spans(data, budget, breaks))
    _check(data, spans, budget)
    starts = {s for s, _ in spans}
    bounds = [0, *breaks, len(data)]
    for i, b in enumerate(breaks):
        before = data[bounds[i] : b]
        after = data[b : bounds[i + 2]]
        if before.strip() and after.strip():
            assert b in starts


def test_paragraph_breaks_are_preferred_to_sentences() -> None:
    para = b"First sentence here. Second sentence here.\n\n"
    data = para * 20
    spans = list(chunk_spans(data, 200))
    for start, end in spans[:-1]:
        assert data[start:end].endswith(b"\n\n")


def test_sentence_end_when_no_paragraph_fits() -> None:
    data = b"One two three four five six. " * 40
    spans = list(chunk_spans(data, 100))
    for start, end in spans[:-1]:
        assert data[start:end].endswith(b". ")


def test_hard_cut_on_a_character_boundary() -> None:
    data = "é" * 101
    spans = list(chunk_spans(data.encode(), 9))
    assert all(end - start == 8 for start, end in spans[:-1])


def test_tiny_budget_is_refused() -> None:
    import pytest

    with pytest.raises(ValueError):
        list(chunk_spans(b"abc", 3))


def test_a_markdown_heading_stays_with_the_text_it_heads() -> None:
    data = (
        b"# Title\n\nAn intro paragraph, long enough to pass a quarter of the budget.\n\n"
        b"## Section\n\n" + b"Words of the section go on. " * 12 + b"\n"
    )
    spans = list(chunk_spans(data, 200))
    assert any(data[start:end].startswith(b"## Section") for start, end in spans)
    assert not any(data[start:end].rstrip().endswith(b"## Section") for start, end in spans)
