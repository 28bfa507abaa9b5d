"""The offline check of an answer document: every citation against the evidence the export
carries, and the prose a reader reads against its claims. The stored bytes are compared only by
`check_against_store` (audit/store_check.py)."""

from __future__ import annotations

from ..text.quotes import locate, span_at_word_edges
from ..values.answers import Answer, Disposition, Wording, answer_text, flat
from ..values.documents import Citation
from ..values.evidence import EvidenceItem


def _item_problems(item: EvidenceItem, size: int) -> list[str]:
    if item.start_byte < 0 or item.end_byte - item.start_byte != size:
        return [
            f"{item.id}: span [{item.start_byte}, {item.end_byte}) cannot hold its "
            f"{size:,} bytes of text"
        ]
    if item.page is not None and (item.page < 1 or (item.end_page or item.page) < item.page):
        return [f"{item.id}: impossible pages {item.page}-{item.end_page}"]
    return []


def _citation_problems(where: str, citation: Citation, item: EvidenceItem) -> list[str]:
    """What a citation claims beyond its bytes, compared with the item it names."""
    problems = []
    if citation.end_byte - citation.start_byte != len(citation.quote.encode("utf-8")):
        problems.append(f"{where}: the span's length is not the quote's")
    if citation.text_origin != item.text_origin:
        problems.append(f"{where}: its text origin is not the item's")
    if item.page is None:
        if citation.page is not None or citation.end_page is not None:
            problems.append(f"{where}: it names a page; the item has none")
    else:
        last = item.end_page or item.page
        first_page, end_page = citation.page, citation.end_page or citation.page
        if first_page is None or not item.page <= first_page <= (end_page or 0) <= last:
            problems.append(
                f"{where}: pages {citation.page}-{citation.end_page} are not within the item's "
                f"{item.page}-{last}"
            )
    return problems


def check(answer: Answer) -> list[str]:
    """Problems with an answer's citations, found without the database; empty when all hold.
    It compares the answer with the evidence the export carries: the stored bytes are checked
    only by `check_against_store` (audit/store_check.py)."""
    problems: list[str] = []
    if answer.disposition is Disposition.REFUSED:
        if answer.text is not None or answer.claims:
            problems.append("a refusal carries answer text or claims")
        return problems
    if not answer.claims:
        problems.append("an answer without claims")
    # What a reader reads: the answer text is its claims' texts, and a claim worded as its
    # quotes is exactly them. (A model's own wording is marked, and its citations checked.)
    if answer.text != answer_text(answer.claims):
        problems.append("the answer text is not the text of its claims")
    items = {i.id: i for i in answer.evidence.items}
    # Each item encoded once, however many citations name it: the check is linear in the
    # items' size plus the citations' (bench/check.py).
    encoded = {i.id: i.text.encode("utf-8") for i in answer.evidence.items}
    broken: set[str] = set()
    for each in answer.evidence.items:
        said = _item_problems(each, len(encoded[each.id]))
        if said:
            broken.add(each.id)
            problems.extend(said)
    for n, claim in enumerate(answer.claims, start=1):
        if not claim.citations:
            problems.append(f"claim {n} cites nothing")
        before = len(problems)
        for citation, item_id in zip(claim.citations, claim.evidence_ids, strict=True):
            where = f"claim {n}, {item_id}"
            item = items.get(item_id)
            if item is None or not item.citable:
                problems.append(f"{where}: no citable evidence item {item_id!r}")
                continue
            if item_id in broken:
                continue  # said above
            if (citation.document_id, citation.chunk_id) != (item.document_id, item.chunk_id):
                problems.append(f"{where}: the citation names another document or chunk")
                continue
            if not item.start_byte <= citation.start_byte < citation.end_byte <= item.end_byte:
                problems.append(
                    f"{where}: span [{citation.start_byte}, {citation.end_byte}) "
                    f"is outside the item"
                )
                continue
            claimed = _citation_problems(where, citation, item)
            if claimed:
                problems.extend(claimed)
                continue
            text = encoded[item_id]
            lo = citation.start_byte - item.start_byte
            stored = text[lo : citation.end_byte - item.start_byte]
            if stored != citation.quote.encode("utf-8"):
                problems.append(f"{where}: the quote is not the item's bytes at its span")
                continue
            if not span_at_word_edges(text, lo, lo + len(stored)):
                problems.append(f"{where}: the span starts or ends inside a word")
                continue
            # The quote is the item's bytes at a whole-word span; what is left to ask is
            # whether it is a quote at all (not only emphasis marks or elisions, say).
            if not locate(citation.quote, citation.quote).found:
                problems.append(f"{where}: the quote does not locate in the item")
        quotes = flat(" ".join(c.quote for c in claim.citations))
        # Said once per edit: a claim whose quotes are in doubt is not also said to differ.
        if (
            len(problems) == before
            and claim.wording is Wording.QUOTED
            and flat(claim.text) != quotes
        ):
            problems.append(f"claim {n}: its text is not its quotes, as its wording says")
    return problems
